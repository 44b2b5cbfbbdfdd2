package monopoly

import "testing"

// TestDealingBotsOfferAndSell: with DealWith, a bot on its trade floor
// offers the agent's seat $1, and accepts an offer that pays twice the
// list price of what it asks but not one that pays less; without it the
// bot does neither (PYYOL-MONO-REF-PRACTICE-DEALS, PYYOL-MONO-REF-BOTS).
func TestDealingBotsOfferAndSell(t *testing.T) {
	t.Parallel()
	g := newGame(t, 2)
	g.current, g.phase = 1, PhaseTrade
	if mv := g.Bot(1); mv.Action != ActSkipTrade {
		t.Fatalf("a plain bot on its floor plays %+v, want skip_trade", mv)
	}
	g.DealWith(0)
	mv := g.Bot(1)
	if mv.Action != ActProposeTrade || mv.Trade.Target != 0 || mv.Trade.GiveCash != 1 {
		t.Fatalf("a dealing bot on its floor plays %+v, want a $1 offer to seat 0", mv)
	}
	own(g, 1, 1, 3)
	price := g.board.Squares[1].Price
	for _, c := range []struct {
		pay  int
		want string
	}{{2 * price, ActAcceptTrade}, {2*price - 1, ActRejectTrade}} {
		g.phase, g.current = PhaseTradeResponse, 0
		g.trade = &Trade{Proposer: 0, Target: 1, GiveCash: c.pay, GiveProps: []int{}, WantProps: []int{1}}
		if mv := g.Bot(1); mv.Action != c.want {
			t.Errorf("offered $%d for square 1 (list $%d): the bot plays %s, want %s", c.pay, price, mv.Action, c.want)
		}
	}
}
