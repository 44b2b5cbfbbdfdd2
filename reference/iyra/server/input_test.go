package server

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// raw sends a raw body and returns the status and decoded object.
func (h *harness) raw(method, path string, body []byte, hdr map[string]string) (int, map[string]any) {
	h.t.Helper()
	req := httptest.NewRequest(method, BasePath+path, bytes.NewReader(body))
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.s.ServeHTTP(rec, req)
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out
}

// TestOversizedBodyIs413 checks a body over 64 KiB is refused as too large,
// not truncated and misread as malformed JSON (IYRA-BAD-INPUT).
func TestOversizedBodyIs413(t *testing.T) {
	h := newHarness(t, Options{Seed: 1})
	id := h.session("big-body-key", "quiet_city")["session_id"].(string)
	pad := strings.Repeat(" ", maxBody)
	body := []byte(`{"revision":0,"action":{"type":"investigate","site":"archive"}}` + pad)
	code, out := h.raw("POST", "/sessions/"+id+"/actions", body, h.auth())
	if code != 413 || out["code"] != "payload_too_large" {
		t.Errorf("oversized body: %d %v", code, out)
	}
	if code, _ := h.raw("POST", "/sessions/"+id+"/actions", body[:len(body)-len(pad)], h.auth()); code != 200 {
		t.Errorf("the same body without padding: %d", code)
	}
}

// TestDuplicateKeysAreRefused checks a repeated key is malformed input,
// in the action envelope and in the other bodies alike (IYRA-BAD-INPUT).
func TestDuplicateKeysAreRefused(t *testing.T) {
	h := newHarness(t, Options{Seed: 1})
	id := h.session("dup-key-key", "quiet_city")["session_id"].(string)
	bodies := []string{
		`{"revision":0,"action":{"type":"investigate","site":"moon","site":"archive"}}`,
		`{"revision":0,"revision":0,"action":{"type":"withdraw"}}`,
	}
	for _, b := range bodies {
		code, out := h.raw("POST", "/sessions/"+id+"/actions", []byte(b), h.auth())
		if code != 400 || out["code"] != "malformed_json" || !strings.Contains(out["message"].(string), "twice") {
			t.Errorf("%s: %d %v", b, code, out)
		}
	}
	if code, _ := h.raw("POST", "/tasks/play/accept", []byte(`{"name":"a","name":"b","model":"m"}`), nil); code != 400 {
		t.Errorf("acceptance with a repeated key: %d", code)
	}
	_, s := h.do("GET", "/sessions/"+id, nil, h.auth())
	if s["revision"].(float64) != 0 {
		t.Errorf("a refused body changed the state: %v", s["revision"])
	}
}

// TestErrorsNameNoGoTypes checks type errors are explained in the
// contract's terms (IYRA-BAD-INPUT).
func TestErrorsNameNoGoTypes(t *testing.T) {
	h := newHarness(t, Options{Seed: 1})
	hdr := h.auth("Idempotency-Key", "type-error-key")
	for _, b := range []string{`{"ready_to_act":"yes","accepted_version_id":"` + VersionID + `"}`, `[1]`, `{"ready_to_act":true,"accepted_version_id":7}`} {
		code, out := h.raw("POST", "/store/"+Slug+"/sessions", []byte(b), hdr)
		msg, _ := out["message"].(string)
		if code != 400 || strings.Contains(msg, "Go ") || strings.Contains(msg, "createRequest") || strings.Contains(msg, "*string") {
			t.Errorf("%s: %d %q", b, code, msg)
		}
	}
	_, out := h.raw("POST", "/store/"+Slug+"/sessions", []byte(`{"ready_to_act":"yes","accepted_version_id":"x"}`), hdr)
	if msg, _ := out["message"].(string); !strings.Contains(msg, "ready_to_act") {
		t.Errorf("the message does not name the field: %q", msg)
	}
}

// TestIntegralRevisionSpellings checks 1e0 and 1.0 are revision 1, while
// a fraction, a string and a negative are malformed (IYRA-BAD-INPUT).
func TestIntegralRevisionSpellings(t *testing.T) {
	h := newHarness(t, Options{Seed: 1})
	id := h.session("rev-spelling-key", "quiet_city")["session_id"].(string)
	act := func(rev string, site string) int {
		code, _ := h.raw("POST", "/sessions/"+id+"/actions", []byte(`{"revision":`+rev+`,"action":{"type":"investigate","site":"`+site+`"}}`), h.auth())
		return code
	}
	if code := act("0e0", "archive"); code != 200 {
		t.Errorf("revision 0e0: %d", code)
	}
	if code := act("1.0", "harbor"); code != 200 {
		t.Errorf("revision 1.0: %d", code)
	}
	for _, bad := range []string{"1.5", `"2"`, "-1"} {
		if code := act(bad, "spire"); code != 400 {
			t.Errorf("revision %s: %d, want 400", bad, code)
		}
	}
}

