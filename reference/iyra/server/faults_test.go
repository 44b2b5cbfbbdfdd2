package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentgames/conformance/reference/faults"
)

// TestAnswerLostLeavesAStaleRevision: under the answer_lost fault an
// action is applied but answered 502; the state shows it applied at the
// next revision, and a blind replay of the write meets the documented
// stale revision answer, 409 stale_revision.
func TestAnswerLostLeavesAStaleRevision(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.session("lost-answer-0001", "")
	actions := s["actions_url"].(string)
	body, _ := json.Marshal(map[string]any{"revision": 0, "action": map[string]any{"type": "investigate", "site": "archive"}})
	req := httptest.NewRequest(http.MethodPost, actions, bytes.NewReader(body))
	for k, v := range h.auth() {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.s.ServeHTTP(rec, req.WithContext(faults.WithInjected(req.Context(), AnswerLost)))
	if rec.Code != http.StatusBadGateway {
		t.Fatalf("answer_lost: %d %s", rec.Code, rec.Body)
	}
	_, state := h.do("GET", "/sessions/"+s["session_id"].(string), nil, h.auth())
	if state["revision"] != float64(1) {
		t.Fatalf("the action was not applied: revision %v", state["revision"])
	}
	code, out := h.do("POST", actions[len(BasePath):], string(body), h.auth())
	if code != http.StatusConflict || out["code"] != "stale_revision" || out["revision"] != float64(1) {
		t.Fatalf("blind replay: %d %v", code, out)
	}
}
