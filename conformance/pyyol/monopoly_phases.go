package pyyol

import (
	"fmt"
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
)

// checkPhaseMachine: in the agent's own turn no landing is resolved and
// no manage phase opens before the agent rolled or moved (PYYOL-MONO-PHASE-MACHINE:
// roll, resolve where you land, then manage and end_turn).
func (m *monoRun) checkPhaseMachine() error {
	current, rolled := -1, false
	return m.replay(func(e frame) error {
		p := payload(e)
		seat, _ := fieldInt(p, "seat")
		switch e.Type {
		case "turn_started":
			current, rolled = seat, false
		case "dice_rolled", "moved", "went_to_jail":
			// the roll's own event, or (should that be missing, which
			// PYYOL-MONO-EV-DICE-ROLLED judges) the move it made
			rolled = rolled || seat == m.seat
		}
		return nil
	}, func(i int, t *monoTurn) error {
		if current == m.seat && !rolled && (t.view.Phase == "manage" || t.view.Phase == "acquire") {
			return verdict.Failf("PYYOL-MONO-PHASE-MACHINE", "roll before the landing and manage", t.view.Phase,
				"turn view %d: the agent's turn reached %s with no roll", i, t.view.Phase)
		}
		a, _ := t.move["action"].(string)
		rolled = rolled || (a == "roll" || a == "roll_jail") && slices.Contains(t.view.LegalActions, a)
		return nil
	})
}

// checkWholeBoard: every view shows every seat's cash and, in its
// holdings, every square the events say is owned (a view may list the
// unowned squares too or leave them out)
// (PYYOL-MONO-PERFECT-INFO: the whole board is exposed in state).
func (m *monoRun) checkWholeBoard() error {
	owned := map[int]bool{}
	return m.replay(func(e frame) error {
		p := payload(e)
		switch e.Type {
		case "property_purchased", "auction_won":
			if sq, ok := fieldInt(p, "property"); ok {
				owned[sq] = true
			}
		case "bankrupt":
			if c, ok := fieldInt(p, "creditor"); ok && c < 0 {
				props, _ := p["properties"].([]any)
				for _, sq := range ints2(props) {
					delete(owned, sq)
				}
			}
		}
		return nil
	}, func(i int, t *monoTurn) error {
		s := t.view.State
		if s == nil || len(s.Holdings) == 0 {
			return nil // PYYOL-MONO-VIEW-STATE's to judge
		}
		listed := map[int]bool{}
		for _, h := range s.Holdings {
			listed[h.Square] = true
		}
		for sq := range 40 {
			if owned[sq] && !listed[sq] {
				return verdict.Failf("PYYOL-MONO-PERFECT-INFO", fmt.Sprintf("owned square %d in the holdings", sq), "missing", "turn view %d", i)
			}
		}
		for seat, p := range s.Players {
			if p.Cash == nil {
				return verdict.Failf("PYYOL-MONO-PERFECT-INFO", "every seat's cash", "none", "seat %d in turn view %d", seat, i)
			}
		}
		return nil
	})
}

// checkTradeResponses: a trade proposed to the agent is answered by the
// agent, in a trade_response view, before it is executed or rejected;
// and a trade_response view comes only with a trade proposed to it
// (PYYOL-MONO-PHASE-TRADE-RESPONSE). A trade_proposed that names no
// target leaves the second half undecided.
func (m *monoRun) checkTradeResponses() error {
	pending, unread := false, false
	return m.replay(func(e frame) error {
		t, _ := payload(e)["trade"].(map[string]any)
		switch e.Type {
		case "trade_proposed":
			target, ok := fieldInt(t, "target")
			unread = unread || !ok
			if ok && target == m.seat {
				pending = true
			}
		case "trade_executed", "trade_rejected":
			if pending {
				return verdict.Failf("PYYOL-MONO-PHASE-TRADE-RESPONSE", "the agent asked in trade_response", e.Type,
					"event %d settled a trade proposed to seat %d without its answer", e.Seq, m.seat)
			}
		}
		return nil
	}, func(i int, t *monoTurn) error {
		if t.view.Phase != "trade_response" {
			return nil
		}
		if !pending && !unread {
			return verdict.Failf("PYYOL-MONO-PHASE-TRADE-RESPONSE", "a trade proposed to the agent", "none", "turn view %d in trade_response", i)
		}
		pending = false
		return nil
	})
}
