package agent

import (
	"encoding/json"
	"net/http"

	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

// mafiaTurn answers a Mafia view (TurnView's) with the kit's baseline move
// (PYYOL-MAFIA-REF-BASELINE), always one of legal (PYYOL-MAFIA-MOVE).
func (a *Agent) mafiaTurn(w http.ResponseWriter, raw json.RawMessage) {
	var view mafia.View
	if err := json.Unmarshal(raw, &view); err != nil || len(view.Legal) == 0 {
		handlerError(w, "the view has no legal actions")
		return
	}
	writeJSON(w, http.StatusOK, mafia.Baseline(view))
}
