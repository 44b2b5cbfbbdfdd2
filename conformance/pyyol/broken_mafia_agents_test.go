package pyyol_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/verdict"
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
		{"PYYOL-PUSH-INITIALIZE", refusesGame("mafia", "/initialize")},
		{"PYYOL-PUSH-EVENT-ACK", refusesGame("mafia", "/event")},
		{"PYYOL-PUSH-GAME-END-ACK", refusesGame("mafia", "/game-end")},
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
	t.Parallel()
	catchBrokenAgents(t, brokenMafiaAgents())
}

// TestMafiaReferenceRefusalsOnlyWarn: an agent whose moves have the
// documented shape but that the kit's reference rules refuse (naming its
// own seat, a message over 500 characters) is warned under the reference
// rule, never failed, and the matches go on with the safe default.
func TestMafiaReferenceRefusalsOnlyWarn(t *testing.T) {
	t.Parallel()
	self := gameAnswers("mafia", func(raw json.RawMessage) any {
		var v struct {
			YourSeat int `json:"your_seat"`
			Legal    []string
		}
		json.Unmarshal(raw, &v)
		switch {
		case len(v.Legal) == 0:
			return nil
		case v.Legal[0] == "message":
			return map[string]any{"action": "message", "tone": "info", "text": strings.Repeat("x", 600)}
		}
		return map[string]any{"action": v.Legal[0], "target": v.YourSeat}
	})
	srv := httptest.NewServer(self)
	defer srv.Close()
	rep := runLive(t, pyyol.Push(), srv.URL+agent.BasePath+"/turn", "PYYOL-MAFIA-MOVE", pushSettings)
	warned := 0
	for _, r := range rep.Results {
		if r.Status == verdict.Warn {
			warned++
		}
	}
	if rep.ExitCode() != 0 || warned == 0 {
		t.Errorf("exit %d, %d warnings; want exit 0 with warnings: %v", rep.ExitCode(), warned, failedRules(rep))
	}
}
