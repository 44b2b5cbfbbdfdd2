package driver_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// quotaServer answers 429 with Retry-After: 0 to the first `limited`
// requests, then 200, counting every request.
func quotaServer(limited int32) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) <= limited {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"code":"daily_write_limit"}`)
			return
		}
		fmt.Fprint(w, `{"ok":true}`)
	}))
	return srv, &n
}

func TestReadsWaitOutA429ButWritesAreNeverRetried(t *testing.T) {
	srv, n := quotaServer(1)
	defer srv.Close()
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL})
	resp, err := d.Do(context.Background(), driver.Request{Method: "GET", Path: "/x"})
	require.NoError(t, err)
	assert.Equal(t, 200, resp.Status)
	assert.Equal(t, int32(2), n.Load(), "the read was retried once")

	srv2, n2 := quotaServer(1)
	defer srv2.Close()
	d2 := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv2.URL})
	_, err = d2.Do(context.Background(), driver.Request{Method: "POST", Path: "/x", JSON: map[string]int{"a": 1}})
	var he *verdict.HarnessError
	require.True(t, errors.As(err, &he), "an exhausted quota is a harness error, got %v", err)
	assert.Equal(t, int32(1), n2.Load(), "the write was not retried")
}

func TestAllowedQuotaStatusReachesTheStep(t *testing.T) {
	srv, _ := quotaServer(5)
	defer srv.Close()
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL})
	resp, err := d.Do(context.Background(), driver.Request{Method: "POST", Path: "/x", Allow: []int{429}})
	require.NoError(t, err)
	assert.Equal(t, 429, resp.Status)
}

func TestWriteBudgetSkipsOnceSpent(t *testing.T) {
	srv, n := quotaServer(0)
	defer srv.Close()
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL, Budget: driver.NewBudget(2)})
	for i := 0; i < 2; i++ {
		_, err := d.Do(context.Background(), driver.Request{Method: "POST", Path: "/w"})
		require.NoError(t, err)
	}
	_, err := d.Do(context.Background(), driver.Request{Method: "GET", Path: "/r"})
	require.NoError(t, err, "reads do not spend the budget")
	_, err = d.Do(context.Background(), driver.Request{Method: "POST", Path: "/w"})
	var sk *verdict.Skipped
	assert.True(t, errors.As(err, &sk), "got %v", err)
	assert.Equal(t, int32(3), n.Load(), "the write past the budget was never sent")
}

func TestNetworkFailureIsAHarnessError(t *testing.T) {
	srv := httptest.NewServer(nil)
	srv.Close()
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL, Timeout: time.Second})
	_, err := d.Do(context.Background(), driver.Request{Method: "GET", Path: "/"})
	var he *verdict.HarnessError
	assert.True(t, errors.As(err, &he), "got %v", err)
}

func TestTranscriptRedactsKeysEverywhere(t *testing.T) {
	const key = "aa_live_0123456789abcdef"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Echo", r.Header.Get("Authorization"))
		fmt.Fprintf(w, `{"api_key":%q}`, key)
	}))
	defer srv.Close()
	rec := &driver.Recorder{}
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL}).WithRecorder(rec)
	d.Secrets().Add(key)
	_, err := d.Do(context.Background(), driver.Request{Method: "POST", Path: "/k?token=" + key,
		Header: map[string]string{"Authorization": "Bearer " + key}, JSON: map[string]string{"k": key}})
	require.NoError(t, err)
	x := rec.Exchanges()
	require.Len(t, x, 1)
	all := fmt.Sprintf("%+v", x[0])
	assert.NotContains(t, all, key)
	assert.Equal(t, "Bearer [REDACTED]", x[0].ReqHeader["Authorization"])
	assert.True(t, strings.Contains(x[0].RespBody, driver.Redacted))
}

func TestLimiterSpacesRequests(t *testing.T) {
	l := driver.NewLimiter(1000)
	start := time.Now()
	for i := 0; i < 5; i++ {
		require.NoError(t, l.Wait(context.Background()))
	}
	assert.GreaterOrEqual(t, time.Since(start), 4*time.Millisecond, "five requests at 1000/s span at least 4ms")
}

func TestKeyLearnedAfterItsResponseIsStillRedacted(t *testing.T) {
	const key = "aa_disclosed_once_abcdef"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"api_key":%q}`, key)
	}))
	defer srv.Close()
	rec := &driver.Recorder{}
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL}).WithRecorder(rec)
	_, err := d.Do(context.Background(), driver.Request{Method: "POST", Path: "/agents/verify"})
	require.NoError(t, err)
	d.Secrets().Add(key) // the step reads the key from the response, then registers it
	assert.NotContains(t, rec.Exchanges()[0].RespBody, key)
}

