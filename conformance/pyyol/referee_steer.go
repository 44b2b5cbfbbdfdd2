package pyyol

import (
	"slices"

	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// styleCollector steers a dealing table to the rents a short match never
// shows (issue 25, class 4): it buys every property it lands on, buys the
// rest of a group (a colour set, the railroads, the utilities) from the
// bot holding it at the dealing bots' price, never builds nor mortgages
// (so whole unimproved sets, several railroads and both utilities stand
// to be landed on), passes auctions, rejects offers and pays its way out
// of jail (the fine, PYYOL-MONO-ACT-PAY-JAIL).
const styleCollector = "collector"

// collectorPolicy: see styleCollector.
func (m *monoRun) collectorPolicy(v monoView) map[string]any {
	has := func(a string) bool { return slices.Contains(v.LegalActions, a) }
	me := m.mine(v)
	switch {
	case v.Phase == "resolve_debt":
		if sq := m.mortgageable(me); has("mortgage") && sq >= 0 {
			return onSquare("mortgage", sq)
		}
		return act("bankrupt")
	case has("buy"):
		return act("buy")
	case has("propose_trade"):
		if offer := m.collectOffer(standardBoard(), v, me); offer != nil {
			return map[string]any{"action": "propose_trade", "trade": offer}
		}
	}
	for _, a := range []string{"pay_jail", "use_jail_card", "roll_jail", "reject_trade", "end_turn", "roll", "pass", "skip_trade", "decline"} {
		if has(a) {
			return act(a)
		}
	}
	return m.safe(v)
}

// collectOffer offers one bot twice the list price of its part of a group
// (streets, railroads or utilities) the agent already has a member of,
// when every member is owned, the bot's part unbuilt and unmortgaged, and
// the agent keeps $100; nil when no group qualifies.
func (m *monoRun) collectOffer(b *monopoly.Board, v monoView, me seatView) map[string]any {
	if b == nil || v.State == nil {
		return nil
	}
	for sq := range b.Squares {
		if !b.Ownable(sq) || b.Group(sq)[0] != sq {
			continue
		}
		owner, want, cost, mine := -1, []int{}, 0, false
		ok := true
		for _, o := range b.Group(sq) {
			h, known := me.holdings[o]
			ok = ok && known && h.Owner >= 0 && h.Houses == 0 && !h.Mortgaged
			mine = mine || known && h.Owner == m.seat
			if known && h.Owner != m.seat && h.Owner >= 0 {
				ok = ok && (owner < 0 || owner == h.Owner)
				owner = h.Owner
				want = append(want, o)
				cost += 2 * b.Squares[o].Price
			}
		}
		if ok && mine && owner >= 0 && owner < len(v.State.Players) && !v.State.Players[owner].Bankrupt && me.cash >= cost+100 {
			return map[string]any{"proposer": m.seat, "target": owner, "give_props": []int{}, "give_cash": cost,
				"want_props": want, "want_cash": 0}
		}
	}
	return nil
}
