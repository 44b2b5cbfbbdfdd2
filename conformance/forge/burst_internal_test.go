package forge

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
)

// TestBurstIsParallel: a burst keeps burstWorkers reads in flight at once
// (a target answering only once that many wait together still answers
// them all), and it stops at the first 429 instead of sending the rest.
func TestBurstIsParallel(t *testing.T) {
	t.Parallel()
	var (
		mu      sync.Mutex
		waiting int
		served  int
	)
	all := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		waiting++
		served++
		n := served
		if waiting == burstWorkers {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
		case <-time.After(20 * time.Second): // a serial burst: the assertion below says so
		}
		if n > 3*burstWorkers {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL})
	answers, _, err := sendBurst(context.Background(), d, driver.Request{Method: http.MethodGet, Path: "/", Allow: []int{429}}, 200)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-all:
	default:
		t.Fatalf("never %d reads in flight at once", burstWorkers)
	}
	limited := 0
	for _, a := range answers {
		if a.Status == http.StatusTooManyRequests {
			limited++
		}
	}
	if limited == 0 || len(answers) > 4*burstWorkers {
		t.Errorf("%d answers, %d of them 429; want the burst to stop within a round of workers after the first 429", len(answers), limited)
	}
}
