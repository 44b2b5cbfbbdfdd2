package monopoly

import (
	"errors"
	"fmt"
	"slices"
)

// ErrIllegal wraps every refused move; a refused move changes nothing
// (PYYOL-MONO-MOVE-ACTION).
var ErrIllegal = errors.New("illegal move")

func illegal(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrIllegal}, args...)...)
}

// Apply plays seat's move. It checks everything first, so a refused move
// leaves the game untouched.
func (g *Game) Apply(seat int, mv Move) error {
	if err := g.check(seat, mv); err != nil {
		if g.defect == RefusedCostsCash && seat >= 0 && seat < len(g.players) {
			g.players[seat].Cash--
		}
		return err
	}
	g.do(seat, mv)
	g.settle()
	return nil
}

// check refuses a move that is not legal for seat right now.
func (g *Game) check(seat int, mv Move) error {
	if g.phase == PhaseGameOver {
		return illegal("the game is over")
	}
	if seat != g.Actor() {
		return illegal("seat %d does not owe the decision", seat)
	}
	if !slices.Contains(g.Legal(seat), mv.Action) {
		return illegal("%q is not legal in phase %s", mv.Action, g.phase)
	}
	switch mv.Action {
	case ActBuild, ActSellHouse, ActMortgage, ActUnmortgage:
		// PYYOL-MONO-MOVE-PROPERTY: these need a board-square index.
		if mv.Property == nil {
			return illegal("%s needs property", mv.Action)
		}
		ok := map[string]func(int, int) bool{ActBuild: g.canBuild, ActSellHouse: g.canSell,
			ActMortgage: g.canMortgage, ActUnmortgage: g.canUnmortgage}[mv.Action]
		if !ok(seat, *mv.Property) {
			return illegal("%s is not allowed on square %d", mv.Action, *mv.Property)
		}
	case ActBid:
		// PYYOL-MONO-MOVE-AMOUNT, PYYOL-MONO-ACT-BID: a raise of at least 1
		// the bidder can pay.
		if mv.Amount == nil || *mv.Amount < 1 {
			return illegal("bid needs a positive amount")
		}
		if g.auction.HighBid+*mv.Amount > g.players[seat].Cash {
			return illegal("bid beyond the bidder's cash")
		}
	case ActProposeTrade, ActCounterTrade:
		// PYYOL-MONO-MOVE-TRADE.
		if why := g.ValidTrade(seat, mv.Trade); why != "" {
			return illegal("trade refused: %s", why)
		}
		if mv.Action == ActCounterTrade && mv.Trade.Target != g.trade.Proposer {
			return illegal("a counter goes back to the proposer")
		}
	}
	return nil
}

// do carries out a checked move.
func (g *Game) do(seat int, mv Move) {
	switch mv.Action {
	case ActRoll:
		g.roll(seat)
	case ActBuy:
		g.buy(seat)
	case ActDecline:
		if g.defect == DeclineBuys {
			g.buy(seat)
			return
		}
		g.decline(seat)
	case ActBid:
		g.bid(seat, *mv.Amount)
	case ActPass:
		g.passAuction(seat)
	case ActBuild, ActSellHouse, ActMortgage, ActUnmortgage:
		g.manageProperty(seat, mv.Action, *mv.Property)
	case ActPayJail:
		// PYYOL-MONO-ACT-PAY-JAIL: pay the $50 fine, then roll.
		g.toBank(seat, g.jailFine(), "jail_fine")
		g.leaveJail(seat, "paid")
		g.phase = PhaseRoll
		if g.defect == PayJailEndsRoll {
			g.phase = PhaseManage
		}
	case ActUseJailCard:
		// PYYOL-MONO-ACT-USE-JAIL-CARD: spend a card, then roll.
		g.useJailCard(seat)
		if g.jailCardFined() {
			g.toBank(seat, g.jailFine(), "jail_fine")
		}
		g.leaveJail(seat, "card")
		g.phase = PhaseRoll
	case ActRollJail:
		g.rollJail(seat)
	case ActEndTurn:
		g.endTurn(seat)
	case ActBankrupt:
		g.goBankrupt(seat)
	case ActProposeTrade, ActCounterTrade:
		g.propose(seat, mv.Action == ActCounterTrade, *mv.Trade)
	case ActAcceptTrade:
		g.acceptTrade()
	case ActRejectTrade:
		g.rejectTrade()
	case ActSkipTrade:
		// PYYOL-MONO-ACT-SKIP-TRADE.
		if g.defect == SkipKeepsFloor && g.actions == 0 {
			g.actions++
			return
		}
		g.phase = g.afterFloor()
	}
}

// buy is buy: the property at list price (PYYOL-MONO-ACT-BUY).
func (g *Game) buy(seat int) {
	sq := g.players[seat].Position
	price := g.listPrice(sq)
	g.players[seat].Cash -= price
	g.holdings[sq].Owner = seat
	g.emit(EvPropertyPurchased, map[string]any{"seat": seat, "property": sq, "price": price})
	g.phase = PhaseManage
}

