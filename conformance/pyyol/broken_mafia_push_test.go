package pyyol_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/reference/pyyol/agent"
)

// TestMafiaAgentEndpointLive: the reference agent playing Mafia passes the
// push side live, and one that answers a Mafia turn with an action outside
// legal fails naming PYYOL-MAFIA-MOVE.
func TestMafiaAgentEndpointLive(t *testing.T) {
	t.Parallel()
	healthy := httptest.NewServer(agent.New(agent.Options{Mafia: true}))
	defer healthy.Close()
	rep := runLive(t, pyyol.Push(), healthy.URL+agent.BasePath+"/turn", "PYYOL-MAFIA-MOVE", pushSettings)
	if rep.ExitCode() != 0 || len(rep.Results) == 0 {
		t.Errorf("healthy: exit %d: %v", rep.ExitCode(), failedRules(rep))
	}
	broken := httptest.NewServer(answers("/turn", http.StatusOK, map[string]any{"action": "dance", "target": 0})(agent.New(agent.Options{Mafia: true})))
	defer broken.Close()
	rep = runLive(t, pyyol.Push(), broken.URL+agent.BasePath+"/turn", "PYYOL-MAFIA-MOVE", pushSettings)
	if rep.ExitCode() != 1 || !rep.Failed("PYYOL-MAFIA-MOVE") {
		t.Errorf("broken: exit %d; want a fail naming PYYOL-MAFIA-MOVE; got %v", rep.ExitCode(), failedRules(rep))
	}
}
