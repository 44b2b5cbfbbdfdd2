package monopoly

import "slices"

// The actions (games.md "Actions"); no action shares a name with a phase
// (PYYOL-MONO-PHASE-NOT-ACTION).
const (
	ActRoll         = "roll"
	ActBuy          = "buy"
	ActDecline      = "decline"
	ActBid          = "bid"
	ActPass         = "pass"
	ActBuild        = "build"
	ActSellHouse    = "sell_house"
	ActMortgage     = "mortgage"
	ActUnmortgage   = "unmortgage"
	ActPayJail      = "pay_jail"
	ActUseJailCard  = "use_jail_card"
	ActRollJail     = "roll_jail"
	ActEndTurn      = "end_turn"
	ActBankrupt     = "bankrupt"
	ActProposeTrade = "propose_trade"
	ActAcceptTrade  = "accept_trade"
	ActRejectTrade  = "reject_trade"
	ActCounterTrade = "counter_trade"
	ActSkipTrade    = "skip_trade"
)

// ManageLimit is how many build, sell, mortgage, unmortgage and trade
// actions a seat may take in one manage phase before only end_turn is
// left (PYYOL-MONO-REF-MANAGE-LIMIT): it bounds every game.
const ManageLimit = 40

// Legal lists the action kinds valid for seat right now: empty unless the
// seat owes the decision (PYYOL-MONO-VIEW-LEGAL). Every listed kind has at
// least one accepted move (PYYOL-MONO-LEGAL-ACCEPTED). Within a phase
// the kinds that need no property, amount or trade come first, so an
// agent answering legal_actions[0] (the docs' example) is never refused.
func (g *Game) Legal(seat int) []string {
	if seat != g.Actor() {
		return []string{}
	}
	var out []string
	add := func(ok bool, a string) {
		if ok {
			out = append(out, a)
		}
	}
	p := g.players[seat]
	switch g.phase {
	case PhaseRoll:
		add(true, ActRoll) // PYYOL-MONO-ACT-ROLL
	case PhaseJail:
		add(p.Cash >= g.jailFine(), ActPayJail)
		add(p.JailCards > 0 || g.defect == JailCardListed, ActUseJailCard)
		add(true, ActRollJail)
	case PhaseAcquire:
		add(p.Cash >= g.board.Squares[p.Position].Price || g.defect == BuyWithoutCash, ActBuy)
		add(true, ActDecline)
	case PhaseAuction:
		add(true, ActPass)
		add(p.Cash > g.auction.HighBid, ActBid)
	case PhaseResolveDebt:
		add(true, ActBankrupt)
		add(g.anySquare(seat, g.sellListed), ActSellHouse)
		add(g.anySquare(seat, g.canMortgage), ActMortgage)
	case PhaseManage:
		budget := g.actions < ManageLimit
		add(budget && (g.anySquare(seat, g.canBuild) || g.defect == BuildWithoutSet && g.anyStreet(seat) || g.buildableWithoutCash(seat)), ActBuild)
		add(budget && g.anySquare(seat, g.sellListed), ActSellHouse)
		add(budget && g.anySquare(seat, g.canMortgage), ActMortgage)
		add(budget && g.anySquare(seat, g.unmortgageListed), ActUnmortgage)
		add(budget && !g.proposed && len(g.tradeOffers(seat)) > 0, ActProposeTrade)
		add(true, g.manageEnd(p)) // PYYOL-MONO-END-TURN-SAFE: end_turn always listed in manage.
	case PhaseTrade:
		add(true, ActSkipTrade)
		add(!g.proposed && len(g.tradeOffers(seat)) > 0, ActProposeTrade)
	case PhaseTradeResponse:
		// PYYOL-MONO-PHASE-TRADE-RESPONSE.
		add(true, ActRejectTrade)
		add(true, ActAcceptTrade)
		add(!g.counter && slices.ContainsFunc(g.tradeOffers(seat), func(t Trade) bool { return t.Target == g.trade.Proposer }), ActCounterTrade)
	}
	return out
}

// anySquare reports whether ok holds for any square.
func (g *Game) anySquare(seat int, ok func(seat, sq int) bool) bool {
	for sq := range 40 {
		if ok(seat, sq) {
			return true
		}
	}
	return false
}

// owns reports whether seat owns an ownable square.
func (g *Game) owns(seat, sq int) bool {
	h, ok := g.holdings[sq]
	return ok && h.Owner == seat
}

// groupHouses returns the fewest and most buildings in sq's group, whether
// one owner holds it all and whether any of it is mortgaged.
func (g *Game) groupHouses(sq int) (lo, hi int, whole, mortgaged bool) {
	owner := g.holdings[sq].Owner
	lo, whole = 5, true
	for _, o := range g.board.Group(sq) {
		h := g.holdings[o]
		lo, hi = min(lo, h.Houses), max(hi, h.Houses)
		whole = whole && h.Owner == owner
		mortgaged = mortgaged || h.Mortgaged
	}
	return lo, hi, whole, mortgaged
}

