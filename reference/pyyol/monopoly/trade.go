package monopoly

import "slices"

// propose opens a trade offer (trade_proposed); the target answers in
// trade_response. A counter is a new offer back to the proposer and cannot
// itself be countered (PYYOL-MONO-ACT-PROPOSE-TRADE,
// PYYOL-MONO-ACT-COUNTER-TRADE, PYYOL-MONO-REF-TRADE-FLOOR).
func (g *Game) propose(seat int, counter bool, t Trade) {
	if counter && g.defect == CounterRejects {
		g.rejectTrade()
		return
	}
	if !counter && g.defect == ProposeIgnored {
		g.proposed = true
		if g.phase == PhaseTrade {
			g.phase = g.afterFloor()
		}
		return
	}
	if !counter {
		g.proposed = true
		g.tradeRet = g.phase
		if g.phase == PhaseTrade {
			g.tradeRet = g.afterFloor()
		} else {
			g.actions++
		}
	}
	t.GiveProps, t.WantProps = slices.Clone(t.GiveProps), slices.Clone(t.WantProps)
	g.trade, g.counter = &t, counter
	g.emit(EvTradeProposed, t.payload())
	g.phase = PhaseTradeResponse
}

// acceptTrade executes the offer: properties and cash change hands, no
// money is made or lost (PYYOL-MONO-ACT-ACCEPT-TRADE).
func (g *Game) acceptTrade() {
	t := g.trade
	for _, sq := range t.GiveProps {
		g.holdings[sq].Owner = t.Target
	}
	for _, sq := range t.WantProps {
		if g.wantedMoves() {
			g.holdings[sq].Owner = t.Proposer
		}
	}
	g.players[t.Proposer].Cash += t.WantCash - t.GiveCash
	if g.defect == TradeMintsMoney {
		g.players[t.Proposer].Cash += 100
	}
	g.players[t.Target].Cash += t.GiveCash - t.WantCash
	g.dropTradeCash(t)
	g.emit(EvTradeExecuted, t.payload())
	g.closeTrade()
}

// rejectTrade drops the offer (PYYOL-MONO-ACT-REJECT-TRADE).
func (g *Game) rejectTrade() {
	if g.defect == RejectExecutes {
		g.acceptTrade()
		return
	}
	g.emit(EvTradeRejected, g.trade.payload())
	g.closeTrade()
}

func (g *Game) closeTrade() {
	g.trade, g.counter = nil, false
	g.phase = g.tradeRet
}

// payload is a trade event's payload: the offer's fields flat, as the
// real platform sends them (docs/pyyol-monopoly-layout.md); a counter is
// told by who proposes it.
func (t *Trade) payload() map[string]any {
	return map[string]any{"proposer": t.Proposer, "target": t.Target, "give_props": slices.Clone(t.GiveProps),
		"give_cash": t.GiveCash, "want_props": slices.Clone(t.WantProps), "want_cash": t.WantCash}
}
