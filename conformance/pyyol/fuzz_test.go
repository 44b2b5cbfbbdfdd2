package pyyol

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// FuzzCheckFrame: any bytes a gateway sends are judged (a verdict, never a
// panic), and only a JSON object can pass a schema.
func FuzzCheckFrame(f *testing.F) {
	f.Add([]byte(`{"t":"hello","version":"1.0"}`), "hello")
	f.Add([]byte(`{"t":"turn","id":"1","view":{"legal_actions":[1]}}`), "turn")
	f.Add([]byte(`[1,2]`), "event")
	f.Add([]byte(`{"t":"event","seq":1e400}`), "event")
	f.Fuzz(func(t *testing.T, raw []byte, typ string) {
		err := checkFrame(raw, typ)
		var obj map[string]any
		if err == nil && json.Unmarshal(raw, &obj) != nil {
			t.Fatalf("a non-object passed the %q schema: %q", typ, raw)
		}
		var fr frame
		_ = json.Unmarshal(raw, &fr)
	})
}

// FuzzMonopolyMove: any bytes an agent answers a pushed Monopoly turn with
// are judged (a move or a verdict, never a panic); an accepted move has
// an action of the view's legal_actions.
func FuzzMonopolyMove(f *testing.F) {
	f.Add([]byte(`{"action":"roll"}`))
	f.Add([]byte(`{"action":"bid","amount":0}`))
	f.Add([]byte(`{"action":"propose_trade","trade":{"proposer":0,"target":1,"give_props":[1],"give_cash":0,"want_props":[],"want_cash":5}}`))
	f.Add([]byte(`{"action":"mortgage","property":1e400}`))
	view := monopoly.View{Phase: "manage", LegalActions: []string{"roll", "bid", "propose_trade", "mortgage", "end_turn"},
		State: monopoly.StateView{Players: make([]monopoly.PlayerView, 4)}}
	f.Fuzz(func(t *testing.T, raw []byte) {
		mv, err := monopolyMoveOf(raw, view, 0, func(error) {})
		if err == nil && !slices.Contains(view.LegalActions, mv.Action) {
			t.Fatalf("accepted %q with action %q", raw, mv.Action)
		}
	})
}
