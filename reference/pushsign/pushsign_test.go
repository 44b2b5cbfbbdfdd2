package pushsign_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/agentgames/conformance/conformance/benchpair"
	"github.com/agentgames/conformance/reference/pushsign"
)

var t0 = time.Date(2026, 7, 6, 12, 0, 0, 0, time.UTC)

func signed(secret, ts, nonce, path string, body []byte) pushsign.Signed {
	return pushsign.Signed{Timestamp: ts, Nonce: nonce, Method: "POST", Path: path, Body: body,
		Signature: pushsign.Header([]byte(secret), ts, nonce, "POST", path, body)}
}

func TestVerifierAcceptsOnceThenRefusesTheReplay(t *testing.T) {
	v := pushsign.NewVerifier([]byte("s"), func() time.Time { return t0 })
	req := signed("s", pushsign.Timestamp(t0), "req_1", "/turn", []byte(`{}`))
	assert.Equal(t, pushsign.OK, v.Verify(req))
	assert.Equal(t, pushsign.ReplayedNonce, v.Verify(req))
}

func TestForgedRequestsDoNotBurnNonces(t *testing.T) {
	v := pushsign.NewVerifier([]byte("s"), func() time.Time { return t0 })
	assert.Equal(t, pushsign.BadSignature, v.Verify(signed("wrong", pushsign.Timestamp(t0), "req_1", "/turn", nil)))
	assert.Equal(t, pushsign.OK, v.Verify(signed("s", pushsign.Timestamp(t0), "req_1", "/turn", nil)))
}

func TestSkewWindowIsInclusiveAt300Seconds(t *testing.T) {
	v := pushsign.NewVerifier([]byte("s"), func() time.Time { return t0 })
	for i, c := range []struct {
		offset time.Duration
		want   pushsign.Reason
	}{{-300 * time.Second, pushsign.OK}, {300 * time.Second, pushsign.OK},
		{-301 * time.Second, pushsign.StaleTimestamp}, {301 * time.Second, pushsign.StaleTimestamp}} {
		got := v.Verify(signed("s", pushsign.Timestamp(t0.Add(c.offset)), fmt.Sprint("req_", i), "/turn", nil))
		assert.Equal(t, c.want, got, c.offset)
	}
}

func TestNoncesAreForgottenOnlyOnceStale(t *testing.T) {
	now := t0
	v := pushsign.NewVerifier([]byte("s"), func() time.Time { return now })
	assert.Equal(t, pushsign.OK, v.Verify(signed("s", pushsign.Timestamp(t0.Add(300*time.Second)), "n", "/turn", nil)))
	now = t0.Add(599 * time.Second)
	assert.Equal(t, pushsign.ReplayedNonce, v.Verify(signed("s", pushsign.Timestamp(t0.Add(300*time.Second)), "n", "/turn", nil)),
		"still inside the window of the first request's timestamp")
}

func TestConcurrentReplaysAcceptExactlyOne(t *testing.T) {
	v := pushsign.NewVerifier([]byte("s"), func() time.Time { return t0 })
	req := signed("s", pushsign.Timestamp(t0), "req_once", "/turn", nil)
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v.Verify(req) == pushsign.OK {
				mu.Lock()
				ok++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, 1, ok)
}

// FuzzVerify: any header values are judged without panicking, and only a
// request signed with the secret is ever accepted.
func FuzzVerify(f *testing.F) {
	f.Add("2026-07-06T12:00:00Z", "req_1", "v1=00", "POST", "/turn", []byte(`{}`))
	f.Add("", "", "", "", "", []byte(nil))
	f.Add("2026-07-06T12:00:00+09:00", "n", "v1=zz", "get", "/turn?x=1", []byte("\xff"))
	f.Fuzz(func(t *testing.T, ts, nonce, sig, method, path string, body []byte) {
		v := pushsign.NewVerifier([]byte("secret"), func() time.Time { return t0 })
		got := v.Verify(pushsign.Signed{Timestamp: ts, Nonce: nonce, Signature: sig, Method: method, Path: path, Body: body})
		if got == pushsign.OK && sig != pushsign.Header([]byte("secret"), ts, nonce, method, path, body) &&
			!equalFold(sig, pushsign.Header([]byte("secret"), ts, nonce, method, path, body)) {
			t.Fatalf("accepted a signature that is not the secret's: %q", sig)
		}
	})
}

