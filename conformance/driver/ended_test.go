package driver_test

import (
	"context"
	"errors"
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

func TestATimeoutNamesTheFlag(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	defer srv.Close()
	_, err := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL, Timeout: 50 * time.Millisecond}).
		Do(context.Background(), driver.Request{Method: "GET", Path: "/"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "within --timeout 50ms")
}

func TestAPassedDeadlineSendsNothing(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) }))
	defer srv.Close()
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	_, err := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL}).Do(ctx, driver.Request{Method: "POST", Path: "/w"})
	var he *verdict.HarnessError
	require.True(t, errors.As(err, &he), "got %v", err)
	assert.Contains(t, err.Error(), "--deadline")
	assert.Zero(t, n.Load())
}

// TestTheBreakerTripsOnATargetThatIsAlwaysSlow: answers that each come
// just in time still stop the run after SlowThreshold of them.
func TestTheBreakerTripsOnATargetThatIsAlwaysSlow(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		time.Sleep(30 * time.Millisecond)
		w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL, Timeout: 50 * time.Millisecond, Breaker: &driver.Breaker{}})
	// Count the requests until the breaker opens rather than assume each
	// answer is judged slow: on a loaded machine one may time out instead,
	// which delays the opening but must not prevent it.
	var last error
	for i := 0; i < 4*driver.SlowThreshold && (last == nil || !strings.Contains(last.Error(), "too slow")); i++ {
		_, last = d.Do(context.Background(), driver.Request{Method: "GET", Path: "/"})
	}
	require.Error(t, last)
	require.Contains(t, last.Error(), "too slow")
	sent := n.Load()
	assert.GreaterOrEqual(t, sent, int32(driver.SlowThreshold))
	for range 3 {
		_, last = d.Do(context.Background(), driver.Request{Method: "GET", Path: "/"})
		assert.ErrorContains(t, last, "too slow")
	}
	assert.Equal(t, sent, n.Load(), "nothing is sent once the breaker is open")
}
