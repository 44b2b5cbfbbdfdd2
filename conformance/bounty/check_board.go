package bounty

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/go-cmp/cmp"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
)

// slack is how far a live board's clocks may move between the runner's
// two reads beyond what the runner measured (rounding, the target's own
// pace); a signal that flips within the window accepts every answer.
const slack = 2.0

// slackOf is the slack a check allows: none on the embedded reference,
// whose clock moves only when the runner moves it, so a window's exact
// limit (29 s held, 30 s lapsed) is decided there to the second.
func (w *world) slackOf() float64 {
	if w.env.Clock != nil {
		return 0
	}
	return slack
}

// maxWindow bounds the window a next_move check accepts answers over: a
// runner that took longer between its board read and the next_move answer
// (a loaded machine, a far target) has seen too much of the board move to
// decide anything.
const maxWindow = 120.0

// pure builds the pure Board from a board the target served.
func (b *boardDoc) pure(k, n int) bounty.Board {
	out := bounty.Board{Round: b.Round, K: k, N: n, CombinableForS: b.Proximity.CombinableForS, StalledForS: b.Proximity.Election.StalledForS}
	for _, e := range b.Peers {
		out.Entries = append(out.Entries, e.entry())
	}
	return out
}

// later is the same board d seconds on.
func later(b bounty.Board, d float64) bounty.Board {
	out := b
	out.Entries = nil
	for _, e := range b.Entries {
		e.ExpiresInS -= d
		out.Entries = append(out.Entries, e)
	}
	if out.CombinableForS > 0 {
		out.CombinableForS += d
	}
	out.StalledForS += d
	return out
}

// window is the board at every half second from its read until the
// next_move answer came (how long the runner took, plus slack): the
// next_move was computed at one of them.
func window(b bounty.Board, took, slack float64) []bounty.Board {
	out := []bounty.Board{b}
	for d := 0.5; d < took+slack; d += 0.5 {
		out = append(out, later(b, d))
	}
	if took+slack == 0 {
		return out
	}
	return append(out, later(b, took+slack))
}

// servedRoster is the target's roster, which the contract leaves to it.
func (b *boardDoc) servedRoster() []bounty.Pair {
	if !b.Proximity.CombinableNow {
		return nil
	}
	return b.Proximity.Roster
}

// checkProximity recomputes the fields the contract fixes
// (BOUNTY-PROXIMITY) and the broker rule (BOUNTY-BROKER) from the listings.
func (w *world) checkProximity(b *boardDoc) error {
	want := bounty.ComputeProximity(b.pure(w.man.Threshold.K, w.man.Threshold.N))
	got := b.Proximity
	type fixed struct {
		K, Distinct, Short int
		Missing            []int
		Combinable         bool
	}
	wf := fixed{want.KRequired, want.DistinctShares, want.AgentsShort, want.SharesMissing, want.CombinableNow}
	gf := fixed{got.KRequired, got.DistinctShares, got.AgentsShort, got.SharesMissing, got.CombinableNow}
	if gf.Missing == nil {
		gf.Missing = []int{}
	}
	if d := cmp.Diff(wf, gf); d != "" {
		return verdict.Failf("BOUNTY-PROXIMITY", wf, gf, "recomputed from the board's live listings: %s", d)
	}
	if got.CombinableNow {
		return w.checkRoster(b)
	}
	return nil
}

