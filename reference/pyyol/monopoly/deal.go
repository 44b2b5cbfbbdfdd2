package monopoly

// DealWith makes the engine bots deal with seat, the agent's seat on a
// practice table that asked for dealing bots
// (PYYOL-MONO-REF-PRACTICE-DEALS): at the top of each of its turns a bot
// offers that seat a dollar, so the seat answers trades in
// trade_response, and a bot accepts the seat's offers that pay at least
// twice the list price of what they ask, so the seat can complete a
// colour group and build.
func (g *Game) DealWith(seat int) {
	if seat >= 0 && seat < len(g.players) {
		g.partner = seat
	}
}

// deal is the dealing bot's move, when it has one.
func (g *Game) deal(seat int) (Move, bool) {
	if g.partner < 0 || seat == g.partner || g.players[g.partner].Bankrupt {
		return Move{}, false
	}
	switch g.phase {
	case PhaseTrade:
		offer := Trade{Proposer: seat, Target: g.partner, GiveCash: 1, GiveProps: []int{}, WantProps: []int{}}
		if !g.proposed && g.ValidTrade(seat, &offer) == "" {
			return Move{Action: ActProposeTrade, Trade: &offer}, true
		}
	case PhaseTradeResponse:
		if t := g.trade; t.Proposer == g.partner && g.generous(t) {
			return Move{Action: ActAcceptTrade}, true
		}
	}
	return Move{}, false
}

// generous reports whether a trade pays the bot at least twice the list
// price of the properties it asks for.
func (g *Game) generous(t *Trade) bool {
	asked, paid := 0, t.GiveCash-t.WantCash
	for _, sq := range t.WantProps {
		asked += g.board.Squares[sq].Price
	}
	for _, sq := range t.GiveProps {
		paid += g.board.Squares[sq].Price
	}
	return len(t.WantProps) > 0 && paid >= 2*asked
}
