package monopoly

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// maxDecisions bounds a game: the turn cap times a generous per-turn budget.
const maxDecisions = DefaultTurnCap * 200

// randomMove picks one of the listed moves.
func randomMove(g *Game, seat int, rng *rand.Rand) Move {
	ms := g.Moves(seat)
	return ms[rng.IntN(len(ms))]
}

func rulesGen(t *rapid.T) Rules {
	r := DefaultRules()
	r.Players = rapid.IntRange(2, 8).Draw(t, "players")
	r.Auctions = rapid.Bool().Draw(t, "auctions")
	r.FreeParkingPool = rapid.Bool().Draw(t, "pool")
	r.TurnCap = rapid.IntRange(20, DefaultTurnCap).Draw(t, "cap")
	return r
}

// TestPropertiesOfSeededGames plays seeded games with bots and random
// legal moves and checks after every move: money conserved but for bank
// flows, supply, even building, every listed kind backed by an accepted
// move, and termination.
func TestPropertiesOfSeededGames(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		rules := rulesGen(t)
		seed := rapid.Uint64().Draw(t, "seed")
		botShare := rapid.IntRange(0, 10).Draw(t, "bots")
		g, err := New(rules, seed)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 7))
		l := newLedger(g.rules)
		seen := 0
		for n := 0; !g.Over(); n++ {
			if n > maxDecisions {
				t.Fatalf("no game_over after %d decisions", n)
			}
			seat := g.Actor()
			checkLegalBacked(t, g, seat)
			mv := randomMove(g, seat, rng)
			if rng.IntN(10) < botShare {
				mv = g.Bot(seat)
			}
			if err := g.Apply(seat, mv); err != nil {
				t.Fatalf("listed move %+v refused in %s: %v", mv, g.phase, err)
			}
			for _, e := range g.EventsAfter(seen) {
				l.apply(e)
			}
			seen = g.LastSeq()
			for _, check := range []func() error{func() error { return l.check(g) },
				func() error { return supplyError(g) }, func() error { return evenError(g) }} {
				if err := check(); err != nil {
					t.Fatalf("after %+v: %v", mv, err)
				}
			}
		}
		if len(g.Winners()) == 0 {
			t.Fatal("game over without a winner")
		}
	})
}

// checkLegalBacked: each listed kind has a concrete move, and that move
// is accepted (tried on a clone).
func checkLegalBacked(t *rapid.T, g *Game, seat int) {
	legal := g.Legal(seat)
	if len(legal) == 0 {
		t.Fatalf("actor %d has no legal action in %s", seat, g.phase)
	}
	moves := g.Moves(seat)
	for _, a := range legal {
		i := slices.IndexFunc(moves, func(m Move) bool { return m.Action == a })
		if i < 0 {
			t.Fatalf("%s listed with no concrete move", a)
		}
		if err := g.Clone().Apply(seat, moves[i]); err != nil {
			t.Fatalf("listed %s refused: %v", a, err)
		}
	}
}

// bogusMove draws a move that may or may not be legal.
func bogusMove(t *rapid.T, g *Game) Move {
	all := []string{ActRoll, ActBuy, ActDecline, ActBid, ActPass, ActBuild, ActSellHouse, ActMortgage,
		ActUnmortgage, ActPayJail, ActUseJailCard, ActRollJail, ActEndTurn, ActBankrupt, ActProposeTrade,
		ActAcceptTrade, ActRejectTrade, ActCounterTrade, ActSkipTrade, "fly", ""}
	mv := Move{Action: rapid.SampledFrom(all).Draw(t, "action")}
	if rapid.Bool().Draw(t, "has property") {
		mv.Property = intp(rapid.IntRange(-2, 41).Draw(t, "property"))
	}
	if rapid.Bool().Draw(t, "has amount") {
		mv.Amount = intp(rapid.IntRange(-5, 3000).Draw(t, "amount"))
	}
	if rapid.Bool().Draw(t, "has trade") {
		mv.Trade = &Trade{Proposer: rapid.IntRange(-1, 8).Draw(t, "proposer"), Target: rapid.IntRange(-1, 8).Draw(t, "target"),
			GiveCash: rapid.IntRange(-10, 3000).Draw(t, "give"), WantCash: rapid.IntRange(-10, 3000).Draw(t, "want"),
			GiveProps: []int{rapid.IntRange(0, 39).Draw(t, "gp")}, WantProps: []int{}}
	}
	return mv
}

// TestIllegalMovesChangeNothing: a refused move, from any seat, leaves
// the game exactly as it was (PYYOL-MONO-MOVE-ACTION).
func TestIllegalMovesChangeNothing(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		g, _ := New(rulesGen(t), rapid.Uint64().Draw(t, "seed"))
		steps := rapid.IntRange(0, 400).Draw(t, "steps")
		for i := 0; i < steps && !g.Over(); i++ {
			_ = g.Apply(g.Actor(), g.Bot(g.Actor()))
		}
		for range 20 {
			seat := rapid.IntRange(-1, g.rules.Players).Draw(t, "seat")
			before := g.Clone()
			err := g.Apply(seat, bogusMove(t, g))
			if err != nil {
				if !errors.Is(err, ErrIllegal) {
					t.Fatalf("refusal without ErrIllegal: %v", err)
				}
				if !reflect.DeepEqual(before, g) {
					t.Fatalf("refused move changed the game: %v", err)
				}
			}
		}
	})
}

// TestViewsHideOnlyTheDecks: a view is the same whatever the order of the
// unshuffled decks, and it is the same board for every seat
// (PYYOL-MONO-PERFECT-INFO).
func TestViewsHideOnlyTheDecks(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		g, _ := New(rulesGen(t), rapid.Uint64().Draw(t, "seed"))
		for i := rapid.IntRange(0, 300).Draw(t, "steps"); i > 0 && !g.Over(); i-- {
			_ = g.Apply(g.Actor(), g.Bot(g.Actor()))
		}
		other := g.Clone()
		rand.New(rand.NewPCG(1, 2)).Shuffle(len(other.chance), func(i, j int) {
			other.chance[i], other.chance[j] = other.chance[j], other.chance[i]
		})
		for seat := range g.rules.Players {
			if !reflect.DeepEqual(g.View(seat), other.View(seat)) {
				t.Fatal("a view depends on the deck order")
			}
			if !reflect.DeepEqual(g.View(seat).State, g.View(0).State) {
				t.Fatal("seats see different boards")
			}
		}
	})
}

// BenchmarkFullGames plays whole default games with bots in every seat
// and reports games per second. Check it with -benchtime=10x.
func BenchmarkFullGames(b *testing.B) {
	start := time.Now()
	for i := 0; i < b.N; i++ {
		g, _ := New(DefaultRules(), uint64(i))
		for !g.Over() {
			g.Apply(g.Actor(), g.Bot(g.Actor()))
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "games/s")
}
