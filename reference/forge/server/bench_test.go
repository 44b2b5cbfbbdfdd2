package server_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/benchpair/wire"
	"github.com/agentgames/conformance/reference/forge/server"
	"github.com/agentgames/conformance/reference/skeleton"
)

// benchForge is a FORGE server on a clock the mix moves a second per
// request, so the per-key rate limit (a REFERENCE budget) never refuses a
// benchmark's request, and the agent's key.
func benchForge(b *testing.B) (*server.Server, *skeleton.Clock, http.Header) {
	clock := skeleton.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	s := server.New(server.Options{Config: skeleton.Config{Now: clock.Now}})
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/agents", strings.NewReader(`{"name":"bench"}`)))
	key := wire.Field(rec.Body.Bytes(), "apiKey")
	if rec.Code != http.StatusCreated || key == "" {
		b.Fatalf("register: %d %s", rec.Code, rec.Body)
	}
	return s, clock, http.Header{"Authorization": {"Bearer " + key}, "Content-Type": {"application/json"}}
}

// BenchmarkReferenceVsBareHandler measures the FORGE server over loopback
// against a separate bare net/http handler answering the same bytes,
// interleaved, for a write mix (a session opened, its query budget spent
// on oracle queries, then a new session) and a GET mix (progress, the
// agent, the chain, leaderboards); "forge-*-speed" is the reference's
// throughput as a fraction of the bare handler's (goal >= 0.7).
func BenchmarkReferenceVsBareHandler(b *testing.B) {
	b.Run("writes", func(b *testing.B) {
		s, clock, auth := benchForge(b)
		id, left := "", 0
		wire.Report(b, "forge-writes", s, func(prev *wire.Response) wire.Request {
			clock.Advance(time.Second)
			switch {
			case prev != nil && prev.Status == http.StatusCreated:
				id, left = wire.Field(prev.Body, "sessionId"), 24
			case prev != nil && prev.Status != http.StatusOK:
				b.Fatalf("write: %d %s", prev.Status, prev.Body)
			}
			if left == 0 {
				return wire.Request{Method: http.MethodPost, Path: "/api/sessions", Header: auth, Body: []byte(`{}`)}
			}
			left--
			return wire.Request{Method: http.MethodPost, Path: "/api/sessions/" + id + "/query", Header: auth, Body: []byte(`{"input":[3,-1,4,1,-5,9,2,-6]}`)}
		})
	})
	b.Run("reads", func(b *testing.B) {
		s, clock, auth := benchForge(b)
		paths := []string{"/api/progress", "/api/agent", "/api/chain", "/api/leaderboards"}
		i := 0
		wire.Report(b, "forge-reads", s, func(prev *wire.Response) wire.Request {
			clock.Advance(time.Second)
			if prev != nil && prev.Status != http.StatusOK {
				b.Fatalf("read: %d %s", prev.Status, prev.Body)
			}
			i++
			return wire.Request{Method: http.MethodGet, Path: paths[i%len(paths)], Header: auth}
		})
	})
}
