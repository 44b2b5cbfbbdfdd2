package server

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/agentgames/conformance/conformance/benchpair/wire"
	"github.com/agentgames/conformance/reference/skeleton"
)

// benchLimits lift the quotas so a benchmark can play many runs.
var benchLimits = Limits{RunsPerKey: 1 << 30, WritesPerAgent: 1 << 30, WritesAll: 1 << 30, Registrations: 1 << 30}

// benchRun is a mix's state: the agent's key, the run it acts in and the
// turns left in it; a new run starts when they are spent.
type benchRun struct {
	b    *testing.B
	key  string
	run  string
	left int
}

// auth is the agent's bearer header.
func (r *benchRun) auth() http.Header {
	return http.Header{"Authorization": {"Bearer " + r.key}, "Content-Type": {"application/json"}}
}

// runPath is the current run's path, starting a run (the mix's request
// then) when none is left: ok is false when that start is the request.
func (r *benchRun) next(prev *wire.Response, starting *bool) (wire.Request, bool) {
	if *starting {
		*starting = false
		var out struct {
			RunID string `json:"run_id"`
		}
		if prev.Status != http.StatusCreated || json.Unmarshal(prev.Body, &out) != nil {
			r.b.Fatalf("start run: %d %s", prev.Status, prev.Body)
		}
		r.run, r.left = out.RunID, 200
	}
	if r.left == 0 {
		*starting = true
		return wire.Request{Method: http.MethodPost, Path: BasePath + "/runs", Header: r.auth(), Body: []byte(`{"budget_turns":200}`)}, false
	}
	r.left--
	return wire.Request{}, true
}

// BenchmarkReferenceVsBareHandler measures the Phantom Press server over
// loopback against a separate bare net/http handler answering the same
// bytes, interleaved, for a write mix (look actions, a new run every 200)
// and a GET mix (the run, the leaderboard, recent runs, the API
// description); "pp-*-speed" is the reference's throughput as a fraction
// of the bare handler's (goal >= 0.7).
func BenchmarkReferenceVsBareHandler(b *testing.B) {
	setup := func(b *testing.B) (*Server, *benchRun) {
		s := New(skeleton.Config{Seed: 1}, WithLimits(benchLimits))
		c := newClient(b, s)
		return s, &benchRun{b: b, key: c.key, run: c.start(200), left: 200}
	}
	b.Run("writes", func(b *testing.B) {
		s, r := setup(b)
		r.left = 0
		starting := false
		wire.Report(b, "pp-writes", s, func(prev *wire.Response) wire.Request {
			if req, ok := r.next(prev, &starting); !ok {
				return req
			}
			if prev != nil && prev.Status != http.StatusOK && prev.Status != http.StatusCreated {
				b.Fatalf("action: %d %s", prev.Status, prev.Body)
			}
			return wire.Request{Method: http.MethodPost, Path: BasePath + "/runs/" + r.run + "/action", Header: r.auth(), Body: []byte(`{"action":"look"}`)}
		})
	})
	b.Run("reads", func(b *testing.B) {
		s, r := setup(b)
		paths := []string{"/runs/" + r.run, "/leaderboard", "/runs", ""}
		i := 0
		wire.Report(b, "pp-reads", s, func(prev *wire.Response) wire.Request {
			if prev != nil && prev.Status != http.StatusOK {
				b.Fatalf("read: %d %s", prev.Status, prev.Body)
			}
			i++
			return wire.Request{Method: http.MethodGet, Path: BasePath + paths[i%len(paths)], Header: r.auth()}
		})
	})
}
