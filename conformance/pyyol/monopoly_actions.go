package pyyol

import (
	"fmt"
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
)

// actionBroken judges what a chosen action did beyond its own event:
// a rejected trade is not executed (PYYOL-MONO-ACT-REJECT-TRADE), an
// offer reaches its target (PYYOL-MONO-ACT-PROPOSE-TRADE), a jail card
// is spent (PYYOL-MONO-ACT-USE-JAIL-CARD) and a sold house leaves the
// board (PYYOL-MONO-ACT-SELL-HOUSE).
func (m *monoRun) actionBroken(i int, t *monoTurn) error {
	a, _ := t.move["action"].(string)
	came := func(types ...string) bool {
		return slices.ContainsFunc(t.after, func(e frame) bool { return slices.Contains(types, e.Type) })
	}
	var next *monoTurn
	if i+1 < len(m.turns) {
		next = m.turns[i+1]
	}
	switch a {
	case "reject_trade":
		if came("trade_executed") {
			return verdict.Failf("PYYOL-MONO-ACT-REJECT-TRADE", "the trade dropped", "trade_executed", "the trade rejected at turn view %d", i)
		}
	case "propose_trade":
		if !came("trade_proposed", "trade_executed", "trade_rejected") {
			return verdict.Failf("PYYOL-MONO-ACT-PROPOSE-TRADE", "the offer put to its target", "no trade event", "the trade offered at turn view %d", i)
		}
	case "use_jail_card":
		before, after := m.jailCards(t), m.jailCards(next)
		if before != nil && after != nil && *after != *before-1 {
			return verdict.Failf("PYYOL-MONO-ACT-USE-JAIL-CARD", *before-1, *after, "jail cards held after spending one at turn view %d", i)
		}
	case "sell_house":
		sq, _ := t.move["property"].(int)
		before, after := m.houses(t, sq), m.houses(next, sq)
		if before > 0 && after >= 0 && after != before-1 {
			return verdict.Failf("PYYOL-MONO-ACT-SELL-HOUSE", before-1, after, "buildings on square %d after selling one at turn view %d", sq, i)
		}
	}
	return nil
}

// jailCards is the agent's jail-card count in a turn's view, nil when the
// view does not show it or the agent left the game.
func (m *monoRun) jailCards(t *monoTurn) *int {
	if t == nil || t.view.State == nil || m.seat >= len(t.view.State.Players) || t.view.State.Players[m.seat].Bankrupt {
		return nil
	}
	return t.view.State.Players[m.seat].JailCards
}

// houses is the number of buildings on a square of the agent's in a
// turn's view, -1 when unknown or no longer the agent's.
func (m *monoRun) houses(t *monoTurn, sq int) int {
	if t == nil {
		return -1
	}
	h, ok := m.mine(t.view).holdings[sq]
	if !ok || h.Owner != m.seat {
		return -1
	}
	return h.Houses
}

// jailRollAgrees: doubles free the seat; without doubles it stays, unless
// it pays the fine (the reference's third try) (PYYOL-MONO-ACT-ROLL-JAIL).
func (m *monoRun) jailRollAgrees(i int, t *monoTurn, p map[string]any) error {
	d, _ := p["dice"].([]any)
	if len(d) != 2 {
		return nil
	}
	left := slices.ContainsFunc(t.after, func(e frame) bool { return e.Type == "left_jail" })
	paid := slices.ContainsFunc(t.after, func(e frame) bool {
		s, _ := fieldInt(payload(e), "seat")
		amt, _ := fieldInt(payload(e), "amount")
		return e.Type == "cash_changed" && s == m.seat && amt < 0
	})
	switch {
	case d[0] == d[1] && !left:
		return verdict.Failf("PYYOL-MONO-ACT-ROLL-JAIL", "left_jail after doubles", fmt.Sprint(d), "the jail roll at turn view %d", i)
	case d[0] != d[1] && left && !paid:
		return verdict.Failf("PYYOL-MONO-ACT-ROLL-JAIL", "still in jail after no doubles (or the fine paid)", fmt.Sprint(d), "the jail roll at turn view %d", i)
	}
	return nil
}

// offerOrBuildingAgrees: a counter offer goes back to the proposer as the
// agent's own trade (PYYOL-MONO-ACT-COUNTER-TRADE); a building's event
// names the square chosen (PYYOL-MONO-MOVE-PROPERTY), and a house_built
// a count that says a house went up (builtCountAgrees,
// PYYOL-MONO-EV-HOUSE-BUILT).
func (m *monoRun) offerOrBuildingAgrees(i int, t *monoTurn, p map[string]any) error {
	a, _ := t.move["action"].(string)
	if a == "counter_trade" {
		offered, _ := t.move["trade"].(map[string]any)
		got, _ := p["trade"].(map[string]any)
		proposer, ok1 := fieldInt(got, "proposer")
		target, ok2 := fieldInt(got, "target")
		if !ok1 || !ok2 {
			return nil // a trade_proposed without the reference's trade layout
		}
		if proposer != m.seat || fmt.Sprint(target) != fmt.Sprint(offered["target"]) {
			return verdict.Failf("PYYOL-MONO-ACT-COUNTER-TRADE", offered, got, "the counter offered at turn view %d", i)
		}
		return nil
	}
	want, _ := t.move["property"].(int)
	if sq, ok := fieldInt(p, "property"); ok && sq != want {
		return verdict.Failf("PYYOL-MONO-MOVE-PROPERTY", want, sq, "the square of %s at turn view %d", a, i)
	}
	if a == "build" {
		return builtCountAgrees(i, t, p)
	}
	return nil
}

// probeRefused: the uneven hotel the dealer asked for was not built
// (PYYOL-MONO-ACT-BUILD: even-build rules apply).
func (m *monoRun) probeRefused(i int, t *monoTurn) error {
	sq, _ := t.move["property"].(int)
	for _, e := range t.after {
		p := payload(e)
		if at, _ := fieldInt(p, "property"); e.Type == "house_built" && at == sq {
			return verdict.Failf("PYYOL-MONO-ACT-BUILD", "the uneven hotel refused", fmt.Sprintf("built on square %d", sq), "turn view %d, its group below four houses", i)
		}
	}
	return nil
}
