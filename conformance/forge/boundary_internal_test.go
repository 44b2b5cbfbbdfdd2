package forge

import "testing"

// fillPath fills only the agent's own id or name, and never builds a path
// that could leave the target's origin.
func TestFillPath(t *testing.T) {
	t.Parallel()
	a := &agent{ID: "agt/1", Name: "kit-solver"}
	cases := []struct {
		template, want string
		ok             bool
	}{
		{"/api/agent", "/api/agent", true},
		{"/api/agents/{agentId}", "/api/agents/agt%2F1", true},
		{"/api/agents/by-name/{nickname}", "/api/agents/by-name/kit-solver", true},
		{"/api/levels/{position}", "", false},
		{"//evil.example/steal", "", false},
		{"evil.example/steal", "", false},
		{"/api/../x", "", false},
		{"/api/x?key=1", "", false},
		{"/api/{agentId", "", false},
	}
	for _, c := range cases {
		got, ok := fillPath(c.template, a)
		if got != c.want || ok != c.ok {
			t.Errorf("fillPath(%q) = %q, %v; want %q, %v", c.template, got, ok, c.want, c.ok)
		}
	}
}

// tierInLevel finds a tier in a level object only, and not in atFrontier.
func TestTierInLevel(t *testing.T) {
	t.Parallel()
	cases := []struct {
		doc  any
		want string
	}{
		{map[string]any{"currentLevel": map[string]any{"position": 1.0, "difficultyTier": "gold"}}, "difficultyTier"},
		{map[string]any{"atFrontier": true, "currentLevel": map[string]any{"title": "x"}}, ""},
		{map[string]any{"tier": "practice", "apiKey": "k"}, ""},
		{map[string]any{"level": map[string]any{"rules": "r", "tiers": []any{}}}, "tiers"},
	}
	for _, c := range cases {
		if got := tierInLevel(c.doc); got != c.want {
			t.Errorf("tierInLevel(%v) = %q, want %q", c.doc, got, c.want)
		}
	}
}
