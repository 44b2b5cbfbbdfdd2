package server

import (
	"bytes"
	"context"
	"encoding/json"
	"log"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/reference/iyra/proof"
)

// harness drives a server in-process.
type harness struct {
	t   testing.TB
	s   *Server
	key string
}

func (h *harness) do(method, path string, body any, hdr map[string]string) (int, map[string]any) {
	h.t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	default:
		raw, _ = json.Marshal(b)
	}
	req := httptest.NewRequest(method, BasePath+path, bytes.NewReader(raw))
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.s.ServeHTTP(rec, req)
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		h.t.Fatalf("%s %s: body is not a JSON object: %q", method, path, rec.Body.String())
	}
	if rec.Code >= 400 && (out["code"] == "" || out["code"] == nil || out["message"] == nil) {
		h.t.Errorf("%s %s -> %d without code/message: %v", method, path, rec.Code, out)
	}
	return rec.Code, out
}

func (h *harness) auth(extra ...string) map[string]string {
	m := map[string]string{"Authorization": "Bearer " + h.key}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i]] = extra[i+1]
	}
	return m
}

// newHarness registers and verifies one agent.
func newHarness(t testing.TB, opts Options) *harness {
	t.Helper()
	if opts.Difficulty == 0 {
		opts.Difficulty = 2
	}
	h := &harness{t: t, s: New(opts)}
	_, acc := h.do("POST", "/tasks/play/accept", map[string]any{"name": "t", "model": "m"}, nil)
	sol, err := proof.Solve(context.Background(), acc["challenge"].(string), int(acc["difficulty"].(float64)))
	if err != nil {
		t.Fatal(err)
	}
	code, ver := h.do("POST", "/agents/verify", map[string]any{"agent_id": acc["agent_id"], "challenge_id": acc["challenge_id"], "solution": sol}, nil)
	if code != 200 {
		t.Fatalf("verify: %d %v", code, ver)
	}
	h.key = ver["api_key"].(string)
	return h
}

func (h *harness) session(key, variant string) map[string]any {
	h.t.Helper()
	body := map[string]any{"ready_to_act": true, "accepted_version_id": VersionID}
	if variant != "" {
		body["variant"] = variant
	}
	code, s := h.do("POST", "/store/"+Slug+"/sessions", body, h.auth("Idempotency-Key", key))
	if code != 201 {
		h.t.Fatalf("create: %d %v", code, s)
	}
	return s
}

func TestBadInputChangesNothing(t *testing.T) {
	h := newHarness(t, Options{Seed: 1})
	s := h.session("bad-input-key", "quiet_city")
	id := s["session_id"].(string)
	bodies := []any{"{", "[]", "null", map[string]any{"revision": "0", "action": map[string]any{"type": "withdraw"}},
		map[string]any{"revision": 0}, map[string]any{"revision": 0, "action": map[string]any{"site": "archive"}},
		map[string]any{"revision": 0, "action": map[string]any{"type": "investigate", "site": 7}},
		map[string]any{"revision": 0, "action": map[string]any{"type": "fly"}},
		map[string]any{"action": map[string]any{"type": "withdraw", "revision": 0}}}
	for _, b := range bodies {
		code, _ := h.do("POST", "/sessions/"+id+"/actions", b, h.auth())
		if code < 400 || code >= 500 {
			t.Errorf("%v: status %d, want 4xx", b, code)
		}
	}
	_, now := h.do("GET", "/sessions/"+id, nil, h.auth())
	if now["revision"].(float64) != 0 || now["observation"].(map[string]any)["evidence"].(float64) != 0 {
		t.Errorf("state changed by bad input: %v", now)
	}
	for _, b := range []string{"{", `{"name":5,"model":"m"}`, `{"model":"m"}`} {
		if code, _ := h.do("POST", "/tasks/play/accept", b, nil); code != 400 {
			t.Errorf("accept %s: %d", b, code)
		}
	}
}

func TestRoutingErrorsAreJSON(t *testing.T) {
	h := newHarness(t, Options{Seed: 1})
	if code, out := h.do("DELETE", "/trust", nil, nil); code != 405 || out["code"] != "method_not_allowed" {
		t.Errorf("wrong method: %d %v", code, out)
	}
	if code, out := h.do("GET", "/nope", nil, nil); code != 404 || out["code"] != "not_found" {
		t.Errorf("unknown path: %d %v", code, out)
	}
	if code, _ := h.do("GET", "/store/"+Slug+"/assignment?api_key="+h.key, nil, nil); code != 401 {
		t.Errorf("key in URL accepted: %d", code)
	}
}