// decline opens an auction among the solvent seats, from the decliner on,
// unless auctions are off (PYYOL-MONO-ACT-DECLINE, PYYOL-MONO-CFG-AUCTIONS,
// PYYOL-MONO-REF-AUCTION).
func (g *Game) decline(seat int) {
	g.phase = PhaseManage
	if !g.rules.Auctions || g.defect == NoAuctions {
		return
	}
	a := &Auction{Property: g.players[seat].Position, HighBidder: -1}
	for i := range len(g.players) {
		if s := (seat + i) % len(g.players); !g.players[s].Bankrupt {
			a.Active = append(a.Active, s)
		}
	}
	g.auction = a
	g.phase = PhaseAuction
	g.emit(EvAuctionStarted, map[string]any{"property": a.Property})
}

// bid raises the high bid by amount; the bidder goes to the back of the
// order (PYYOL-MONO-ACT-BID).
func (g *Game) bid(seat, amount int) {
	a := g.auction
	a.HighBid = g.raiseTo(a.HighBid, amount)
	a.HighBidder = seat
	a.Active = append(a.Active[1:], seat)
	g.emit(EvBidPlaced, map[string]any{"seat": seat, "property": a.Property, "amount": amount, "high_bid": a.HighBid})
	g.closeAuctionIfDone()
}

// passAuction drops the seat out (PYYOL-MONO-ACT-PASS).
func (g *Game) passAuction(seat int) {
	a := g.auction
	a.Active = a.Active[1:]
	g.emit(EvAuctionPassed, map[string]any{"seat": seat, "property": a.Property})
	g.closeAuctionIfDone()
}

// closeAuctionIfDone ends the auction once only the high bidder is left
// (auction_won) or nobody bid (auction_unsold).
func (g *Game) closeAuctionIfDone() {
	a := g.auction
	switch {
	case len(a.Active) == 1 && a.Active[0] == a.HighBidder, len(a.Active) == 0 && a.HighBidder >= 0:
		w := a.HighBidder
		if g.defect != AuctionFree {
			g.players[w].Cash -= a.HighBid
		}
		g.holdings[a.Property].Owner = w
		// amount is the price paid, as on the real platform.
		g.emit(EvAuctionWon, map[string]any{"seat": w, "property": a.Property, "amount": a.HighBid})
	case len(a.Active) == 0:
		g.emit(EvAuctionUnsold, map[string]any{"seat": -1, "property": a.Property, "amount": 0})
	default:
		return
	}
	g.auction = nil
	g.phase = PhaseManage
}

// manageProperty is build, sell_house, mortgage or unmortgage.
func (g *Game) manageProperty(seat int, action string, sq int) {
	if g.phase == PhaseManage {
		g.actions++
	}
	h := g.holdings[sq]
	switch action {
	case ActBuild:
		// PYYOL-MONO-ACT-BUILD: a hotel returns four houses to the supply.
		if h.Houses == 4 {
			g.hotels--
			g.houses += 4
		} else {
			g.houses--
		}
		h.Houses++
		// As on the real platform, the money moves in a cash_changed of
		// its own, before the event (docs/pyyol-monopoly-layout.md).
		g.bankCash(seat, -g.buildCost(sq), "build")
		g.emit(EvHouseBuilt, map[string]any{"seat": seat, "property": sq, "houses": h.Houses})
	case ActSellHouse:
		// PYYOL-MONO-ACT-SELL-HOUSE: back to the bank at half the build cost.
		if g.defect != SellKeepsHouse {
			g.returnOne(h)
		}
		g.bankCash(seat, g.saleValue(sq), "sell_house")
		g.emit(EvHouseSold, map[string]any{"seat": seat, "property": sq, "houses": h.Houses})
	case ActMortgage:
		v := g.mortgageValue(sq)
		h.Mortgaged = true
		g.bankCash(seat, v, "mortgage")
		g.emit(EvMortgaged, map[string]any{"seat": seat, "property": sq, "amount": v})
	case ActUnmortgage:
		// amount is the cost paid, as on the real platform.
		v := g.unmortgageCost(sq)
		h.Mortgaged = false
		g.bankCash(seat, -v, "unmortgage")
		g.emit(EvUnmortgaged, map[string]any{"seat": seat, "property": sq, "amount": v})
	}
	if g.phase == PhaseResolveDebt {
		g.payDebtIfCovered()
	}
}

// returnOne takes one building off a street back to the supply: a hotel
// comes down to four houses (PYYOL-MONO-ACT-SELL-HOUSE).
func (g *Game) returnOne(h *Holding) {
	if h.Houses == 5 {
		g.hotels++
		g.houses -= 4
	} else {
		g.houses++
	}
	h.Houses--
}