func TestKeysInAnyResponseAreLearnedWhateverTheStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"agent":{"api_key":"flib_should_not_have_been_issued"},"tokens":[{"refresh_token":"rt_abcdefgh"}],"idempotency_key":"not-a-secret-123"}`)
	}))
	defer srv.Close()
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL})
	_, err := d.Do(context.Background(), driver.Request{Method: "POST", Path: "/register"})
	require.NoError(t, err)
	got := d.Secrets().Redact("flib_should_not_have_been_issued rt_abcdefgh not-a-secret-123")
	assert.Equal(t, "[REDACTED] [REDACTED] not-a-secret-123", got)
}

func TestSecretFieldNamesInEveryCase(t *testing.T) {
	s := &driver.Secrets{}
	s.Learn([]byte(`{"endpointSecret":"es_0123456789","accessToken":"at_0123456789","API_KEY":"ak_0123456789","idempotency_key":"idem-0123456789"}`))
	assert.Equal(t, "[REDACTED] [REDACTED] [REDACTED] idem-0123456789",
		s.Redact("es_0123456789 at_0123456789 ak_0123456789 idem-0123456789"))
}

func TestALongerSecretIsNotLeftHalfRedacted(t *testing.T) {
	s := &driver.Secrets{}
	s.Add("aa_short")
	s.Add("aa_short_and_longer")
	assert.Equal(t, "[REDACTED] [REDACTED]", s.Redact("aa_short_and_longer aa_short"))
}

func TestClipNeverCutsThroughAKey(t *testing.T) {
	s := &driver.Secrets{}
	key := "aa_0123456789abcdef"
	s.Add(key)
	body := strings.Repeat("x", driver.MaxBody-4) + key
	assert.NotContains(t, s.Clip([]byte(body)), "aa_0")
}

func TestAnUnavailableTargetIsAHarnessErrorNotARuleVerdict(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(http.StatusBadGateway)
	}))
	defer srv.Close()
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL})
	var he *verdict.HarnessError
	_, err := d.Do(context.Background(), driver.Request{Method: "GET", Path: "/"})
	assert.True(t, errors.As(err, &he), "got %v", err)
	assert.Equal(t, int32(4), n.Load(), "a read is retried three times")
	_, err = d.Do(context.Background(), driver.Request{Method: "POST", Path: "/"})
	assert.True(t, errors.As(err, &he), "got %v", err)
	assert.Equal(t, int32(5), n.Load(), "a write is sent once")
	resp, err := d.Do(context.Background(), driver.Request{Method: "POST", Path: "/", Allow: []int{502}})
	require.NoError(t, err)
	assert.Equal(t, 502, resp.Status, "a step that expects it sees it")
}

func TestAnEndlessBodyIsCutOffAsAHarnessError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := []byte(strings.Repeat("x", 1<<20))
		for i := 0; i < 20; i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	_, err := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL}).Do(context.Background(), driver.Request{Method: "GET", Path: "/"})
	var he *verdict.HarnessError
	require.True(t, errors.As(err, &he), "got %v", err)
	assert.Contains(t, err.Error(), "larger than 16 MiB")
}

func TestTheBreakerStopsSendingToADeadTarget(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close() // a transport failure for the client
	}))
	defer srv.Close()
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL, Breaker: &driver.Breaker{}})
	for i := 0; i < 6; i++ {
		_, err := d.Do(context.Background(), driver.Request{Method: "POST", Path: "/"})
		var he *verdict.HarnessError
		require.True(t, errors.As(err, &he), "request %d: %v", i, err)
	}
	assert.Equal(t, int32(driver.BreakerThreshold), n.Load(), "after the threshold nothing more is sent")
}
