package faults_test

import (
	"bytes"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentgames/conformance/reference/faults"
)

// TestSocketFaultsAreDrawnInsideTheExchange: a fault without Applies never
// answers a request; the server behind the injector draws it by name from
// the request's context, reproducibly, and each draw that hits is logged
// with its rule and point. Without an injector nothing is drawn.
func TestSocketFaultsAreDrawnInsideTheExchange(t *testing.T) {
	drop := faults.Fault{Name: "drop", Rule: "X-DROP", Doc: "the socket drops"}
	if _, ok := faults.SocketFrom(httptest.NewRequest(http.MethodGet, "/", nil).Context()).Draw("t1", "drop"); ok {
		t.Fatal("a request that passed no injector drew a fault")
	}
	draws := func(seed uint64) (string, string) {
		var logs bytes.Buffer
		var got strings.Builder
		h := faults.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s := faults.SocketFrom(r.Context())
			for i := 0; i < 20; i++ {
				if _, ok := s.Draw("turn", "other"); ok {
					t.Error("a fault the protocol does not list was drawn")
				}
				if f, ok := s.Draw("turn", "drop"); ok {
					got.WriteString(f.Name[:1])
				} else {
					got.WriteString(".")
				}
			}
		}), []faults.Fault{drop}, faults.Options{Rate: 0.5, Seed: seed, Base: "/base", Log: log.New(&logs, "", 0)})
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/base/connect", nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("a socket fault answered the request: %d", rec.Code)
		}
		return got.String(), logs.String()
	}
	a, logs := draws(3)
	b, _ := draws(3)
	if a != b || !strings.Contains(a, "d") || !strings.Contains(a, ".") {
		t.Fatalf("draws %q and %q: want the same mix of hits and misses from one seed", a, b)
	}
	if !strings.Contains(logs, "fault injected: X-DROP drop WS /base/connect turn (the socket drops)") {
		t.Fatalf("log: %s", logs)
	}
}
