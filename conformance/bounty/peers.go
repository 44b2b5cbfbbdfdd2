package bounty

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
)

// contactOf is the contact the runner lists a member with.
func contactOf(a agent) string { return "https://agent.example/" + a.ID }

func claimText(p *int) string {
	if p == nil {
		return "null"
	}
	return strconv.Itoa(*p)
}

// post lists a member and remembers it for later delisting.
func (w *world) post(ctx context.Context, body map[string]any) error {
	if _, err := w.list(ctx, w.cid, body); err != nil {
		return err
	}
	if id, _ := body["agent_id"].(string); id != "" && w.Last.Status/100 == 2 {
		w.noteListed(id)
	}
	return nil
}

func (w *world) mustPost(ctx context.Context, body map[string]any) error {
	if err := w.post(ctx, body); err != nil {
		return err
	}
	if w.Last.Status/100 != 2 {
		return verdict.Failf("BOUNTY-PEERS-LIST", "200 for a valid listing", w.Last.Status, "%s", w.clip(w.Last.Body))
	}
	return nil
}

// entryOf reads the board and returns member i's entry, failing rule when
// it is absent.
func (w *world) entryOf(ctx context.Context, i int, rule string) (peerDoc, error) {
	return w.entryRead(ctx, i, rule, w.board)
}

// entryRead is entryOf with the board read by read.
func (w *world) entryRead(ctx context.Context, i int, rule string, read func(context.Context, string) (*boardDoc, error)) (peerDoc, error) {
	a, err := w.member(i)
	if err != nil {
		return peerDoc{}, err
	}
	b, err := read(ctx, w.cid)
	if err != nil {
		return peerDoc{}, err
	}
	e, ok := b.entry(a.ID)
	if !ok {
		return e, verdict.Failf(rule, a.ID+" on the board", "absent", "")
	}
	return e, nil
}

func (b *boardDoc) entry(id string) (peerDoc, bool) {
	for _, e := range b.Peers {
		if e.AgentID == id {
			return e, true
		}
	}
	return peerDoc{}, false
}

// boardHolding checks member i's shares_held under the scenario's rule
// (BOUNTY-HOLDINGS, BOUNTY-SOLVE-SHARE); want is a comma-separated list,
// "" for none.
func (w *world) boardHolding(ctx context.Context, i int, want string) error {
	e, err := w.entryRead(ctx, i, "BOUNTY-HOLDINGS", w.boardAsServed)
	if err != nil {
		return err
	}
	got := make([]string, 0, len(e.SharesHeld))
	held := slices.Clone(e.SharesHeld)
	slices.Sort(held)
	for _, s := range held {
		got = append(got, strconv.Itoa(s))
	}
	if strings.Join(got, ",") != want {
		return verdict.Failf(w.rule, "shares_held ["+want+"]", e.SharesHeld, "member %d", i)
	}
	return nil
}

func (w *world) boardClaimIs(ctx context.Context, i, share int) error {
	e, err := w.entryOf(ctx, i, "BOUNTY-INTENT")
	if err != nil {
		return err
	}
	got := 0
	if e.WorkingOn != nil {
		got = *e.WorkingOn
	}
	if got != share {
		return verdict.Failf("BOUNTY-INTENT", fmt.Sprintf("working_on %d (0: none)", share), claimText(e.WorkingOn), "member %d", i)
	}
	return nil
}

// listMembers lists members i..j (1-based), the rest of the team staying
// unlisted: an arrival that never listed (the join branch).
func (w *world) listMembers(ctx context.Context, i, j int) error {
	for n := i; n <= j; n++ {
		a, err := w.member(n)
		if err != nil {
			return err
		}
		if err := w.mustPost(ctx, map[string]any{"agent_id": a.ID, "contact": contactOf(a)}); err != nil {
			return err
		}
	}
	return nil
}

// claim re-POSTs member i's listing with working_on share: several
// claimants of one share make a contested claim, kept by the lowest
// agent_id (BOUNTY-NEXT-MOVE).
func (w *world) claim(ctx context.Context, i, share int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	return w.mustPost(ctx, map[string]any{"agent_id": a.ID, "contact": contactOf(a), "working_on": share})
}

// toldToJoin: member i, unlisted and holding nothing, is told list with
// join=true ("An UNLISTED share-less arrival is told to join first ...
// when every slot is already taken or the board is already combinable").
// Where the board the runner reads itself leaves a slot open (other
// agents' listings), the branch is not reached and the check skips.
func (w *world) toldToJoin(ctx context.Context, i int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	b, err := w.board(ctx, w.cid)
	if err != nil {
		return err
	}
	got, err := w.nextMove(ctx, w.cid, a.ID)
	if err != nil {
		return err
	}
	if got.Move == bounty.MoveList && got.Join {
		return nil
	}
	want := bounty.NextMoveWithRoster(b.pure(w.man.Threshold.K, w.man.Threshold.N), bounty.Caller{AgentID: a.ID, Held: w.held[a.ID]}, b.servedRoster())
	if !want.Join {
		return verdict.Skipf("the board leaves %s a free slot (other listings): the join branch is not reached", a.ID)
	}
	return verdict.Failf("BOUNTY-NEXT-MOVE", "list with join=true", viewOf(got), "an unlisted share-less arrival on a board whose slots are taken or that is combinable")
}
