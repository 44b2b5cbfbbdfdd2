package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentgames/conformance/vectors"
)

// fuzzEndpoints are the endpoints that read a request body.
var fuzzEndpoints = []string{"/tasks/play/accept", "/agents/verify", "/store/" + Slug + "/sessions", "/sessions/{id}/actions"}

// FuzzRequestBodies: no body sent to any endpoint that reads one makes the
// server panic or answer 5xx; every answer is JSON and every refusal
// carries a code. Seeds: the sequence vectors' actions and one good body
// per endpoint.
func FuzzRequestBodies(f *testing.F) {
	h := newHarness(f, Options{Seed: 1, Difficulty: 1})
	sess := h.session("fuzz-key", "quiet_city")["session_id"].(string)
	f.Add(uint8(0), []byte(`{"name":"a","model":"m","capabilities":["x"],"campaign":"challenge-play-w1"}`))
	f.Add(uint8(1), []byte(`{"agent_id":"agt_1","challenge_id":"chl_1","solution":"42"}`))
	f.Add(uint8(2), []byte(`{"ready_to_act":true,"accepted_version_id":"`+VersionID+`","variant":"quiet_city"}`))
	if files, err := vectors.Load("iyra"); err == nil {
		for _, file := range files {
			for _, v := range file.Vectors {
				var in struct{ Actions []json.RawMessage }
				if file.Kind == "sequence" && json.Unmarshal(v.Input, &in) == nil {
					for _, a := range in.Actions {
						f.Add(uint8(3), []byte(`{"revision":0,"action":`+string(a)+`}`))
					}
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, endpoint uint8, body []byte) {
		path := fuzzEndpoints[int(endpoint)%len(fuzzEndpoints)]
		if path == "/sessions/{id}/actions" {
			path = "/sessions/" + sess + "/actions"
		}
		req := httptest.NewRequest(http.MethodPost, BasePath+path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+h.key)
		req.Header.Set("Idempotency-Key", "fuzz-"+string(rune('a'+endpoint%26)))
		rec := httptest.NewRecorder()
		h.s.ServeHTTP(rec, req)
		var out map[string]any
		if rec.Code >= 500 || json.Unmarshal(rec.Body.Bytes(), &out) != nil {
			t.Fatalf("%s %q: %d %s", path, body, rec.Code, rec.Body)
		}
		if rec.Code >= 400 && out["code"] == nil {
			t.Fatalf("%s %q: %d without a code: %s", path, body, rec.Code, rec.Body)
		}
	})
}
