package goofspiel_test

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// playRandom plays a match to the end with random legal, illegal and
// missing bids, checking the invariants after every step.
func playRandom(t *rapid.T, m *goofspiel.Match) {
	total := 0
	for c := 1; c <= m.Rules().Cards; c++ {
		total += c
	}
	for !m.Done() {
		for seat := 0; seat < 2; seat++ {
			v := m.View(seat)
			require.Equal(t, v.YourHand, v.LegalActions, "legal_actions equals your_hand")
			require.Len(t, v.YourHand, m.Rules().Cards-v.Round, "one card leaves each hand per round")
			switch rapid.IntRange(0, 3).Draw(t, "kind") {
			case 0:
				before := m.View(seat)
				require.Error(t, m.Bid(seat, goofspiel.Move{Round: v.Round + 1, Card: v.YourHand[0]}))
				require.Equal(t, before, m.View(seat), "an illegal move changes nothing")
				m.Fallback(seat)
			case 1:
				low := slices.Min(v.YourHand)
				require.Equal(t, low, m.Fallback(seat).Card, "the fallback is the lowest card")
			default:
				card := rapid.SampledFrom(v.LegalActions).Draw(t, "card")
				require.NoError(t, m.Bid(seat, goofspiel.Move{Round: v.Round, Card: card}))
			}
			if seat == 0 {
				require.False(t, m.Sealed(1))
			}
		}
	}
	res := m.Result()
	require.LessOrEqual(t, res.Scores[0]+res.Scores[1], total, "points are never made up")
	last := res.History[len(res.History)-1]
	lost := 0
	if last.Winner < 0 {
		lost = last.PrizePool
		if m.Rules().TieRule == goofspiel.Split {
			lost = last.PrizePool % 2
		}
	}
	require.Equal(t, total, res.Scores[0]+res.Scores[1]+lost, "every prize point is scored or carried out of the last round")
	switch {
	case res.Scores[0] == res.Scores[1]:
		require.Equal(t, -1, res.Winner)
	case res.Scores[0] > res.Scores[1]:
		require.Equal(t, 0, res.Winner)
	default:
		require.Equal(t, 1, res.Winner)
	}
	seed, err := hex.DecodeString(res.Reveal)
	require.NoError(t, err)
	sum := sha256.Sum256(seed)
	created := m.EventsAfter(0)[0]
	require.Equal(t, hex.EncodeToString(sum[:]), created.Payload.(map[string]any)["commitment"])
	require.Equal(t, goofspiel.PrizeOrder(m.Rules(), seed), res.PrizeOrder, "the reveal proves the order")
	for i, e := range m.EventsAfter(0) {
		require.Equal(t, i+1, e.Seq)
	}
}

func TestMatchInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := goofspiel.Rules{FairnessMode: rapid.SampledFrom([]string{"shuffled", "open"}).Draw(t, "fairness"),
			TieRule: rapid.SampledFrom([]string{"carry", "split"}).Draw(t, "tie"), Cards: rapid.IntRange(1, 13).Draw(t, "cards")}
		m, err := goofspiel.New(rules, rapid.SliceOfN(rapid.Byte(), 32, 32).Draw(t, "seed"))
		require.NoError(t, err)
		playRandom(t, m)
	})
}

func TestSameSeedSameOrderAndOpenIsAscending(t *testing.T) {
	seed := []byte("0123456789abcdef0123456789abcdef")
	a := goofspiel.PrizeOrder(goofspiel.Standard(), seed)
	assert.Equal(t, a, goofspiel.PrizeOrder(goofspiel.Standard(), seed))
	assert.NotEqual(t, a, goofspiel.PrizeOrder(goofspiel.Standard(), []byte("another seed")))
	sorted := slices.Sorted(slices.Values(a))
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}, sorted)
	open := goofspiel.Standard()
	open.FairnessMode = goofspiel.Open
	assert.Equal(t, sorted, goofspiel.PrizeOrder(open, seed))
}

func TestTieRules(t *testing.T) {
	for _, c := range []struct {
		tie    string
		scores [2]int
		pool2  int
	}{{goofspiel.Carry, [2]int{0, 0}, 6}, {goofspiel.Split, [2]int{1, 1}, 4}} {
		open := goofspiel.Rules{FairnessMode: goofspiel.Open, TieRule: c.tie}
		m, err := goofspiel.New(open, []byte("s"))
		require.NoError(t, err)
		require.NoError(t, m.Bid(0, goofspiel.Move{Round: 0, Card: 5}))
		require.NoError(t, m.Bid(1, goofspiel.Move{Round: 0, Card: 5}))
		assert.Equal(t, 3, m.View(0).PrizePool, "%s: prize 2 plus the odd or whole point of prize 1", c.tie)
		require.NoError(t, m.Bid(0, goofspiel.Move{Round: 1, Card: 6}))
		require.NoError(t, m.Bid(1, goofspiel.Move{Round: 1, Card: 6}))
		assert.Equal(t, c.scores, m.View(0).Scores, c.tie)
		assert.Equal(t, c.pool2, m.View(0).PrizePool, "%s: prize 3 plus what the tied pool of 3 left", c.tie)
	}
}

func TestViewIsAbsoluteAndSeatRelativeOnlyInCards(t *testing.T) {
	m, err := goofspiel.New(goofspiel.Rules{FairnessMode: goofspiel.Open}, []byte("s"))
	require.NoError(t, err)
	require.NoError(t, m.Bid(0, goofspiel.Move{Round: 0, Card: 2}))
	require.NoError(t, m.Bid(1, goofspiel.Move{Round: 0, Card: 9}))
	v1 := m.View(1)
	assert.Equal(t, [2]int{0, 1}, v1.Scores)
	assert.Equal(t, 1, v1.History[0].Winner)
	assert.Equal(t, 9, v1.History[0].YourCard)
	assert.Equal(t, 2, v1.History[0].OppCard)
	assert.ErrorIs(t, m.Bid(1, goofspiel.Move{Round: 1, Card: 9}), goofspiel.ErrIllegal, "a discarded card is gone")
	assert.NoError(t, m.Bid(1, goofspiel.Move{Round: 1, Card: 2}), "the opponent's card is still in this hand")
}

func BenchmarkMatch(b *testing.B) {
	for i := 0; i < b.N; i++ {
		m, _ := goofspiel.New(goofspiel.Standard(), []byte{byte(i), byte(i >> 8)})
		for !m.Done() {
			m.Bid(0, goofspiel.Baseline(m.View(0)))
			m.Fallback(1)
		}
	}
}