// checkRoster: the served roster is k live holders matched to distinct
// shares they hold, and the broker is its lowest agent_id (BOUNTY-BROKER).
func (w *world) checkRoster(b *boardDoc) error {
	roster := b.Proximity.Roster
	k := w.man.Threshold.K
	seenA, seenS := map[string]bool{}, map[int]bool{}
	for _, m := range roster {
		e, ok := b.entry(m.AgentID)
		if !ok || !slices.Contains(e.SharesHeld, m.ShareIndex) || seenA[m.AgentID] || seenS[m.ShareIndex] {
			return verdict.Failf("BOUNTY-BROKER", "a roster of live holders on distinct shares they hold", roster, "")
		}
		seenA[m.AgentID], seenS[m.ShareIndex] = true, true
	}
	if len(roster) < k {
		return verdict.Failf("BOUNTY-BROKER", fmt.Sprintf("a roster of %d", k), len(roster), "")
	}
	low := roster[0].AgentID
	for _, m := range roster {
		low = min(low, m.AgentID)
	}
	if b.Proximity.Broker == nil || *b.Proximity.Broker != low {
		return verdict.Failf("BOUNTY-BROKER", low, b.Proximity.Broker, "the broker is the roster's lowest agent_id")
	}
	if b.Proximity.BrokerGraceS != bounty.BrokerGraceSeconds {
		return verdict.Failf("BOUNTY-BROKER", bounty.BrokerGraceSeconds, b.Proximity.BrokerGraceS, "broker_grace_s")
	}
	return nil
}

// checkElection recomputes solve_election (BOUNTY-ELECTION).
func (w *world) checkElection(b *boardDoc) error {
	pb := b.pure(w.man.Threshold.K, w.man.Threshold.N)
	want := bounty.ComputeProximity(pb).Election
	got := b.Proximity.Election
	norm := func(e bounty.Election) bounty.Election {
		for _, l := range []*[]string{&e.Claimants, &e.Fill, &e.Elected} {
			if *l == nil {
				*l = []string{}
			}
		}
		e.StalledForS = 0
		return e
	}
	if d := cmp.Diff(norm(want), norm(got)); d != "" {
		return verdict.Failf("BOUNTY-ELECTION", norm(want), norm(got), "recomputed from the board: %s", d)
	}
	return nil
}

// checkNextMove compares the target's next_move for agent a with the
// policy run on the board just read, under either clock reading; the
// share of a solve may be any the contract allows (BOUNTY-NEXT-MOVE).
func (w *world) checkNextMove(ctx context.Context, b *boardDoc, a agent, exact bool) error {
	got, err := w.nextMove(ctx, w.cid, a.ID)
	if err != nil {
		return err
	}
	took := w.now().Sub(b.sent).Seconds()
	if took > maxWindow {
		return verdict.Skipf("next_move for %s came %.0fs after the board was read: the board's clocks moved too far to recompute it", a.ID, took)
	}
	pb := b.pure(w.man.Threshold.K, w.man.Threshold.N)
	caller := bounty.Caller{AgentID: a.ID, Held: w.held[a.ID]}
	var tried []moveView
	for _, board := range window(pb, took, w.slackOf()) {
		want := bounty.NextMoveWithRoster(board, caller, b.servedRoster())
		if movesAgree(want, got) {
			if exact && viewOf(want).ShareIndex != got.ShareIndex {
				return verdict.Failf("BOUNTY-NEXT-SPREAD", viewOf(want), viewOf(got), "the kit's exact pick for %s", a.ID)
			}
			return nil
		}
		tried = append(tried, viewOf(want))
	}
	return verdict.Failf("BOUNTY-NEXT-MOVE", tried[0], viewOf(got), "next_move for %s recomputed from the board it read", a.ID)
}

// movesAgree compares the fields the policy fixes.
func movesAgree(want, got bounty.Move) bool {
	if want.Move != got.Move || want.FirstMover != got.FirstMover || want.Join != got.Join || want.Refresh != got.Refresh {
		return false
	}
	switch want.Move {
	case bounty.MoveSolve:
		return slices.Contains(want.Options, got.ShareIndex) && got.Claim != nil && got.Claim.WorkingOn == got.ShareIndex // "the move carries claim.working_on"
	case bounty.MoveCombine:
		return want.Broker == got.Broker && cmp.Equal(sortedPairs(want.Roster), sortedPairs(got.Roster))
	case bounty.MoveDefer:
		return want.Broker == got.Broker
	}
	return true
}

func sortedPairs(p []bounty.Pair) []bounty.Pair {
	out := slices.Clone(p)
	slices.SortFunc(out, func(a, b bounty.Pair) int {
		if a.AgentID < b.AgentID {
			return -1
		}
		if a.AgentID > b.AgentID {
			return 1
		}
		return 0
	})
	return out
}
