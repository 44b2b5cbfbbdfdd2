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
	bad := map[string]string{
		"hello":    `{"t":"hello","version":"2.0"}`,
		"turn":     `{"t":"turn","match_id":"m","game":"goofspiel","view":` + string(view) + `}`,
		"event":    `{"t":"event","seq":0,"type":"card_sealed","payload":{}}`,
		"response": `{"t":"response","id":"1","move":{"round":0}}`,
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
	if err := v.Validate(req, 200, http.Header{"Content-Type": {"application/json"}}, []byte(`{"status":"healthy"}`)); err != nil {
		t.Errorf("healthy: %v", err)
	}
	if err := v.Validate(req, 200, http.Header{"Content-Type": {"application/json"}}, []byte(`{"status":"ok"}`)); err == nil {
		t.Error("a health status other than healthy passed")
	}
}
