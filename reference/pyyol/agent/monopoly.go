package agent

import (
	"encoding/json"
	"net/http"
	"slices"

	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// monopolyTurn answers a Monopoly view, pushed in the body the kit's
// platform sends (PYYOL-MONO-REF-PUSH-MATCH), with the kit's baseline
// move (PYYOL-MONO-REF-PUSH-BASELINE): the docs' own example, roll, buy or
// end_turn when listed, else the first of legal_actions, which the
// engine lists first among the kinds that need no property, amount or
// trade (PYYOL-MONO-MOVE-ACTION, PYYOL-MONO-LEGAL-ACCEPTED), so the
// reference rules never refuse it (PYYOL-MONO-REF-PUSH-REFEREE).
func (a *Agent) monopolyTurn(w http.ResponseWriter, body []byte) {
	var req struct {
		View monopoly.View `json:"view"`
	}
	if err := json.Unmarshal(body, &req); err != nil || len(req.View.LegalActions) == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "no_legal_actions"})
		return
	}
	writeJSON(w, http.StatusOK, MonopolyBaseline(req.View))
}

// MonopolyBaseline is the docs' example Monopoly agent: a preferred-order
// pick from legal_actions keeps the game moving.
func MonopolyBaseline(v monopoly.View) monopoly.Move {
	for _, a := range []string{monopoly.ActRoll, monopoly.ActBuy, monopoly.ActEndTurn} {
		if slices.Contains(v.LegalActions, a) {
			return monopoly.Move{Action: a}
		}
	}
	return monopoly.Move{Action: v.LegalActions[0]}
}
