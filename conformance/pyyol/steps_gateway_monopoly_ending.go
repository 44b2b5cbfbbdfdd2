package pyyol

import (
	"fmt"
	"slices"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// gatewayMonopolyEndingSteps registers the steps of features/pyyol/gateway-monopoly.feature (its rules on ending).
func (m *monoRun) gatewayMonopolyEndingSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the events were the documented Monopoly events in seq order$`), m.checkEvents)
}

// checkEvents: events come in increasing seq and are of the documented
// types (PYYOL-MONO-EVENTS).
func (m *monoRun) checkEvents() error {
	documented := []string{"match_created", "turn_started", "dice_rolled", "moved", "cash_changed", "rent_paid",
		"property_purchased", "card_drawn", "went_to_jail", "left_jail", "house_built", "house_sold", "mortgaged",
		"unmortgaged", "auction_started", "bid_placed", "auction_passed", "auction_won", "auction_unsold", "bankrupt",
		"trade_proposed", "trade_executed", "trade_rejected", "turn_ended", "match_finished"}
	for i, e := range m.events {
		if e.Type == "match_finished" && slices.ContainsFunc(m.turns, func(t *monoTurn) bool { return t.seen > i }) {
			return verdict.Failf("PYYOL-MONO-PHASE-GAME-OVER", "no decision after match_finished", "a turn", "after event %d", e.Seq)
		}
	}
	if len(m.events) > 0 && m.events[0].Type != "match_created" {
		return verdict.Failf("PYYOL-MONO-EV-MATCH-CREATED", "match_created first", m.events[0].Type, "the first event")
	}
	if n := len(m.events); m.end != nil && n > 0 && m.events[n-1].Type != "match_finished" {
		return verdict.Failf("PYYOL-MONO-EV-MATCH-FINISHED", "match_finished before game_end", m.events[n-1].Type, "the last event")
	}
	if err := m.checkTurnEvents(); err != nil {
		return err
	}
	last, rolled := 0, false
	for _, e := range m.events {
		if e.Seq <= last {
			return verdict.Failf("PYYOL-MONO-EVENTS", fmt.Sprintf("seq above %d", last), e.Seq, "event order")
		}
		last = e.Seq
		// In seq order a turn's first move follows its roll: a token
		// moves by the dice, or by a card drawn where they took it.
		switch e.Type {
		case "turn_started":
			rolled = false
		case "dice_rolled":
			rolled = true
		case "moved":
			if !rolled {
				return verdict.Failf("PYYOL-MONO-EVENTS", "the turn's dice_rolled before its first moved", "moved first", "event %d", e.Seq)
			}
		}
		if !slices.Contains(documented, e.Type) {
			return verdict.Failf("PYYOL-MONO-EVENTS", documented, e.Type, "event %d", e.Seq)
		}
	}
	return nil
}
