package monopoly

import (
	"maps"
	"math/rand/v2"
	"slices"
)

// Clone is a deep copy of the game, random source included: the gateway
// and the runner's referee use it to try a move without playing it.
func (g *Game) Clone() *Game {
	c := *g
	pcg := *g.pcg
	c.pcg = &pcg
	c.rng = rand.New(c.pcg)
	c.players = slices.Clone(g.players)
	c.holdings = make(map[int]*Holding, len(g.holdings))
	for sq, h := range g.holdings {
		hh := *h
		c.holdings[sq] = &hh
	}
	if g.auction != nil {
		a := *g.auction
		a.Active = slices.Clone(a.Active)
		c.auction = &a
	}
	if g.trade != nil {
		t := *g.trade
		t.GiveProps, t.WantProps = slices.Clone(t.GiveProps), slices.Clone(t.WantProps)
		c.trade = &t
	}
	c.debts = slices.Clone(g.debts)
	for i := range c.debts {
		c.debts[i].Creditors = slices.Clone(c.debts[i].Creditors)
	}
	c.chance, c.chest = slices.Clone(g.chance), slices.Clone(g.chest)
	c.winners = slices.Clone(g.winners)
	// Events are only ever appended: the clone shares the ones so far, and
	// its capacity ends there, so an event either side appends later lands
	// in its own array. (A copy per clone made legality checks, which clone
	// the game for every listed move, quadratic in the game's length.)
	c.events = g.events[:len(g.events):len(g.events)]
	c.held = maps.Clone(g.held)
	for s, h := range c.held {
		c.held[s] = slices.Clone(h)
	}
	return &c
}
