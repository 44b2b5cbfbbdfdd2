package phantompress

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	pp "github.com/agentgames/conformance/reference/phantompress/server"
)

// firesEarly is a server that fires the trainee once a publish leaves trust
// at 10 or less (instead of 0): the publish answers status "fired" and every
// later action on that run is refused with 409, as on a finished run.
func firesEarly() http.Handler {
	var mu sync.Mutex
	fired := map[string]bool{}
	inner := breakWith(pp.New(suite.ReferenceConfig{Seed: 3}), nil, func(in map[string]any, b map[string]any, _ func(string, string) map[string]any) {
		st, _ := b["state"].(map[string]any)
		if in["action"] != "publish" || st == nil || st["status"] != "active" || num(st["trust"]) > 10 {
			return
		}
		st["status"] = "fired"
		mu.Lock()
		fired[st["run_id"].(string)] = true
		mu.Unlock()
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/action") {
			mu.Lock()
			done := fired[runID(r.URL.Path)]
			mu.Unlock()
			if done {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusConflict)
				w.Write([]byte(`{"code":"run_finished","message":"このrunは終了しています。","error":"このrunは終了しています。"}`))
				return
			}
		}
		inner.ServeHTTP(w, r)
	})
}

// endingCases end a run the wrong way: firing too early, and a won run
// still shown active (the seed's PP-STATE-STATUS-ENDED).
var endingCases = tamperTable("run endings", func() []harness.Case {
	return []harness.Case{
		{Name: "fired at trust 10", Rule: "PP-SETTLE-FIRED", Target: firesEarly()},
		{Name: "a won run shown active", Rule: "PP-STATE-STATUS-ENDED", Target: renameEnded("victory", "active")},
	}
})

// TestFiringAtTrustTenIsCaught: a server that fires at trust <= 10 fails
// PP-SETTLE-FIRED (the scenario that leaves trust between 1 and 10), while
// the reference passes the same checks.
func TestFiringAtTrustTenIsCaught(t *testing.T) {
	t.Parallel()
	harness.Test(t, Protocol, endingCases())
	exit, _, sum := runAgainst(t, pp.New(suite.ReferenceConfig{Seed: 3}), "PP-SETTLE-FIRED")
	if exit != 0 {
		t.Fatalf("the reference: exit %d\n%s", exit, sum)
	}
}

// losesUpdates is a server that does not serialize a run's actions: a
// request arriving while another on the same run is in flight gets a copy
// of that one's 200 answer, though the run spends a single turn.
func losesUpdates() http.Handler {
	ref := pp.New(suite.ReferenceConfig{Seed: 3})
	var mu sync.Mutex
	inflight := map[string]chan []byte{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/action") {
			ref.ServeHTTP(w, r)
			return
		}
		id := runID(r.URL.Path)
		mu.Lock()
		if ch, busy := inflight[id]; busy {
			mu.Unlock()
			body := <-ch
			ch <- body
			w.Header().Set("Content-Type", "application/json")
			w.Write(body)
			return
		}
		ch := make(chan []byte, 1)
		inflight[id] = ch
		mu.Unlock()
		time.Sleep(50 * time.Millisecond)
		rec := httptest.NewRecorder()
		ref.ServeHTTP(rec, r)
		mu.Lock()
		delete(inflight, id)
		mu.Unlock()
		ch <- rec.Body.Bytes()
		copyResponse(w, rec)
	})
}

// TestLostConcurrentUpdateIsCaught: parallel looks on a server that answers
// two of them 200 for one spent turn fail PP-ERR-409-CONCURRENT on a live
// target (no @control needed).
func TestLostConcurrentUpdateIsCaught(t *testing.T) {
	t.Parallel()
	harness.Test(t, Protocol, concurrencyCases())
}

var concurrencyCases = tamperTable("lost concurrent update", func() []harness.Case {
	return []harness.Case{{Name: "two answers for one spent turn", Rule: "PP-ERR-409-CONCURRENT", Target: losesUpdates()}}
})

// renameEnded rewrites an ended status of every action answer: from is the
// reference's name, to the broken server's.
func renameEnded(from, to string) http.Handler {
	return breaker(func(_ map[string]any, b map[string]any, _ func(string, string) map[string]any) {
		if st, _ := b["state"].(map[string]any); st != nil && st["status"] == from {
			st["status"] = to
		}
	})
}

// TestEndedStatus: (a won run still shown "active" fails the seed's
// PP-STATE-STATUS-ENDED in endingCases) a fired run named "ended" instead of the kit's
// "fired" only warns (PP-STATE-VIEW is the kit's choice).
func TestEndedStatus(t *testing.T) {
	t.Parallel()
	exit, failed, sum := runAgainst(t, renameEnded("fired", "ended"), "PP-STATE-STATUS-ENDED", "PP-SETTLE-FIRED")
	if exit != 0 || failed("PP-SETTLE-FIRED") || !strings.Contains(sum, "PP-STATE-VIEW") {
		t.Fatalf("fired named ended: exit %d, want 0 with a PP-STATE-VIEW warning\n%s", exit, sum)
	}
}
