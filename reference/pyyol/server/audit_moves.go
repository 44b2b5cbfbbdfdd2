package server

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/agentgames/conformance/reference/audit"
)

// response audits one response frame: its id, its timing and its move
// against the view it answers. late says the gateway's own timeout had
// already settled the turn.
func (fa *frameAudit) response(f Frame, late bool) []audit.Finding {
	at := "response " + f.ID
	if f.ID == "" {
		// PYYOL-AGENT-ONE-WAY: "`event`/`game_end` are one-way — no response."
		return []audit.Finding{fa.finding("PYYOL-AGENT-ONE-WAY", "response", "a response without an id: only turn and initialize take one, event and game_end none")}
	}
	a := fa.agent
	a.mu.Lock()
	sent, asked := a.asked[f.ID]
	again, past := a.answered[f.ID], a.past[f.ID]
	a.answered[f.ID] = true
	a.mu.Unlock()
	if past {
		return nil // an answer after its match ended: the match judged it already
	}
	if !asked {
		// PYYOL-AGENT-RESPONSE-ID: "your `response` echoes it".
		return []audit.Finding{fa.finding("PYYOL-AGENT-RESPONSE-ID", at, "the id names no turn or initialize the agent was sent")}
	}
	var head Frame
	if json.Unmarshal(sent, &head) != nil || head.T != "turn" {
		return nil
	}
	// The turn's view is its payload and names its game (frames.go).
	var view struct {
		Game string `json:"game"`
	}
	json.Unmarshal(head.Payload, &view)
	head.Game = view.Game
	var out []audit.Finding
	if late {
		// PYYOL-AGENT-ON-TIME: "bounded by a timeout".
		out = append(out, fa.finding("PYYOL-AGENT-ON-TIME", at, "the answer came after the gateway's timeout had settled the turn with the fallback"))
	}
	if again && head.Game == "goofspiel" {
		// PYYOL-AGENT-GOOF-ONE-BID: "there is no re-bid".
		out = append(out, fa.finding("PYYOL-AGENT-GOOF-ONE-BID", at, "a second response to one turn"))
	}
	if f.Error != "" || len(f.move()) == 0 {
		return out // a handler error (PYYOL-REF-ERROR-RESPONSE) carries no move
	}
	check := moveChecks[head.Game]
	if check == nil {
		return out
	}
	for _, c := range check(head.Payload, f.move()) {
		out = append(out, fa.finding(c[0], at, c[1]))
	}
	return out
}

// moveChecks audit a move against its view, per game; each broken rule is
// a pair {rule, detail}.
var moveChecks = map[string]func(view, move json.RawMessage) [][2]string{
	"goofspiel": goofspielMove,
	"mafia":     mafiaMove,
	"monopoly":  monopolyMove,
}

func goofspielMove(view, move json.RawMessage) [][2]string {
	var v struct {
		Round        int   `json:"round"`
		LegalActions []int `json:"legal_actions"`
	}
	var m struct {
		Round *int `json:"round"`
		Card  *int `json:"card"`
	}
	if json.Unmarshal(view, &v) != nil || json.Unmarshal(move, &m) != nil {
		return nil
	}
	var out [][2]string
	if m.Round == nil || *m.Round != v.Round {
		// PYYOL-AGENT-GOOF-ROUND: "Echo back the view's `round`".
		out = append(out, [2]string{"PYYOL-AGENT-GOOF-ROUND", fmt.Sprintf("the move names round %s in round %d", optional(m.Round), v.Round)})
	}
	if m.Card == nil || !slices.Contains(v.LegalActions, *m.Card) {
		// PYYOL-AGENT-GOOF-CARD: "must be one of `legal_actions`".
		out = append(out, [2]string{"PYYOL-AGENT-GOOF-CARD", fmt.Sprintf("card %s is not in legal_actions %v", optional(m.Card), v.LegalActions)})
	}
	return out
}

// mafiaTargeted are the Mafia actions that need a target seat.
var mafiaTargeted = []string{"vote", "night_kill", "investigate", "protect", "profile"}

func mafiaMove(view, move json.RawMessage) [][2]string {
	var v struct {
		Legal []string `json:"legal"`
	}
	var m struct {
		Action string `json:"action"`
		Target *int   `json:"target"`
	}
	if json.Unmarshal(view, &v) != nil || json.Unmarshal(move, &m) != nil {
		return nil
	}
	var out [][2]string
	if !slices.Contains(v.Legal, m.Action) {
		// PYYOL-AGENT-MAFIA-ACTION: "One of `legal`."
		out = append(out, [2]string{"PYYOL-AGENT-MAFIA-ACTION", fmt.Sprintf("action %q is not in legal %v", m.Action, v.Legal)})
	}
	if slices.Contains(mafiaTargeted, m.Action) && m.Target == nil {
		// PYYOL-AGENT-MAFIA-TARGET: "A seat — required for `vote`, ...".
		out = append(out, [2]string{"PYYOL-AGENT-MAFIA-TARGET", fmt.Sprintf("%s without a target seat", m.Action)})
	}
	return out
}

// monopolyPhasesOnly are Monopoly's phase names that are no action's name.
var monopolyPhasesOnly = []string{"jail", "acquire", "auction", "resolve_debt", "manage", "trade_response", "trade", "game_over"}

// monopolyOnSquare are the Monopoly actions that name a board square.
var monopolyOnSquare = []string{"build", "mortgage", "unmortgage", "sell_house"}

func monopolyMove(view, move json.RawMessage) [][2]string {
	var v struct {
		LegalActions []string `json:"legal_actions"`
	}
	var m struct {
		Action   string          `json:"action"`
		Property *int            `json:"property"`
		Trade    json.RawMessage `json:"trade"`
	}
	if json.Unmarshal(view, &v) != nil || json.Unmarshal(move, &m) != nil {
		return nil
	}
	var out [][2]string
	switch {
	case slices.Contains(monopolyPhasesOnly, m.Action):
		// PYYOL-AGENT-MONO-PHASE-NOT-ACTION: "don't confuse them".
		out = append(out, [2]string{"PYYOL-AGENT-MONO-PHASE-NOT-ACTION", fmt.Sprintf("%q is a phase, not an action", m.Action)})
	case !slices.Contains(v.LegalActions, m.Action):
		// PYYOL-AGENT-MONO-ACTION: "Always choose from this."
		out = append(out, [2]string{"PYYOL-AGENT-MONO-ACTION", fmt.Sprintf("action %q is not in legal_actions %v", m.Action, v.LegalActions)})
	}
	if slices.Contains(monopolyOnSquare, m.Action) && m.Property == nil {
		// PYYOL-AGENT-MONO-PROPERTY: "Board-square index — for `build`, ...".
		out = append(out, [2]string{"PYYOL-AGENT-MONO-PROPERTY", m.Action + " without a property square"})
	}
	hasTrade := len(m.Trade) > 0 && string(m.Trade) != "null"
	// counter_trade carries its counter-offer the same way (PYYOL-MONO-ACT-COUNTER-TRADE).
	tradeAction := m.Action == "propose_trade" || m.Action == "counter_trade"
	if (hasTrade && !tradeAction) || (!hasTrade && m.Action == "propose_trade") {
		// PYYOL-AGENT-MONO-TRADE: "Only for `propose_trade`".
		out = append(out, [2]string{"PYYOL-AGENT-MONO-TRADE", fmt.Sprintf("action %q with trade present: %v", m.Action, hasTrade)})
	}
	return out
}

// optional prints an optional number of a move.
func optional(n *int) string {
	if n == nil {
		return "none"
	}
	return fmt.Sprint(*n)
}
