package pushsign

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"hash"
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

	work sync.Pool // of *signer, keyed with secret

	mu     sync.Mutex
	nonces nonceStore
	// maxNonces is MaxNonces, smaller in tests.
	maxNonces int
}

// MaxNonces bounds the nonces a verifier remembers: the requests one
// endpoint accepts within a skew window (2 × 300 s + 1 s). Past it the
// verifier refuses new requests as replays (fails closed) until old
// nonces expire, rather than forget a nonce early and let its request be
// replayed. At about 100 bytes a nonce it is some 100 MiB at most.
const MaxNonces = 1 << 20

// nonceStore remembers accepted nonces until they expire, with O(1)
// insert, look-up and (amortized) expiry: every nonce lives the same
// span, so they expire in the order they were accepted, and a queue in
// that order says which to forget next without a scan.
type nonceStore struct {
	until map[string]int64 // accepted nonce -> when it may be forgotten (Unix ns)
	queue []queued         // the nonces in acceptance order, from head
	head  int
}

type queued struct {
	nonce string
	until int64
}

// expire forgets every nonce whose time is up at now.
func (n *nonceStore) expire(now int64) {
	for n.head < len(n.queue) && now >= n.queue[n.head].until {
		q := n.queue[n.head]
		if u, ok := n.until[q.nonce]; ok && u == q.until {
			delete(n.until, q.nonce)
		}
		n.queue[n.head] = queued{}
		n.head++
	}
	if n.head > 1024 && n.head*2 > len(n.queue) {
		// Compact once the forgotten head is most of the queue, so its
		// memory follows the live nonces (amortized O(1) per nonce).
		n.queue = append(n.queue[:0], n.queue[n.head:]...)
		n.head = 0
	}
}

// add remembers nonce until until.
func (n *nonceStore) add(nonce string, until int64) {
	if n.until == nil {
		n.until = map[string]int64{}
	}
	n.until[nonce] = until
	n.queue = append(n.queue, queued{nonce: nonce, until: until})
}

// NewVerifier returns a verifier for secret reading the clock now (nil:
// time.Now).
func NewVerifier(secret []byte, now func() time.Time) *Verifier {
	if now == nil {
		now = time.Now
	}
	v := &Verifier{secret: secret, now: now, maxNonces: MaxNonces}
	v.work.New = func() any { return &signer{mac: hmac.New(sha256.New, secret)} }
	return v
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
// request carries with the one its parts produce, nothing else. It
// allocates nothing per request: the HMAC state is reused (keyed once per
// verifier) and the signing text is written into a reused buffer, so a
// verification costs little more than the HMAC itself.
func (v *Verifier) SignatureMatches(s Signed) bool {
	got, ok := strings.CutPrefix(s.Signature, Prefix)
	if !ok || len(got) != 2*sha256.Size {
		return false
	}
	var gotRaw, want [sha256.Size]byte
	if _, err := hex.Decode(gotRaw[:], []byte(got)); err != nil {
		return false
	}
	w := v.work.Get().(*signer)
	defer v.work.Put(w)
	w.text = appendSigningString(w.text[:0], s.Timestamp, s.Nonce, s.Method, s.Path, s.Body)
	w.mac.Reset()
	w.mac.Write(w.text)
	return hmac.Equal(gotRaw[:], w.mac.Sum(want[:0]))
}

// signer is one verification's reusable state: the HMAC keyed with the
// verifier's secret and the buffer the signing text is written into.
type signer struct {
	mac  hash.Hash
	text []byte
}

// remember records an accepted nonce, refusing one already seen. Nonces
// are forgotten once any request carrying them would be stale anyway.
func (v *Verifier) remember(nonce string, now time.Time) Reason {
	v.mu.Lock()
	defer v.mu.Unlock()
	at := now.UnixNano()
	v.nonces.expire(at)
	if until, ok := v.nonces.until[nonce]; ok && at < until {
		return ReplayedNonce
	}
	if len(v.nonces.until) >= v.maxNonces {
		return ReplayedNonce
	}
	v.nonces.add(nonce, now.Add(2*Skew+time.Second).UnixNano())
	return OK
}

// remembered is how many nonces the verifier holds (for tests).
func (v *Verifier) remembered() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.nonces.until)
}
