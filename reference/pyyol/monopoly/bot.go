package monopoly

func intp(v int) *int { return &v }

// Moves lists concrete moves seat may play now, at least one for every
// kind in Legal (PYYOL-MONO-LEGAL-ACCEPTED): one per square for the
// property actions, a raise of 1 and of 10 for bids, the simple offers of
// tradeOffers for trades.
func (g *Game) Moves(seat int) []Move {
	var out []Move
	for _, a := range g.Legal(seat) {
		switch a {
		case ActBuild, ActSellHouse, ActMortgage, ActUnmortgage:
			ok := map[string]func(int, int) bool{ActBuild: g.canBuild, ActSellHouse: g.canSell,
				ActMortgage: g.canMortgage, ActUnmortgage: g.canUnmortgage}[a]
			for sq := range 40 {
				if ok(seat, sq) {
					out = append(out, Move{Action: a, Property: intp(sq)})
				}
			}
		case ActBid:
			out = append(out, Move{Action: a, Amount: intp(1)})
			if g.auction.HighBid+10 <= g.players[seat].Cash {
				out = append(out, Move{Action: a, Amount: intp(10)})
			}
		case ActProposeTrade, ActCounterTrade:
			for _, t := range g.tradeOffers(seat) {
				if a == ActCounterTrade && t.Target != g.trade.Proposer {
					continue
				}
				out = append(out, Move{Action: a, Trade: &t})
			}
		default:
			out = append(out, Move{Action: a})
		}
	}
	return out
}

// Fallback is the safe legal action the engine plays for a seat that
// misses its turn (PYYOL-MONO-FALLBACK, PYYOL-MONO-REF-FALLBACK): end_turn,
// roll, roll_jail, decline, pass, skip_trade, reject_trade, and in
// resolve_debt the first sale or mortgage before bankrupt.
func (g *Game) Fallback(seat int) Move {
	legal := g.Legal(seat)
	for _, a := range []string{ActEndTurn, ActRoll, ActRollJail, ActDecline, ActPass, ActSkipTrade, ActRejectTrade} {
		for _, l := range legal {
			if l == a {
				return Move{Action: a}
			}
		}
	}
	for _, m := range g.Moves(seat) {
		if m.Action == ActSellHouse || m.Action == ActMortgage {
			return m
		}
	}
	return Move{Action: ActBankrupt}
}

// Bot is the engine bot that fills empty seats (PYYOL-MONO-REF-BOTS): it
// buys what leaves it $100, bids up to the list price while it keeps $100,
// builds while it keeps $300, pays its way out of jail when rich, and
// otherwise plays the fallback.
func (g *Game) Bot(seat int) Move {
	if m, ok := g.deal(seat); ok {
		return m
	}
	p := g.players[seat]
	for _, m := range g.Moves(seat) {
		switch m.Action {
		case ActBuy:
			if p.Cash-g.board.Squares[p.Position].Price >= 100 {
				return m
			}
		case ActBid:
			a := g.auction
			if *m.Amount == 10 && a.HighBid+10 <= g.board.Squares[a.Property].Price && p.Cash-a.HighBid-10 >= 100 {
				return m
			}
		case ActBuild:
			if p.Cash-g.board.Squares[*m.Property].HouseCost >= 300 {
				return m
			}
		case ActUnmortgage:
			if p.Cash-g.board.UnmortgageCost(*m.Property) >= 500 {
				return m
			}
		case ActPayJail, ActUseJailCard:
			if p.Cash >= 500 || m.Action == ActUseJailCard {
				return m
			}
		case ActAcceptTrade:
			if t := g.trade; t != nil && t.GiveCash-t.WantCash > 0 && len(t.WantProps) == 0 {
				return m
			}
		}
	}
	return g.Fallback(seat)
}
