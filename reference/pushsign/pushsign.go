// Package pushsign is the one implementation of Pyyol's push-request
// signing (protocol.md "Authentication & request signing"): the canonical
// signing string, the v1= HMAC-SHA256 signature, and verification with a
// constant-time compare, a ±300 s skew window and replayed-nonce rejection.
// The reference push agent verifies with it, the runner signs with it
// (conformance/driver's HMACSigner), and the vectors pin it.
package pushsign

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"
)

// The headers of a signed push request, as protocol.md names them.
const (
	TimestampHeader = "X-Arena-Timestamp"
	NonceHeader     = "X-Arena-Request-Id"
	SignatureHeader = "X-Arena-Signature"
	// Prefix precedes the hex digest in the signature header.
	Prefix = "v1="
	// TimeFormat is the timestamp layout: RFC3339, sent in UTC.
	TimeFormat = time.RFC3339
	// Skew is how far a timestamp may lie from the verifier's clock.
	Skew = 300 * time.Second
)

// SigningString is the canonical text the signature binds: "timestamp \n
// nonce \n METHOD \n path \n hex(sha256(body))". The method is upper-cased
// and any query string is cut from path ("the request path (no query
// string)"), so a caller may pass a request URI as it stands.
func SigningString(timestamp, nonce, method, path string, body []byte) string {
	return string(appendSigningString(nil, timestamp, nonce, method, path, body))
}

// appendSigningString appends SigningString's text to buf, allocating
// only when buf is too small (the verifier reuses one buffer).
func appendSigningString(buf []byte, timestamp, nonce, method, path string, body []byte) []byte {
	sum := sha256.Sum256(body)
	path, _, _ = strings.Cut(path, "?")
	buf = append(buf, timestamp...)
	buf = append(buf, '\n')
	buf = append(buf, nonce...)
	buf = append(buf, '\n')
	for i := 0; i < len(method); i++ {
		c := method[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		buf = append(buf, c)
	}
	buf = append(buf, '\n')
	buf = append(buf, path...)
	buf = append(buf, '\n')
	return hex.AppendEncode(buf, sum[:])
}

// Signature is hex(hmacSHA256(secret, signingString)).
func Signature(secret []byte, timestamp, nonce, method, path string, body []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(SigningString(timestamp, nonce, method, path, body)))
	return hex.EncodeToString(mac.Sum(nil))
}

// Header is the signature header's value: "v1=" and the hex signature.
func Header(secret []byte, timestamp, nonce, method, path string, body []byte) string {
	return Prefix + Signature(secret, timestamp, nonce, method, path, body)
}

// Timestamp formats t as the timestamp header wants it (RFC3339 UTC).
func Timestamp(t time.Time) string { return t.UTC().Format(TimeFormat) }

// HMACSHA256 is the bare primitive, for the RFC 4231 vectors and the
// benchmark that weighs verification against it.
func HMACSHA256(key, data []byte) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write(data)
	return mac.Sum(nil)
}
