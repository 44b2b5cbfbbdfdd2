package server

import (
	"strings"
	"testing"
)

// An empty include= is as bad as an unknown layer: the document declares
// include as learning or audit (issue 8: servers no looser than documents).
func TestEmptyIncludeIsRefused(t *testing.T) {
	h := newHarness(t, Options{Seed: 1})
	path := "/store/" + Slug + "/versions/" + VersionID
	for q, want := range map[string]int{"": 200, "?include=learning": 200, "?include=": 400, "?include=bogus": 400} {
		if code, out := h.do("GET", path+q, nil, nil); code != want {
			t.Errorf("GET %s%s: %d %v, want %d", path, q, code, out, want)
		}
	}
}

// A revision past the cap is refused with a message that states the cap
// the document declares (issue 8: no false "non-negative" message).
func TestRevisionCapIsStated(t *testing.T) {
	h := newHarness(t, Options{Seed: 1})
	s := h.session("kit-cap-0123456789", "")
	actions, _ := s["actions_url"].(string)
	code, out := h.do("POST", actions[strings.Index(actions, "/sessions/"):], map[string]any{"revision": 1 << 31,
		"action": map[string]any{"type": "withdraw"}}, h.auth())
	if code != 400 || !strings.Contains(out["message"].(string), "1073741824") {
		t.Errorf("%d %v, want 400 stating the cap", code, out)
	}
}
