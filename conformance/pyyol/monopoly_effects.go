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
		return m.mortgageCashAgrees(i, t, p)
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
		if paid := m.paidBeforeRoll(t); paid != 50 {
			return verdict.Failf("PYYOL-MONO-ACT-PAY-JAIL", 50, paid, "the fine paid at turn view %d", i)
		}
	case "use_jail_card":
		// The card is the way out in place of the fine ("Spend a
		// get-out-of-jail-free card, then roll"): nothing is paid.
		if paid := m.paidBeforeRoll(t); paid > 0 {
			return verdict.Failf("PYYOL-MONO-ACT-USE-JAIL-CARD", "no payment, the card spent instead", fmt.Sprintf("$%d paid", paid), "the jail card spent at turn view %d", i)
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

// paidBeforeRoll is what the agent's cash_changed events after a turn's
// move, up to the roll that follows it, took from the agent: a jail
// fine paid, or one a card should have spared.
func (m *monoRun) paidBeforeRoll(t *monoTurn) int {
	paid := 0
	for _, e := range t.after {
		if e.Type == "dice_rolled" {
			break
		}
		if s, _ := fieldInt(payload(e), "seat"); e.Type == "cash_changed" && s == m.seat {
			amt, _ := fieldInt(payload(e), "amount")
			paid -= amt
		}
	}
	return paid
}