// canBuild: a street of a whole, unmortgaged group, with fewer buildings
// than none of its group (even build), cash for the house and a house
// (or, for the fifth, a hotel) in the supply (PYYOL-MONO-ACT-BUILD,
// PYYOL-MONO-REF-SUPPLY).
func (g *Game) canBuild(seat, sq int) bool {
	if !g.owns(seat, sq) || g.board.Squares[sq].Kind != KindStreet {
		return false
	}
	h := g.holdings[sq]
	lo, _, whole, mortgaged := g.groupHouses(sq)
	if g.defect == UnevenBuild {
		whole, mortgaged, lo = true, false, h.Houses
	}
	if g.defect == HotelUneven && h.Houses == 4 {
		lo = 4
	}
	if !whole || mortgaged || h.Houses >= 5 || h.Houses != lo {
		return false
	}
	if g.players[seat].Cash < g.board.Squares[sq].HouseCost {
		return false
	}
	if h.Houses == 4 {
		return g.hotels > 0
	}
	return g.houses > 0
}

// canSell: a building on a street with as many as the most of its group
// (even sell); a hotel comes down to four houses, so it needs four houses
// in the supply (PYYOL-MONO-ACT-SELL-HOUSE, PYYOL-MONO-REF-EVEN-SELL).
func (g *Game) canSell(seat, sq int) bool {
	if !g.owns(seat, sq) {
		return false
	}
	h := g.holdings[sq]
	if h.Houses == 0 {
		return false
	}
	if _, hi, _, _ := g.groupHouses(sq); h.Houses != hi {
		return false
	}
	return h.Houses < 5 || g.houses >= 4
}

// canMortgage: an owned, unmortgaged property with no buildings in its
// group (PYYOL-MONO-ACT-MORTGAGE, PYYOL-MONO-REF-MORTGAGE).
func (g *Game) canMortgage(seat, sq int) bool {
	if !g.owns(seat, sq) || g.holdings[sq].Mortgaged {
		return false
	}
	_, hi, _, _ := g.groupHouses(sq)
	return hi == 0 || g.defect == MortgageBuiltGroup && g.holdings[sq].Houses == 0
}

// canUnmortgage: a mortgaged property and cash for the mortgage value plus
// 10% (PYYOL-MONO-ACT-UNMORTGAGE).
func (g *Game) canUnmortgage(seat, sq int) bool {
	return g.owns(seat, sq) && g.holdings[sq].Mortgaged &&
		g.players[seat].Cash >= g.unmortgageCost(sq)
}

// tradable: a property a seat owns with no buildings in its group
// (PYYOL-MONO-REF-TRADE-VALIDATION).
func (g *Game) tradable(seat, sq int) bool {
	if !g.owns(seat, sq) {
		return false
	}
	_, hi, _, _ := g.groupHouses(sq)
	return hi == 0
}

// ValidTrade reports why a trade offered by seat is refused, or "".
// PYYOL-MONO-REF-TRADE-VALIDATION: the proposer is the seat, the target
// another solvent seat, cash within each side's means, each property
// tradable by its side and listed once, and something changes hands.
func (g *Game) ValidTrade(seat int, t *Trade) string {
	switch {
	case t == nil:
		return "missing trade"
	case t.Proposer != seat:
		return "proposer is not the acting seat"
	case t.Target < 0 || t.Target >= len(g.players) || t.Target == seat || g.players[t.Target].Bankrupt:
		return "target is not another solvent seat"
	case t.GiveCash < 0 || t.WantCash < 0:
		return "negative cash"
	case t.GiveCash > g.players[seat].Cash || t.WantCash > g.players[t.Target].Cash:
		return "cash beyond a side's means"
	case len(t.GiveProps)+len(t.WantProps) == 0 && t.GiveCash+t.WantCash == 0:
		return "empty trade"
	}
	seen := map[int]bool{}
	for i, sq := range append(slices.Clone(t.GiveProps), t.WantProps...) {
		owner := seat
		if i >= len(t.GiveProps) {
			owner = t.Target
		}
		if seen[sq] || !g.tradable(owner, sq) {
			return "property not tradable by its side"
		}
		seen[sq] = true
	}
	return ""
}

// tradeOffers lists simple valid trades seat could offer: for each other
// solvent seat, its first tradable property for a little cash, or a
// little cash alone.
func (g *Game) tradeOffers(seat int) []Trade {
	var out []Trade
	cash := min(g.players[seat].Cash, 10)
	for _, t := range g.solvent() {
		if t == seat {
			continue
		}
		offer := Trade{Proposer: seat, Target: t, GiveCash: cash, GiveProps: []int{}, WantProps: []int{}}
		for sq := range 40 {
			if g.tradable(t, sq) {
				offer.WantProps = []int{sq}
				break
			}
		}
		if g.ValidTrade(seat, &offer) == "" {
			out = append(out, offer)
		}
	}
	return out
}