// TestSessionsExpireAfterTheirTimeLimit checks a session untouched for
// max_duration_seconds ends budget_exhausted without a step, rejects
// actions, and replays as verified but not ranking-eligible
// (IYRA-DURATION-LIMIT, IYRA-RANKING-SEPARATE).
func TestSessionsExpireAfterTheirTimeLimit(t *testing.T) {
	clock := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	h := newHarness(t, Options{Seed: 1, Now: func() time.Time { return clock }})
	id := h.session("expiry-key-1", "")["session_id"].(string)
	h.do("POST", "/sessions/"+id+"/actions", map[string]any{"revision": 0, "action": map[string]any{"type": "investigate", "site": "archive"}}, h.auth())
	clock = clock.Add(179 * time.Second)
	if _, s := h.do("GET", "/sessions/"+id, nil, h.auth()); s["terminal"] != false {
		t.Fatalf("ended before its limit: %v", s["observation"])
	}
	clock = clock.Add(time.Second)
	_, s := h.do("GET", "/sessions/"+id, nil, h.auth())
	obs := s["observation"].(map[string]any)
	if s["terminal"] != true || obs["ending"] != "budget_exhausted" || obs["epilogue"] != "" || s["revision"].(float64) != 1 {
		t.Errorf("after the limit: terminal %v ending %v epilogue %q revision %v", s["terminal"], obs["ending"], obs["epilogue"], s["revision"])
	}
	if code, _ := h.do("POST", "/sessions/"+id+"/actions", map[string]any{"revision": 1, "action": map[string]any{"type": "withdraw"}}, h.auth()); code != 409 {
		t.Errorf("an action after the limit: %d", code)
	}
	_, rp := h.do("GET", "/sessions/"+id+"/replay", nil, h.auth())
	if rp["integrity"].(map[string]any)["verified"] != true || rp["trusted_ranking_eligible"] != false {
		t.Errorf("replay after expiry: %v eligible %v", rp["integrity"], rp["trusted_ranking_eligible"])
	}
}

// TestRankingIsASeparateCheck checks eligibility follows the variant's
// origin, not only integrity (IYRA-RANKING-SEPARATE), and that the next
// steps are reads (IYRA-NEXT-STEPS-READ-ONLY).
func TestRankingIsASeparateCheck(t *testing.T) {
	h := newHarness(t, Options{Seed: 1})
	for key, variant := range map[string]string{"drawn-variant-key": "", "chosen-variant-key": "spire_echo"} {
		id := h.session(key, variant)["session_id"].(string)
		h.do("POST", "/sessions/"+id+"/actions", map[string]any{"revision": 0, "action": map[string]any{"type": "withdraw"}}, h.auth())
		_, rp := h.do("GET", "/sessions/"+id+"/replay", nil, h.auth())
		if rp["integrity"].(map[string]any)["verified"] != true || rp["trusted_ranking_eligible"] != (variant == "") {
			t.Errorf("variant %q: verified %v eligible %v", variant, rp["integrity"], rp["trusted_ranking_eligible"])
		}
		for _, step := range rp["voluntary_next_steps"].([]any) {
			if m := step.(map[string]any)["method"]; m != "GET" {
				t.Errorf("a next step with method %v", m)
			}
		}
	}
}

// TestPreviewIsTheContractOnThisHost checks the preview serves the seed's
// document, facts intact, with every URL on the server's own host
// (IYRA-PLAY-PREVIEW).
func TestPreviewIsTheContractOnThisHost(t *testing.T) {
	h := newHarness(t, Options{Seed: 1})
	req := httptest.NewRequest("GET", "http://iyra.local:8080"+BasePath+"/tasks/play?slug="+Slug, nil)
	rec := httptest.NewRecorder()
	h.s.ServeHTTP(rec, req)
	body := rec.Body.String()
	if rec.Code != 200 || strings.Contains(body, contractOrigin) {
		t.Fatalf("%d; the preview still names the platform's host", rec.Code)
	}
	var doc map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	verify, _ := doc["execution_contract"].(map[string]any)["identity"].(map[string]any)["verify"].(map[string]any)
	if verify["url"] != "http://iyra.local:8080"+BasePath+"/agents/verify" {
		t.Errorf("verify url %v", verify["url"])
	}
	c := doc["game"].(map[string]any)["gameplay_contract"].(map[string]any)
	for _, key := range []string{"objective", "limits", "play", "progress", "observer", "replay", "learning"} {
		if c[key] == nil {
			t.Errorf("the contract lacks %s", key)
		}
	}
	play := c["play"].(map[string]any)
	for _, key := range []string{"collision_or_conflict_rules", "investigation", "state_semantics", "world", "information_visibility"} {
		if play[key] == nil {
			t.Errorf("play lacks %s", key)
		}
	}
	for _, key := range []string{"do_this_now", "after_verify", "after_assignment", "execution_contract", "action_loop"} {
		if doc[key] == nil {
			t.Errorf("the preview lacks %s", key)
		}
	}
}
