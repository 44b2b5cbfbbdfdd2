package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentgames/conformance/reference/skeleton"
	"github.com/agentgames/conformance/vectors"
)

// fuzzPaths are the endpoints that read a request body; {run} is the
// fuzzing agent's run.
var fuzzPaths = []string{"/register", "/runs", "/runs/{run}/action", "/runs/{run}/extend", "/runs/{run}/visibility", "/runs/{run}/review"}

// FuzzRequestBodies: no body sent to any endpoint that reads one makes the
// server panic or answer 5xx; every answer is JSON and every refusal
// carries a code. Seeds: one good body per endpoint, the answer-parse
// vectors as answer actions and the extend vectors.
func FuzzRequestBodies(f *testing.F) {
	clock := skeleton.NewClock(time.Date(2026, 1, 1, 3, 0, 0, 0, time.UTC))
	srv := New(skeleton.Config{Seed: 1, Now: clock.Now}, WithLimits(Limits{RunsPerKey: 1 << 30, WritesPerAgent: 1 << 30, WritesAll: 1 << 30, Registrations: 1 << 30}))
	c := &client{t: f, h: srv}
	_, reg, _ := c.call("POST", "/register", map[string]any{"name": "fuzz"})
	c.key, _ = reg["api_key"].(string)
	_, run, _ := c.call("POST", "/runs", map[string]any{"budget_turns": 200})
	runID, _ := run["run_id"].(string)
	if c.key == "" || runID == "" {
		f.Fatalf("setup: %v %v", reg, run)
	}
	for i, body := range []string{`{"name":"a","owner":"o"}`, `{"budget_turns":20,"seed":"s"}`, `{"action":"look"}`,
		`{"turns":9223372036854775807}`, `{"visibility":"hidden"}`, `{"text":"ok"}`} {
		f.Add(uint8(i), []byte(body))
	}
	if files, err := vectors.Load("phantom-press"); err == nil {
		for _, file := range files {
			for _, v := range file.Vectors {
				var in struct {
					Arg   string
					Turns *int64
				}
				if json.Unmarshal(v.Input, &in) != nil {
					continue
				}
				if file.Kind == "answer-parse" {
					b, _ := json.Marshal(map[string]string{"action": "answer", "arg": in.Arg})
					f.Add(uint8(2), b)
				}
				if file.Kind == "extend" && in.Turns != nil {
					b, _ := json.Marshal(map[string]int64{"turns": *in.Turns})
					f.Add(uint8(3), b)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, endpoint uint8, body []byte) {
		path := fuzzPaths[int(endpoint)%len(fuzzPaths)]
		path = string(bytes.ReplaceAll([]byte(path), []byte("{run}"), []byte(runID)))
		req := httptest.NewRequest(http.MethodPost, BasePath+path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+c.key)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		var out map[string]any
		if rec.Code >= 500 || json.Unmarshal(rec.Body.Bytes(), &out) != nil {
			t.Fatalf("%s %q: %d %s", path, body, rec.Code, rec.Body)
		}
		if rec.Code >= 400 && out["code"] == nil {
			t.Fatalf("%s %q: %d without a code: %s", path, body, rec.Code, rec.Body)
		}
	})
}
