package monopoly

import (
	"fmt"
)

// ledger replays the money of the events: each seat's cash, the pool and
// the net flow from the bank (PYYOL-MONO-REF-LEDGER).
type ledger struct {
	cash []int
	pool int
	bank int
}

func newLedger(r Rules) *ledger {
	l := &ledger{cash: make([]int, r.Players)}
	for i := range l.cash {
		l.cash[i] = r.StartingCash
	}
	return l
}

func num(v any) int {
	switch x := v.(type) {
	case int:
		return x
	case float64:
		return int(x)
	}
	panic(fmt.Sprintf("not a number: %T", v))
}

// apply books one event, read in the payload layout the engine sends
// (the real platform's, docs/pyyol-monopoly-layout.md): money between a
// seat and the bank moves in cash_changed, a purchase and an auction won;
// a bankrupt seat is left with nothing, its cash to the bank unless a
// cash_changed hands it to its creditor.
func (l *ledger) apply(e Event) {
	p := e.Payload
	switch e.Type {
	case EvCashChanged, EvPropertyPurchased, EvAuctionWon:
		amt := bankDelta(e)
		l.cash[num(p["seat"])] += amt
		if _, pool := p["pool"]; pool {
			l.pool -= amt
		} else {
			l.bank += amt
		}
	case EvRentPaid:
		amt := num(p["amount"])
		l.cash[num(p["from"])] -= amt
		l.cash[num(p["to"])] += amt
	case EvTradeExecuted:
		l.cash[num(p["proposer"])] += num(p["want_cash"]) - num(p["give_cash"])
		l.cash[num(p["target"])] += num(p["give_cash"]) - num(p["want_cash"])
	case EvBankrupt:
		seat := num(p["seat"])
		l.bank -= l.cash[seat]
		l.cash[seat] = 0
	}
}

// bankDelta is the signed cash a seat received from the bank (or pool)
// by one event: cash_changed's delta, a purchase's price, an auction's
// amount paid.
func bankDelta(e Event) int {
	p := e.Payload
	switch e.Type {
	case EvCashChanged:
		return num(p["delta"])
	case EvPropertyPurchased:
		return -num(p["price"])
	}
	return -num(p["amount"])
}

// check compares the books with the game.
func (l *ledger) check(g *Game) error {
	total := g.Pool()
	for s := range l.cash {
		if got := g.Player(s).Cash; got != l.cash[s] {
			return fmt.Errorf("seat %d has %d, the events say %d", s, got, l.cash[s])
		}
		total += l.cash[s]
	}
	if g.Pool() != l.pool {
		return fmt.Errorf("pool %d, the events say %d", g.Pool(), l.pool)
	}
	if want := g.rules.StartingCash*g.rules.Players + l.bank; total != want {
		return fmt.Errorf("money %d, want %d from the start and bank flows", total, want)
	}
	return nil
}

// supplyError checks the buildings: never negative, 32 houses and 12
// hotels between the bank and the board (PYYOL-MONO-REF-SUPPLY).
func supplyError(g *Game) error {
	houses, hotels := g.Supply()
	if houses < 0 || hotels < 0 {
		return fmt.Errorf("supply went negative: %d houses, %d hotels", houses, hotels)
	}
	for _, h := range g.holdings {
		if h.Houses == 5 {
			hotels++
		} else {
			houses += h.Houses
		}
	}
	if houses != g.board.Houses || hotels != g.board.Hotels {
		return fmt.Errorf("%d houses and %d hotels in the game, want %d and %d", houses, hotels, g.board.Houses, g.board.Hotels)
	}
	return nil
}

// evenError checks that no colour group differs by more than one building
// (PYYOL-MONO-ACT-BUILD, PYYOL-MONO-REF-EVEN-SELL).
func evenError(g *Game) error {
	for sq, h := range g.holdings {
		if h.Owner < 0 {
			continue
		}
		if lo, hi, _, _ := g.groupHouses(sq); hi-lo > 1 {
			return fmt.Errorf("group of square %d has %d..%d buildings", sq, lo, hi)
		}
		if h.Houses > 0 && h.Mortgaged {
			return fmt.Errorf("square %d is built and mortgaged", sq)
		}
	}
	return nil
}
