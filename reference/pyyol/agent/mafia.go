package agent

import (
	"encoding/json"
	"net/http"

	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

// mafiaTurn answers a Mafia view with the kit's baseline move
// (PYYOL-MAFIA-REF-BASELINE), always one of legal (PYYOL-MAFIA-MOVE).
func (a *Agent) mafiaTurn(w http.ResponseWriter, body []byte) {
	var req struct {
		View mafia.View `json:"view"`
	}
	if err := json.Unmarshal(body, &req); err != nil || len(req.View.Legal) == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "no_legal_actions"})
		return
	}
	writeJSON(w, http.StatusOK, mafia.Baseline(req.View))
}
