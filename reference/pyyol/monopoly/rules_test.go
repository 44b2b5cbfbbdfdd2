package monopoly

import (
	"errors"
	"testing"
)

func newGame(t *testing.T, players int) *Game {
	t.Helper()
	r := DefaultRules()
	r.Players = players
	g, err := New(r, 42)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func own(g *Game, seat int, squares ...int) {
	for _, sq := range squares {
		g.holdings[sq].Owner = seat
	}
}

func TestRulesNormalize(t *testing.T) {
	t.Parallel()
	r, err := Rules{}.Normalize()
	if err != nil || r.Players != 4 || r.StartingCash != 1500 || r.GoSalary != 200 || r.TurnCap != DefaultTurnCap {
		t.Fatalf("defaults: %+v %v", r, err)
	}
	for _, n := range []int{1, 9, -1} {
		if _, err := (Rules{Players: n}).Normalize(); !errors.Is(err, ErrRules) {
			t.Errorf("players %d accepted", n)
		}
	}
}

func TestRent(t *testing.T) {
	t.Parallel()
	g := newGame(t, 2)
	g.dice = [2]int{3, 4}
	own(g, 1, 1)
	if got := g.rent(1, rentNormal); got != 2 {
		t.Errorf("Mediterranean alone: %d", got)
	}
	own(g, 1, 3)
	if got := g.rent(1, rentNormal); got != 4 {
		t.Errorf("Mediterranean with the group doubles: %d", got)
	}
	g.holdings[1].Houses = 5
	if got := g.rent(1, rentNormal); got != 250 {
		t.Errorf("hotel: %d", got)
	}
	own(g, 1, 5, 15, 25)
	if got := g.rent(5, rentNormal); got != 100 {
		t.Errorf("three railroads: %d", got)
	}
	if got := g.rent(5, rentDoubleRailroad); got != 200 {
		t.Errorf("card railroad: %d", got)
	}
	own(g, 1, 12)
	if got := g.rent(12, rentNormal); got != 28 {
		t.Errorf("one utility, dice 7: %d", got)
	}
	own(g, 1, 28)
	if got := g.rent(12, rentNormal); got != 70 {
		t.Errorf("two utilities, dice 7: %d", got)
	}
}

func TestMortgagedPropertyCollectsNoRent(t *testing.T) {
	t.Parallel()
	g := newGame(t, 2)
	own(g, 1, 39)
	g.holdings[39].Mortgaged = true
	before := g.players[0].Cash
	g.land(0, 39, rentNormal)
	if g.players[0].Cash != before || len(g.debts) != 0 {
		t.Fatal("rent charged on a mortgaged property")
	}
}

func TestUnmortgageCostsTenPercent(t *testing.T) {
	t.Parallel()
	b, _ := StandardBoard()
	if b.MortgageValue(39) != 200 || b.UnmortgageCost(39) != 220 || b.UnmortgageCost(1) != 33 {
		t.Fatalf("mortgage %d, unmortgage %d / %d", b.MortgageValue(39), b.UnmortgageCost(39), b.UnmortgageCost(1))
	}
}

func TestEvenBuildAndHotelSupply(t *testing.T) {
	t.Parallel()
	g := newGame(t, 2)
	own(g, 0, 37, 39)
	g.phase = PhaseManage
	if err := g.Apply(0, Move{Action: ActBuild, Property: intp(39)}); err != nil {
		t.Fatal(err)
	}
	if err := g.Apply(0, Move{Action: ActBuild, Property: intp(39)}); !errors.Is(err, ErrIllegal) {
		t.Fatal("uneven build accepted")
	}
	g.holdings[37].Houses, g.holdings[39].Houses = 4, 4
	g.houses = 32 - 8
	g.hotels = 0
	if g.canBuild(0, 39) {
		t.Fatal("hotel built with no hotel in the supply")
	}
}

func TestJailThirdFailurePaysAndMoves(t *testing.T) {
	t.Parallel()
	g := newGame(t, 2)
	g.players[0].InJail, g.players[0].JailTurns, g.players[0].Position = true, 2, JailSquare
	g.phase = PhaseJail
	for g.phase == PhaseJail {
		c := g.Clone()
		if err := c.Apply(0, Move{Action: ActRollJail}); err != nil {
			t.Fatal(err)
		}
		if c.dice[0] != c.dice[1] {
			g = c
			break
		}
		g.pcg.Uint64() // try another roll
	}
	p := g.players[0]
	if p.InJail || p.Position == JailSquare {
		t.Fatalf("still in jail after the third failure: %+v", p)
	}
}

func TestBankruptcyToCreditor(t *testing.T) {
	t.Parallel()
	g := newGame(t, 3)
	own(g, 1, 39)
	own(g, 0, 1, 3)
	g.holdings[1].Houses = 1
	g.houses--
	g.players[0].Cash = 10
	g.land(0, 39, rentNormal)
	g.settle()
	if g.phase != PhaseResolveDebt || g.Actor() != 0 {
		t.Fatalf("phase %s actor %d", g.phase, g.Actor())
	}
	if err := g.Apply(0, Move{Action: ActBankrupt}); err != nil {
		t.Fatal(err)
	}
	if g.holdings[1].Owner != 1 || g.holdings[1].Houses != 0 || g.players[1].Cash != 1500+10+25 {
		t.Fatalf("estate: owner %d houses %d creditor cash %d", g.holdings[1].Owner, g.holdings[1].Houses, g.players[1].Cash)
	}
	if err := supplyError(g); err != nil {
		t.Fatal(err)
	}
}
