package pyyol

import (
	"fmt"
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// monoEffect is the event each chosen action must produce before the next
// turn, and the rule a missing one breaks: the event's own row, or
// PYYOL-MONO-LEGAL-ACCEPTED (a listed action is accepted).
var monoEffect = map[string][2]string{
	"roll": {"dice_rolled", "PYYOL-MONO-EV-DICE-ROLLED"}, "roll_jail": {"dice_rolled", "PYYOL-MONO-EV-DICE-ROLLED"},
	"buy": {"property_purchased", "PYYOL-MONO-LEGAL-ACCEPTED"}, "mortgage": {"mortgaged", "PYYOL-MONO-EV-MORTGAGED"},
	"propose_trade": {"trade_proposed", "PYYOL-MONO-EV-TRADE-PROPOSED"}, "pay_jail": {"left_jail", "PYYOL-MONO-EV-LEFT-JAIL"},
	"pass": {"auction_passed", "PYYOL-MONO-EV-AUCTION-PASSED"}, "bankrupt": {"bankrupt", "PYYOL-MONO-EV-BANKRUPT"},
	"decline": {"auction_started", "PYYOL-MONO-CFG-AUCTIONS"}, "bid": {"bid_placed", "PYYOL-MONO-ACT-BID"}, "unmortgage": {"unmortgaged", "PYYOL-MONO-EV-UNMORTGAGED"},
	"use_jail_card": {"left_jail", "PYYOL-MONO-EV-LEFT-JAIL"}, "counter_trade": {"trade_proposed", "PYYOL-MONO-ACT-COUNTER-TRADE"},
	"reject_trade": {"trade_rejected", "PYYOL-MONO-EV-TRADE-REJECTED"}, "accept_trade": {"trade_executed", "PYYOL-MONO-EV-TRADE-EXECUTED"},
	"build": {"house_built", "PYYOL-MONO-EV-HOUSE-BUILT"}, "sell_house": {"house_sold", "PYYOL-MONO-EV-HOUSE-SOLD"},
}

// checkEffects: every action the agent chose from legal_actions took effect.
func (m *monoRun) checkEffects() error {
	m.noteUnreached()
	for i, t := range m.turns {
		a, _ := t.move["action"].(string)
		effect, ok := monoEffect[a]
		if t.probe {
			if err := m.probeRefused(i, t); err != nil {
				return err
			}
			continue
		}
		if !ok || i == len(m.turns)-1 && m.end == nil || !slices.Contains(t.view.LegalActions, a) {
			continue
		}
		if a == "decline" && slices.ContainsFunc(t.after, func(e frame) bool {
			s, _ := fieldInt(payload(e), "seat")
			return e.Type == "property_purchased" && s == m.seat
		}) {
			return verdict.Failf("PYYOL-MONO-ACT-DECLINE", "the property left unbought (or auctioned)", "bought by the seat that declined", "turn view %d", i)
		}
		if err := m.actionBroken(i, t); err != nil {
			return err
		}
		if on, known := m.ruleBool("auctions"); a == "decline" && (!known || !on) {
			continue // auctions off, or not announced: a decline opens none
		}
		at := slices.IndexFunc(t.after, func(e frame) bool { return e.Type == effect[0] })
		if at < 0 {
			return verdict.Failf(effect[1], effect[0], "no such event before the next turn", "the listed action %s chosen at turn view %d", a, i)
		}
		if err := m.effectAgrees(i, t, t.after[at]); err != nil {
			return err
		}
	}
	return nil
}

// effectAgrees checks an action's event against the move: roll moves the
// token (or jails it), buy pays the list price of the square the seat
// stands on, mortgage pays cash for the square named, a proposed trade is
// the one offered (PYYOL-MONO-ACT-ROLL, PYYOL-MONO-ACT-BUY,
// PYYOL-MONO-ACT-MORTGAGE, PYYOL-MONO-MOVE-PROPERTY, PYYOL-MONO-MOVE-TRADE).
func (m *monoRun) effectAgrees(i int, t *monoTurn, e frame) error {
	p := payload(e)
	a, _ := t.move["action"].(string)
	switch a {
	case "roll":
		if !slices.ContainsFunc(t.after, func(e frame) bool { return e.Type == "moved" || e.Type == "went_to_jail" }) {
			return verdict.Failf("PYYOL-MONO-ACT-ROLL", "moved (or went_to_jail) after the roll", "neither", "turn view %d", i)
		}
	case "buy":
		board, _ := monopoly.StandardBoard()
		sq, _ := fieldInt(p, "property")
		price, ok := fieldInt(p, "price")
		if t.view.State != nil && sq >= 0 && sq < len(board.Squares) && ok && price != board.Squares[sq].Price {
			return verdict.Failf("PYYOL-MONO-ACT-BUY", board.Squares[sq].Price, price, "the price of square %d bought at turn view %d", sq, i)
		}
	case "mortgage":
		sq, _ := fieldInt(p, "property")
		if want, _ := t.move["property"].(int); sq != want {
			return verdict.Failf("PYYOL-MONO-MOVE-PROPERTY", want, sq, "the square mortgaged at turn view %d", i)
		}
		if amt, ok := fieldInt(p, "amount"); ok && amt <= 0 {
			return verdict.Failf("PYYOL-MONO-ACT-MORTGAGE", "cash for the mortgage", amt, "turn view %d", i)
		}
	case "pass":
		if seat, ok := fieldInt(p, "seat"); ok && seat != m.seat {
			return verdict.Failf("PYYOL-MONO-ACT-PASS", m.seat, seat, "the seat that passed at turn view %d", i)
		}
	case "unmortgage":
		return m.unmortgageCost(i, t, p)
	case "roll_jail":
		return m.jailRollAgrees(i, t, p)
	case "counter_trade", "build", "sell_house":
		return m.offerOrBuildingAgrees(i, t, p)
	case "bid":
		if amt, ok := fieldInt(p, "amount"); ok && amt != 1 {
			return verdict.Failf("PYYOL-MONO-MOVE-AMOUNT", 1, amt, "the raise bid at turn view %d", i)
		}
		high, ok := fieldInt(p, "high_bid")
		if a := t.view.State; ok && a != nil && a.Auction != nil && high != a.Auction.HighBid+1 {
			return verdict.Failf("PYYOL-MONO-ACT-BID", a.Auction.HighBid+1, high, "the high bid after raising by 1 at turn view %d", i)
		}
	case "pay_jail":
		paid := 0
		for _, e := range t.after {
			if s, _ := fieldInt(payload(e), "seat"); e.Type == "cash_changed" && s == m.seat {
				amt, _ := fieldInt(payload(e), "amount")
				paid -= amt
			}
		}
		if paid != 50 {
			return verdict.Failf("PYYOL-MONO-ACT-PAY-JAIL", 50, paid, "the fine paid at turn view %d", i)
		}
	case "propose_trade":
		offered, _ := t.move["trade"].(map[string]any)
		got, _ := p["trade"].(map[string]any)
		for _, k := range []string{"proposer", "target", "give_cash", "want_cash"} {
			want := fmt.Sprint(offered[k])
			if have, ok := fieldInt(got, k); !ok || fmt.Sprint(have) != want {
				return verdict.Failf("PYYOL-MONO-MOVE-TRADE", offered, got, "the trade offered at turn view %d", i)
			}
		}
	}
	return nil
}

// checkAuctions: an auction shown in a view was announced by
// auction_started; every auction closes with auction_won (after at least
// one bid_placed) or auction_unsold before the turn ends
// (PYYOL-MONO-EV-AUCTION-STARTED, PYYOL-MONO-EV-AUCTION-WON,
// PYYOL-MONO-EV-AUCTION-UNSOLD, PYYOL-MONO-EV-BID-PLACED).
func (m *monoRun) checkAuctions() error {
	open, bids := false, 0
	return m.replay(func(e frame) error {
		switch e.Type {
		case "auction_started":
			open, bids = true, 0
		case "bid_placed":
			bids++
		case "auction_won":
			if bids == 0 {
				return verdict.Failf("PYYOL-MONO-EV-BID-PLACED", "bid_placed before auction_won", "no bid", "event %d", e.Seq)
			}
			open = false
		case "auction_unsold":
			open = false
		case "turn_ended", "turn_started", "match_finished":
			if open && bids > 0 {
				return verdict.Failf("PYYOL-MONO-EV-AUCTION-WON", "auction_won closing an auction with bids", "none", "before event %d", e.Seq)
			}
			if open {
				return verdict.Failf("PYYOL-MONO-EV-AUCTION-UNSOLD", "auction_unsold closing an auction nobody bid in", "none", "before event %d", e.Seq)
			}
		}
		return nil
	}, func(i int, t *monoTurn) error {
		if t.view.Phase == "auction" && !open {
			return verdict.Failf("PYYOL-MONO-EV-AUCTION-STARTED", "auction_started before an auction", "none", "turn view %d", i)
		}
		return nil
	})
}

// unmortgageCost: lifting a mortgage costs the cash the mortgage paid plus
// 10% (rounded either way) (PYYOL-MONO-ACT-UNMORTGAGE).
func (m *monoRun) unmortgageCost(i int, t *monoTurn, p map[string]any) error {
	sq, _ := fieldInt(p, "property")
	paid, known := 0, false
	for _, e := range m.events[:min(t.seen, len(m.events))] {
		q := payload(e)
		if s, _ := fieldInt(q, "property"); e.Type == "mortgaged" && s == sq {
			paid, known = fieldInt(q, "amount")
		}
	}
	cost, ok := fieldInt(p, "amount")
	if !known || !ok {
		return nil
	}
	if cost < 0 {
		cost = -cost
	}
	if lo, hi := paid*11/10, (paid*11+9)/10; cost < lo || cost > hi {
		return verdict.Failf("PYYOL-MONO-ACT-UNMORTGAGE", fmt.Sprintf("%d (the mortgage's %d + 10%%)", hi, paid), cost, "lifting the mortgage on square %d at turn view %d", sq, i)
	}
	return nil
}

// checkEndTurns: end_turn ends the turn (turn_ended) unless the seat
// rolled doubles and is not in jail, when it rolls again
// (PYYOL-MONO-ACT-END-TURN).
func (m *monoRun) checkEndTurns() error {
	doubles := false
	for i, t := range m.turns {
		for _, e := range m.events[:min(t.seen, len(m.events))] {
			if e.Type == "turn_started" {
				doubles = false
			}
			if s, _ := fieldInt(payload(e), "seat"); e.Type == "dice_rolled" && s == m.seat {
				d, _ := payload(e)["dice"].([]any)
				doubles = len(d) == 2 && d[0] == d[1]
			}
		}
		if a, _ := t.move["action"].(string); a != "end_turn" || i == len(m.turns)-1 || !slices.Contains(t.view.LegalActions, a) {
			continue
		}
		ended := slices.ContainsFunc(t.after, func(e frame) bool { return e.Type == "turn_ended" })
		jailed := t.view.State != nil && m.seat < len(t.view.State.Players) && t.view.State.Players[m.seat].InJail
		if !ended && !(doubles && !jailed) {
			return verdict.Failf("PYYOL-MONO-ACT-END-TURN", "turn_ended", "none", "end_turn at turn view %d without doubles", i)
		}
	}
	return nil
}

// checkTrades: every trade the kit offered was answered, executed or
// rejected, before its next decision; a missing answer is blamed on
// trade_executed when the kit's cash moved as the trade says, else on
// trade_rejected (PYYOL-MONO-ACT-PROPOSE-TRADE, PYYOL-MONO-EV-TRADE-EXECUTED,
// PYYOL-MONO-EV-TRADE-REJECTED).
func (m *monoRun) checkTrades() error {
	for i, t := range m.turns {
		if a, _ := t.move["action"].(string); a != "propose_trade" || i == len(m.turns)-1 || !slices.Contains(t.view.LegalActions, a) {
			continue
		}
		if slices.ContainsFunc(t.after, func(e frame) bool {
			return e.Type == "trade_executed" || e.Type == "trade_rejected" || e.Type == "bankrupt"
		}) || slices.ContainsFunc(t.after[min(1, len(t.after)):], func(e frame) bool { return e.Type == "trade_proposed" }) {
			continue
		}
		rule := "PYYOL-MONO-EV-TRADE-REJECTED"
		before, after := t.view.State, m.turns[i+1].view.State
		offer, _ := t.move["trade"].(map[string]any)
		give, _ := offer["give_cash"].(int)
		want, _ := offer["want_cash"].(int)
		if before != nil && after != nil && m.seat < len(before.Players) && m.seat < len(after.Players) &&
			before.Players[m.seat].Cash != nil && after.Players[m.seat].Cash != nil &&
			*after.Players[m.seat].Cash == *before.Players[m.seat].Cash-give+want && give != want {
			rule = "PYYOL-MONO-EV-TRADE-EXECUTED"
		}
		return verdict.Failf(rule, "trade_executed or trade_rejected", "no answer", "the trade offered at turn view %d", i)
	}
	return nil
}
