package pyyol_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/reference/pyyol/agent"
)

// mafiaAnswers answers every Mafia turn with move.
func mafiaAnswers(move any) http.Handler {
	return gameAnswers("mafia", func(json.RawMessage) any { return move })
}

// brokenMafiaAgents lists, for every MUST rule the push side checks on an
// agent's Mafia answers, an agent endpoint that breaks it.
func brokenMafiaAgents() []struct {
	rule  string
	agent http.Handler
} {
	return []struct {
		rule  string
		agent http.Handler
	}{
		{"PYYOL-PUSH-TURN", mafiaAnswers(http.StatusInternalServerError)},
		// An action outside the Actions table; a vote naming no seat; a
		// target that is not a seat index (the move schema catches these).
		{"PYYOL-MAFIA-MOVE", mafiaAnswers(map[string]any{"action": "dance", "target": 0})},
		{"PYYOL-MAFIA-MOVE", gameAnswers("mafia", func(raw json.RawMessage) any {
			var v struct{ Legal []string }
			json.Unmarshal(raw, &v)
			if len(v.Legal) == 0 {
				return nil
			}
			return map[string]any{"action": v.Legal[0]}
		})},
		{"PYYOL-MAFIA-MOVE", mafiaAnswers(map[string]any{"action": "vote", "target": "seat 3"})},
	}
}

// TestBrokenMafiaAgentsFailTheirRule: each broken agent endpoint, pushed
// Mafia matches live over loopback, fails naming its rule.
func TestBrokenMafiaAgentsFailTheirRule(t *testing.T) {
	pyyol.SetCredentials(pyyol.Credentials{Secret: agent.DevSecret})
	defer pyyol.SetCredentials(pyyol.Credentials{})
	for _, c := range brokenMafiaAgents() {
		t.Run(c.rule, func(t *testing.T) {
			srv := httptest.NewServer(c.agent)
			defer srv.Close()
			rep := runLive(t, pyyol.Push(), srv.URL+agent.BasePath+"/turn", c.rule)
			if rep.ExitCode() != 1 || !rep.Failed(c.rule) {
				t.Errorf("exit %d; want a fail naming %s; got %v", rep.ExitCode(), c.rule, failedRules(rep))
			}
		})
	}
}
