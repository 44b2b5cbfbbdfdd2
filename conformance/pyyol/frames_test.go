package pyyol

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
	"github.com/agentgames/conformance/spec"
)

// TestFrameSchemasJudgeFrames: the docs' own example frames pass their
// schemas, broken ones do not, and every frame type has a schema.
func TestFrameSchemasJudgeFrames(t *testing.T) {
	t.Parallel()
	if len(frameSchemas()) != len(spec.PyyolFrameTypes()) || len(frameSchemas()) < 11 {
		t.Fatalf("schemas %d of %d", len(frameSchemas()), len(spec.PyyolFrameTypes()))
	}
	m, _ := goofspiel.New(goofspiel.Standard(), []byte("s"))
	view, _ := json.Marshal(m.View(0))
	good := map[string]string{
		"hello":      `{"t":"hello","version":"1.0"}`,
		"register":   `{"t":"register","agent_id":"ag_1","token":"x","agent_name":"OlympAI","version":"1.0.0","games":["goofspiel"],"sdk_version":"1"}`,
		"registered": `{"t":"registered","agent_id":"ag_1"}`,
		"error":      `{"t":"error","error":"unauthorized"}`,
		"turn":       `{"t":"turn","id":"1","match_id":"m","game":"goofspiel","view":` + string(view) + `}`,
		"response":   `{"t":"response","id":"1","move":{"round":0,"card":5}}`,
		"ping":       `{"t":"ping"}`,
	}
	for typ, raw := range good {
		if err := checkFrame(json.RawMessage(raw), typ); err != nil {
			t.Errorf("%s: %v", typ, err)
		}
	}
	// The platform's layout (agentgw, runtime.py) validates as well: bodies
	// in payload, the event type in kind, Mafia and Monopoly moves.
	sdk := [][2]string{
		{"turn", `{"t":"turn","id":"1","payload":` + string(stamp(t, view, `"game":"goofspiel","match_id":"m"`)) + `}`},
		{"initialize", `{"t":"initialize","id":"i","payload":{"match_id":"m","game":"mafia","seat":3,"players":12,"role":"Doctor"}}`},
		{"event", `{"t":"event","game":"goofspiel","match_id":"m","seq":1,"kind":"card_sealed","payload":{}}`},
		{"game_end", `{"t":"game_end","game":"goofspiel","match_id":"m","payload":{"winner":1,"scores":[3,9],"history":[],"rounds":13}}`},
		{"response", `{"t":"response","id":"1","payload":{"round":0,"card":5}}`},
		{"response", `{"t":"response","id":"1","payload":{"action":"vote","target":4}}`},
		{"response", `{"t":"response","id":"1","payload":{"action":"message","tone":"info","text":"hi"}}`},
		{"response", `{"t":"response","id":"1","payload":{"action":"end_turn"}}`},
		{"response", `{"t":"response","id":"i","payload":{"ready":true,"display_name":"kit"}}`},
		{"response", `{"t":"response","id":"1","error":"handler_error"}`},
		{"pong", `{"t":"pong","id":""}`},
		{"registered", `{"t":"registered","agent_id":"ag_1","version":"1.0","latest_sdk":"0.9.0"}`},
	}
	for _, c := range sdk {
		if err := checkFrame(json.RawMessage(c[1]), c[0]); err != nil {
			t.Errorf("%s %s: %v", c[0], c[1], err)
		}
	}
	bad := map[string]string{
		"hello":    `{"t":"hello","version":"2.0"}`,
		"turn":     `{"t":"turn","match_id":"m","game":"goofspiel","view":` + string(view) + `}`,
		"event":    `{"t":"event","seq":0,"type":"card_sealed","payload":{}}`,
		"response": `{"t":"response","id":"1","payload":"13"}`,
		"unknown":  `{"t":"unknown"}`,
	}
	for typ, raw := range bad {
		if checkFrame(json.RawMessage(raw), typ) == nil {
			t.Errorf("%s passed: %s", typ, raw)
		}
	}
}

// TestPushAnswersAreValidatedAgainstTheOpenAPI: the push routes' document
// loads at the directory of any endpoint.url and judges a /health answer.
func TestPushAnswersAreValidatedAgainstTheOpenAPI(t *testing.T) {
	t.Parallel()
	v := pushValidator("https://agent.example/deep/path")
	if v == nil {
		t.Fatal("no validator")
	}
	req := httptest.NewRequest("GET", "https://agent.example/deep/path/health", nil)
	if err := v.Validate(req, 200, http.Header{"Content-Type": {"application/json"}}, []byte(`{"status":"healthy"}`), nil); err != nil {
		t.Errorf("healthy: %v", err)
	}
	if err := v.Validate(req, 200, http.Header{"Content-Type": {"application/json"}}, []byte(`{"status":"ok"}`), nil); err == nil {
		t.Error("a health status other than healthy passed")
	}
}

// stamp adds fields to a JSON object.
func stamp(t *testing.T, obj []byte, fields string) []byte {
	t.Helper()
	if len(obj) < 2 || obj[0] != '{' {
		t.Fatalf("not an object: %s", obj)
	}
	return append([]byte("{"+fields+","), obj[1:]...)
}
