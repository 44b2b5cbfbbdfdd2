package agent

import (
	"encoding/json"
	"net/http"
	"slices"

	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// monopolyTurn answers a Monopoly view (TurnView's), pushed in the body
// the kit's platform sends (PYYOL-MONO-REF-PUSH-MATCH), with the kit's baseline
// move (PYYOL-MONO-REF-PUSH-BASELINE): the docs' own example, roll, buy or
// end_turn when listed, else the first of legal_actions, which the
// engine lists first among the kinds that need no property, amount or
// trade (PYYOL-MONO-MOVE-ACTION, PYYOL-MONO-LEGAL-ACCEPTED), so the
// reference rules never refuse it (PYYOL-MONO-REF-PUSH-REFEREE).
func (a *Agent) monopolyTurn(w http.ResponseWriter, raw json.RawMessage) {
	var view monopoly.View
	if err := json.Unmarshal(raw, &view); err != nil || len(view.LegalActions) == 0 {
		handlerError(w, "the view has no legal_actions")
		return
	}
	writeJSON(w, http.StatusOK, MonopolyBaseline(view))
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
