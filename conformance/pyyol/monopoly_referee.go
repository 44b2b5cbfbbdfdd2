package pyyol

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
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

// checkViews: every view is the agent's seat, a documented phase, a
// non-empty legal list of actions legal in that phase (end_turn always
// among them in manage), and a state with players and holdings.
func (m *monoRun) checkViews() error {
	for i, t := range m.turns {
		v := t.view
		where := fmt.Sprintf("turn view %d", i)
		if i > 0 && v.Phase == "trade" && skippedFloor(m.turns[i-1]) {
			return verdict.Failf("PYYOL-MONO-ACT-SKIP-TRADE", "roll or jail after skip_trade", v.Phase, "%s", where)
		}
		if v.Seat == nil || *v.Seat != m.seat {
			return verdict.Failf("PYYOL-MONO-VIEW-SEAT", m.seat, v.Seat, "%s", where)
		}
		allowed, ok := monoLegalIn[v.Phase]
		if !ok || v.Phase == "game_over" {
			return verdict.Failf("PYYOL-MONO-VIEW-PHASE", "a documented phase owing a decision", v.Phase, "%s", where)
		}
		for _, a := range v.LegalActions {
			if _, phase := monoLegalIn[a]; phase && a != "roll" {
				return verdict.Failf("PYYOL-MONO-PHASE-NOT-ACTION", "action names", a, "%s: a phase name listed as an action", where)
			}
		}
		if v.Phase == "manage" && !slices.Contains(v.LegalActions, "end_turn") {
			return verdict.Failf("PYYOL-MONO-END-TURN-SAFE", "end_turn listed", v.LegalActions, "%s", where)
		}
		if len(v.LegalActions) == 0 {
			return verdict.Failf("PYYOL-MONO-VIEW-LEGAL", "at least one legal action", "none", "%s", where)
		}
		for _, a := range v.LegalActions {
			if !slices.Contains(allowed, a) {
				return verdict.Failf(phaseRule(v.Phase), allowed, a, "%s: an action not legal in phase %s", where, v.Phase)
			}
		}
		if v.State == nil || len(v.State.Players) < 2 || len(v.State.Holdings) == 0 {
			return verdict.Failf("PYYOL-MONO-VIEW-STATE", "state with players and holdings", "missing", "%s", where)
		}
	}
	return nil
}

// checkBuildings: a street with buildings belongs to a whole colour group
// of one owner, and its group's buildings differ by at most one
// (PYYOL-MONO-ACT-BUILD: even-build rules apply).
func (m *monoRun) checkBuildings() error {
	b, err := monopoly.StandardBoard()
	if err != nil {
		return err
	}
	for i, t := range m.turns {
		if t.view.State == nil {
			continue
		}
		at := map[int]monoHolding{}
		for _, h := range t.view.State.Holdings {
			at[h.Square] = h
		}
		for _, h := range t.view.State.Holdings {
			if h.Houses == 0 || h.Square < 0 || h.Square >= len(b.Squares) || b.Squares[h.Square].Kind != monopoly.KindStreet {
				continue
			}
			lo, hi := 5, 0
			for _, o := range b.Group(h.Square) {
				g := at[o]
				if g.Owner != h.Owner {
					return verdict.Failf("PYYOL-MONO-ACT-BUILD", "buildings only on a whole colour group", fmt.Sprintf("square %d built (%d) while square %d belongs to seat %d", h.Square, h.Houses, o, g.Owner), "turn view %d", i)
				}
				lo, hi = min(lo, g.Houses), max(hi, g.Houses)
			}
			if hi-lo > 1 {
				return verdict.Failf("PYYOL-MONO-ACT-BUILD", "a group's buildings within one of each other", fmt.Sprintf("%d..%d around square %d", lo, hi, h.Square), "turn view %d", i)
			}
		}
	}
	return nil
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

// checkTable: initialize announced 2..8 seats and every view shows that
// many players (PYYOL-MONO-CFG-PLAYERS, PYYOL-MONO-SEATS).
func (m *monoRun) checkTable() error {
	announced := []int{}
	if n, ok := m.rule("players"); ok {
		announced = append(announced, n)
	}
	var body struct {
		Players *int `json:"players"`
	}
	if m.init != nil && jsonInto(m.init.raw, &body) == nil && body.Players != nil {
		announced = append(announced, *body.Players)
	}
	for _, n := range announced {
		if n < 2 || n > 8 {
			return verdict.Failf("PYYOL-MONO-CFG-PLAYERS", "2..8 seats", n, "the table size initialize announced")
		}
	}
	if len(announced) == 0 {
		return nil
	}
	players := announced[len(announced)-1]
	for i, t := range m.turns {
		if t.view.State != nil && len(t.view.State.Players) != players {
			return verdict.Failf("PYYOL-MONO-SEATS", players, len(t.view.State.Players), "players in turn view %d", i)
		}
	}
	return nil
}

// checkEconomy: with the default economy every seat starts on $1500 and
// the GO salary is $200 (PYYOL-MONO-ECONOMY, PYYOL-MONO-CFG-ECONOMY).
func (m *monoRun) checkEconomy() error {
	start, ok := m.rule("starting_cash")
	if ok && start != 1500 || len(m.turns) == 0 {
		return nil // a table that asked for another economy
	}
	first := m.turns[0]
	if first.view.State == nil {
		return nil
	}
	for s, p := range first.view.State.Players {
		if p.Cash != nil && *p.Cash != 1500 && first.seen <= 2 {
			return verdict.Failf("PYYOL-MONO-ECONOMY", 1500, *p.Cash, "seat %d's cash in the first view, before any money moved", s)
		}
	}
	for _, e := range m.events {
		p := payload(e)
		if amt, ok := fieldInt(p, "amount"); e.Type == "cash_changed" && p["reason"] == "go_salary" && ok && amt != 200 {
			return verdict.Failf("PYYOL-MONO-CFG-ECONOMY", 200, amt, "the GO salary paid at event %d", e.Seq)
		}
	}
	return nil
}

// checkRefused: the made-up first answer was replaced by a safe legal
// action, the match went on, and it changed no money or holding: the next
// view shows the same players' cash and holdings unless events came
// between (PYYOL-MONO-FALLBACK, PYYOL-MONO-MOVE-ACTION).
func (m *monoRun) checkRefused() error {
	if m.end == nil || len(m.turns) < 2 {
		return verdict.Failf("PYYOL-MONO-FALLBACK", "the match going on to game_end", fmt.Sprintf("%d turns", len(m.turns)), "after a refused answer")
	}
	first, next := m.turns[0], m.turns[1]
	if len(first.after) > 0 || first.view.State == nil || next.view.State == nil {
		return nil // something happened between: nothing to compare
	}
	a, _ := json.Marshal(first.view.State.Players)
	b, _ := json.Marshal(next.view.State.Players)
	c, _ := json.Marshal(first.view.State.Holdings)
	d, _ := json.Marshal(next.view.State.Holdings)
	if string(a) != string(b) || string(c) != string(d) {
		return verdict.Failf("PYYOL-MONO-MOVE-ACTION", "players and holdings unchanged", "changed", "after the refused answer %q", "fly")
	}
	return nil
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