// equalFold compares a signature with the expected one, allowing the
// upper-case hex the decoder also accepts.
func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'F' {
			x += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// TestNonceMemoryFollowsTheWindow: nonces leave memory once their window
// is over, so a steady stream of pushes holds only one window's nonces.
func TestNonceMemoryFollowsTheWindow(t *testing.T) {
	now := t0
	v := pushsign.NewVerifier([]byte("s"), func() time.Time { return now })
	for i := 0; i < 5000; i++ {
		now = t0.Add(time.Duration(i) * 200 * time.Millisecond) // five pushes a second for 1000 s
		if got := v.Verify(signed("s", pushsign.Timestamp(now), fmt.Sprint("req_", i), "/turn", nil)); got != pushsign.OK {
			t.Fatalf("push %d refused: %s", i, got)
		}
	}
	held := pushsign.Remembered(v)
	assert.LessOrEqual(t, held, 5*601+1, "only the last window's nonces are held")
	assert.GreaterOrEqual(t, held, 5*600, "every nonce of the window is still held")
	assert.Equal(t, pushsign.ReplayedNonce, v.Verify(signed("s", pushsign.Timestamp(now), "req_4999", "/turn", nil)))
}

// TestAFullNonceStoreFailsClosed: past its bound the verifier refuses new
// requests rather than forget a nonce early, and takes them again once
// old nonces expire.
func TestAFullNonceStoreFailsClosed(t *testing.T) {
	now := t0
	v := pushsign.WithMaxNonces(pushsign.NewVerifier([]byte("s"), func() time.Time { return now }), 3)
	for i := 0; i < 3; i++ {
		assert.Equal(t, pushsign.OK, v.Verify(signed("s", pushsign.Timestamp(now), fmt.Sprint("n", i), "/turn", nil)))
	}
	assert.Equal(t, pushsign.ReplayedNonce, v.Verify(signed("s", pushsign.Timestamp(now), "n3", "/turn", nil)))
	now = now.Add(pushsign.Skew*2 + 2*time.Second)
	assert.Equal(t, pushsign.OK, v.Verify(signed("s", pushsign.Timestamp(now), "n3", "/turn", nil)))
	assert.Equal(t, 1, pushsign.Remembered(v))
}

// BenchmarkVerifyVsBareHMAC weighs a full verification (parse, skew, hex,
// constant-time compare, nonce memory) against a bare HMAC-SHA256 over the
// same bytes (hmac.New per request, as a hand-written check does it) and
// against the HMAC floor (a keyed state reused, the text prebuilt), at
// 1 000, 10 000 and 100 000 requests (fresh nonces, all inside one window,
// so the nonce memory holds them all), interleaved A B A B by benchpair.
// A unit is one request; the verifier starts afresh after each volume of
// requests. "verify/bare" is the goal (<= 2 at every volume);
// "verify/floor" shows what parsing, the body hash and the nonce memory
// add to the HMAC itself.
func BenchmarkVerifyVsBareHMAC(b *testing.B) {
	body := []byte(`{"protocol":"1.0","game":"goofspiel","match_id":"mt_1","round":3,"your_hand":[1,2,3,4,5,6,7,8,9,10]}`)
	ts := pushsign.Timestamp(t0)
	secret := []byte("dev-secret")
	for _, volume := range []int{1_000, 10_000, 100_000} {
		reqs := make([]pushsign.Signed, volume)
		texts := make([][]byte, volume)
		for i := range reqs {
			reqs[i] = signed("dev-secret", ts, fmt.Sprint("req_", i), "/turn", body)
			texts[i] = []byte(pushsign.SigningString(ts, reqs[i].Nonce, "POST", "/turn", body))
		}
		verifySide := func() benchpair.Side {
			var v *pushsign.Verifier
			next := 0
			return func(n int) {
				for range n {
					if next%volume == 0 {
						v = pushsign.NewVerifier(secret, func() time.Time { return t0 })
					}
					if v.Verify(reqs[next%volume]) != pushsign.OK {
						b.Fatal("refused")
					}
					next++
				}
			}
		}
		// The bare side: an HMAC-SHA256 of each signing text, as a
		// hand-written check computes it.
		bareNext := 0
		bare := func(n int) {
			for range n {
				m := hmac.New(sha256.New, secret)
				m.Write(texts[bareNext%volume])
				m.Sum(nil)
				bareNext++
			}
		}
		// The floor: one keyed state reused (as the verifier reuses its
		// own) over the prebuilt text; no check can cost less than this.
		floorMAC, floorNext := hmac.New(sha256.New, secret), 0
		var sum [sha256.Size]byte
		floor := func(n int) {
			for range n {
				floorMAC.Reset()
				floorMAC.Write(texts[floorNext%volume])
				floorMAC.Sum(sum[:0])
				floorNext++
			}
		}
		b.Run(fmt.Sprint(volume), func(b *testing.B) {
			b.Run("bare", func(b *testing.B) { benchpair.Report(b, "verify/bare", verifySide(), bare) })
			b.Run("floor", func(b *testing.B) { benchpair.Report(b, "verify/floor", verifySide(), floor) })
		})
	}
}
