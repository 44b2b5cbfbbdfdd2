package pushsign_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

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

// BenchmarkVerifyVsBareHMAC weighs a full verification (parse, skew, hex,
// constant-time compare, nonce memory) against a bare HMAC-SHA256 over the
// same bytes, both in one run, and reports verified/s and the ratio.
func BenchmarkVerifyVsBareHMAC(b *testing.B) {
	body := []byte(`{"protocol":"1.0","game":"goofspiel","view":{"round":3,"your_hand":[1,2,3,4,5,6,7,8,9,10]}}`)
	ts := pushsign.Timestamp(t0)
	secret := []byte("dev-secret")
	reqs := make([]pushsign.Signed, b.N)
	for i := range reqs {
		reqs[i] = signed("dev-secret", ts, fmt.Sprint("req_", i), "/turn", body)
	}
	v := pushsign.NewVerifier(secret, func() time.Time { return t0 })
	b.ResetTimer()
	start := time.Now()
	for i := range reqs {
		if v.Verify(reqs[i]) != pushsign.OK {
			b.Fatal("refused")
		}
	}
	verify := time.Since(start)
	text := []byte(pushsign.SigningString(ts, "req_0", "POST", "/turn", body))
	start = time.Now()
	for i := 0; i < b.N; i++ {
		m := hmac.New(sha256.New, secret)
		m.Write(text)
		m.Sum(nil)
	}
	bare := time.Since(start)
	b.ReportMetric(float64(b.N)/verify.Seconds(), "verified/s")
	b.ReportMetric(float64(b.N)/bare.Seconds(), "bare-hmac/s")
	b.ReportMetric(verify.Seconds()/bare.Seconds(), "verify/bare")
}
