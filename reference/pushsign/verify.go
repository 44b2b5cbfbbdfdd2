package pushsign

import (
	"crypto/hmac"
	"encoding/hex"
	"strings"
	"sync"
	"time"
)

// Reason is why a request was refused; the SDK answers 401
// {"error":"unauthorized","reason":<Reason>}.
type Reason string

// The documented refusal reasons (protocol.md "Errors").
const (
	OK               Reason = ""
	MissingSignature Reason = "missing_signature"
	StaleTimestamp   Reason = "stale_timestamp"
	ReplayedNonce    Reason = "replayed_nonce"
	BadSignature     Reason = "bad_signature"
)

// Signed is what a request carries that verification looks at.
type Signed struct {
	Timestamp, Nonce, Signature string
	Method, Path                string
	Body                        []byte
}

// Verifier checks signed requests for one endpoint secret and remembers the
// nonces it accepted. It is safe for concurrent use.
type Verifier struct {
	secret []byte
	now    func() time.Time

	mu   sync.Mutex
	seen map[string]time.Time // accepted nonce -> when it may be forgotten
}

// NewVerifier returns a verifier for secret reading the clock now (nil:
// time.Now).
func NewVerifier(secret []byte, now func() time.Time) *Verifier {
	if now == nil {
		now = time.Now
	}
	return &Verifier{secret: secret, now: now, seen: map[string]time.Time{}}
}

// Verify returns OK or the reason to refuse. The checks run in the order
// headers, timestamp, signature, nonce; a nonce is remembered only once its
// request verified, so forged requests cannot burn a genuine nonce.
func (v *Verifier) Verify(s Signed) Reason {
	if s.Timestamp == "" || s.Nonce == "" || s.Signature == "" {
		return MissingSignature
	}
	now := v.now()
	ts, err := time.Parse(TimeFormat, s.Timestamp)
	if err != nil || outsideSkew(now, ts) {
		return StaleTimestamp
	}
	if !v.SignatureMatches(s) {
		return BadSignature
	}
	return v.remember(s.Nonce, now)
}

// outsideSkew reports whether ts lies more than Skew from now, either way.
func outsideSkew(now, ts time.Time) bool {
	d := now.Sub(ts)
	return d > Skew || d < -Skew
}

// SignatureMatches compares in constant time (hmac.Equal) the digest the
// request carries with the one its parts produce, nothing else.
func (v *Verifier) SignatureMatches(s Signed) bool {
	got, ok := strings.CutPrefix(s.Signature, Prefix)
	if !ok {
		return false
	}
	gotRaw, err := hex.DecodeString(got)
	if err != nil {
		return false
	}
	want := HMACSHA256(v.secret, []byte(SigningString(s.Timestamp, s.Nonce, s.Method, s.Path, s.Body)))
	return hmac.Equal(gotRaw, want)
}

// remember records an accepted nonce, refusing one already seen. Nonces
// are forgotten once any request carrying them would be stale anyway.
func (v *Verifier) remember(nonce string, now time.Time) Reason {
	v.mu.Lock()
	defer v.mu.Unlock()
	if until, ok := v.seen[nonce]; ok && now.Before(until) {
		return ReplayedNonce
	}
	if len(v.seen) > 4096 {
		for n, until := range v.seen {
			if !now.Before(until) {
				delete(v.seen, n)
			}
		}
	}
	v.seen[nonce] = now.Add(2*Skew + time.Second)
	return OK
}
