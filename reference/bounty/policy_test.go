package bounty

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// drawBoard draws a board of up to 12 live listings with random holdings
// and claims.
func drawBoard(t *rapid.T) Board {
	b := Board{Round: rapid.IntRange(1, 20).Draw(t, "round"), K: K, N: N,
		CombinableForS: rapid.Float64Range(0, 60).Draw(t, "combinable_for"),
		StalledForS:    rapid.Float64Range(0, 60).Draw(t, "stalled_for")}
	n := rapid.IntRange(0, 12).Draw(t, "listings")
	for i := 0; i < n; i++ {
		e := Entry{AgentID: fmt.Sprintf("agent-%02d", i), ExpiresInS: rapid.Float64Range(1, TTLSeconds).Draw(t, "expires")}
		e.SharesHeld = rapid.SliceOfNDistinct(rapid.IntRange(1, N), 0, 2, rapid.ID[int]).Draw(t, "held")
		if len(e.SharesHeld) == 0 {
			e.WorkingOn = rapid.IntRange(0, N).Draw(t, "working_on")
		}
		b.Entries = append(b.Entries, e)
	}
	return b
}

// TestPolicyNeverAdvisesTheImpossible: no solve of a share already held,
// combine only by a roster member with a roster of k distinct holders,
// solve options always contain the share named.
func TestPolicyNeverAdvisesTheImpossible(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := drawBoard(t)
		who := rapid.IntRange(0, len(b.Entries)).Draw(t, "caller")
		c := Caller{AgentID: fmt.Sprintf("agent-%02d", who)}
		if who == len(b.Entries) {
			c.Held = rapid.SliceOfNDistinct(rapid.IntRange(1, N), 0, 2, rapid.ID[int]).Draw(t, "unlisted held")
		}
		m := NextMove(b, c)
		held := c.Held
		if e, ok := findEntry(b.Entries, c.AgentID); ok {
			held = e.SharesHeld
		}
		switch m.Move {
		case MoveSolve:
			if slices.Contains(held, m.ShareIndex) || !slices.Contains(m.Options, m.ShareIndex) || m.Claim.WorkingOn != m.ShareIndex {
				t.Fatalf("solve %d holding %v (options %v)", m.ShareIndex, held, m.Options)
			}
		case MoveCombine:
			if len(m.Roster) != K || indexOfPair(m.Roster, c.AgentID) < 0 {
				t.Fatalf("combine with roster %v by %s", m.Roster, c.AgentID)
			}
		}
	})
}

func indexOfPair(r []Pair, id string) int {
	for i, p := range r {
		if p.AgentID == id {
			return i
		}
	}
	return -1
}

// TestElectionFillsOnlyShareLessListingsUpToNeeded checks the election's
// shape on any board.
func TestElectionFillsOnlyShareLessListingsUpToNeeded(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := drawBoard(t)
		p := ComputeProximity(b)
		el := p.Election
		if len(el.Elected) > el.Needed || len(el.Elected) != len(el.Claimants)+len(el.Fill) {
			t.Fatalf("elected %v for needed %d", el.Elected, el.Needed)
		}
		for _, id := range el.Elected {
			e, _ := findEntry(b.Entries, id)
			if len(e.SharesHeld) > 0 {
				t.Fatalf("holder %s elected", id)
			}
		}
		if p.CombinableNow != (p.MaxCoalition >= K) || (p.CombinableNow && p.Broker != p.Roster[0].AgentID) {
			t.Fatalf("proximity %+v", p)
		}
	})
}

// TestEveryListedAgentIsElectedWithinCeilCountOverKRounds: with the
// population holding still and nobody holding a share, the elected
// windows tile the board (the contract's fairness statement).
func TestEveryListedAgentIsElectedWithinCeilCountOverKRounds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		count := rapid.IntRange(1, 20).Draw(t, "count")
		start := rapid.IntRange(1, 50).Draw(t, "start round")
		b := Board{K: K, N: N}
		for i := 0; i < count; i++ {
			b.Entries = append(b.Entries, Entry{AgentID: fmt.Sprintf("agent-%02d", i), ExpiresInS: TTLSeconds})
		}
		seen := map[string]bool{}
		for r := start; r < start+(count+K-1)/K; r++ {
			b.Round = r
			for _, id := range ComputeProximity(b).Election.Elected {
				seen[id] = true
			}
		}
		if len(seen) != count {
			t.Fatalf("%d of %d listings elected within ceil(count/k) rounds", len(seen), count)
		}
	})
}
