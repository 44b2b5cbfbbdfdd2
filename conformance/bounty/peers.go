package bounty

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
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
	a, err := w.member(i)
	if err != nil {
		return peerDoc{}, err
	}
	b, err := w.board(ctx, w.cid)
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

// boardHolding checks member i's shares_held (BOUNTY-HOLDINGS); want is a
// comma-separated list, "" for none.
func (w *world) boardHolding(ctx context.Context, i int, want string) error {
	e, err := w.entryOf(ctx, i, "BOUNTY-HOLDINGS")
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