func TestIdempotencyAndQuota(t *testing.T) {
	clock := time.Date(2026, 3, 1, 23, 0, 0, 0, time.UTC)
	h := newHarness(t, Options{Seed: 1, SessionQuota: 2, Now: func() time.Time { return clock }})
	a := h.session("idem-key-1", "")
	body := map[string]any{"ready_to_act": true, "accepted_version_id": VersionID}
	code, again := h.do("POST", "/store/"+Slug+"/sessions", body, h.auth("Idempotency-Key", "idem-key-1"))
	if code != 200 || again["session_id"] != a["session_id"] {
		t.Errorf("replay: %d %v", code, again["session_id"])
	}
	other := map[string]any{"ready_to_act": true, "accepted_version_id": "xgv_other"}
	if code, _ := h.do("POST", "/store/"+Slug+"/sessions", other, h.auth("Idempotency-Key", "idem-key-1")); code != 409 {
		t.Errorf("reuse for another version: %d", code)
	}
	h.session("idem-key-2", "")
	code, out := h.do("POST", "/store/"+Slug+"/sessions", body, h.auth("Idempotency-Key", "idem-key-3"))
	if code != 429 || out["retry_after_seconds"].(float64) <= 0 || out["retry_at"] != "2026-03-02T00:00:00Z" {
		t.Errorf("quota: %d %v", code, out)
	}
	if code, _ := h.do("GET", "/idempotency/status", nil, h.auth("Idempotency-Key", "idem-key-3")); code != 404 {
		t.Errorf("a refused creation left a key behind: %d", code)
	}
	clock = clock.Add(2 * time.Hour)
	h.session("idem-key-3", "")
}

func TestChallengeExpiry(t *testing.T) {
	clock := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	h := &harness{t: t, s: New(Options{Seed: 2, Difficulty: 1, Now: func() time.Time { return clock }})}
	_, acc := h.do("POST", "/tasks/play/accept", map[string]any{"name": "t", "model": "m"}, nil)
	sol, _ := proof.Solve(context.Background(), acc["challenge"].(string), 1)
	clock = clock.Add(10 * time.Minute)
	code, out := h.do("POST", "/agents/verify", map[string]any{"agent_id": acc["agent_id"], "challenge_id": acc["challenge_id"], "solution": sol}, nil)
	if code != 422 || out["code"] != "challenge_expired" || out["api_key"] != nil {
		t.Errorf("expired: %d %v", code, out)
	}
}

func TestSeedMakesServersReproducible(t *testing.T) {
	a, b := newHarness(t, Options{Seed: 42}), newHarness(t, Options{Seed: 42})
	c := newHarness(t, Options{Seed: 43})
	if a.key != b.key || a.key == c.key {
		t.Errorf("keys: %s %s %s", a.key, b.key, c.key)
	}
	if a.session("repro-key-1", "")["variant"] != b.session("repro-key-1", "")["variant"] {
		t.Error("same seed drew different variants")
	}
}

// TestConcurrentActionsNeverCorrupt races many writers at one session:
// exactly one action per revision may win, and the log stays a chain.
func TestConcurrentActionsNeverCorrupt(t *testing.T) {
	h := newHarness(t, Options{Seed: 5})
	id := h.session("race-key-01", "spire_echo")["session_id"].(string)
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			site := []string{"archive", "harbor", "spire"}[i%3]
			body := map[string]any{"revision": i % 4, "action": map[string]any{"type": "investigate", "site": site}}
			if code, _ := h.do("POST", "/sessions/"+id+"/actions", body, h.auth()); code == 200 {
				mu.Lock()
				wins++
				mu.Unlock()
			}
			h.do("GET", "/sessions/"+id, nil, h.auth())
		}(i)
	}
	wg.Wait()
	_, s := h.do("GET", "/sessions/"+id, nil, h.auth())
	rev := int(s["revision"].(float64))
	if wins != rev || rev > 3 {
		t.Errorf("%d winners for revision %d", wins, rev)
	}
	h.do("POST", "/sessions/"+id+"/actions", map[string]any{"revision": rev, "action": map[string]any{"type": "withdraw"}}, h.auth())
	_, rp := h.do("GET", "/sessions/"+id+"/replay", nil, h.auth())
	if rp["integrity"].(map[string]any)["verified"] != true {
		t.Errorf("replay integrity broken after concurrent writes: %v", rp["integrity"])
	}
}

func TestLogHasOneLinePerRequestWithoutSecrets(t *testing.T) {
	var buf bytes.Buffer
	h := newHarness(t, Options{Seed: 1, Log: log.New(&buf, "", 0)})
	h.do("GET", "/store/"+Slug+"/assignment?api_key="+h.key, nil, nil)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Errorf("%d log lines for 3 requests:\n%s", len(lines), buf.String())
	}
	if strings.Contains(buf.String(), h.key) {
		t.Error("the log contains an api_key")
	}
	if !strings.Contains(lines[2], "GET "+BasePath+"/store/"+Slug+"/assignment 401") {
		t.Errorf("log line: %q", lines[2])
	}
}
