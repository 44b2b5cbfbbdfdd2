package bounty

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
)

func (w *world) peerSteps(sc *godog.ScenarioContext) {
	sc.Step(pattern(`^the team lists$`), w.listTeam)
	sc.Step(pattern(`^the team lists with agent (\d+) working on share (\d+)$`), w.listTeamClaiming)
	sc.Step(pattern(`^agent (\d+) lists with contact "([^"]*)" and message "([^"]*)"$`), w.listWithMessage)
	sc.Step(pattern(`^the board shows agent (\d+) with contact "([^"]*)" and message "([^"]*)"$`), w.boardShowsListing)
	sc.Step(pattern(`^agent (\d+) delists$`), w.delist)
	sc.Step(pattern(`^the board does not show agent (\d+)$`), w.boardLacks)
	sc.Step(pattern(`^every listing on the board is within its TTL$`), func(ctx context.Context) error { _, err := w.board(ctx, w.cid); return err })
	sc.Step(pattern(`^the board is not combinable$`), w.notCombinable)
	sc.Step(pattern(`^the board shows agent (\d+) exactly once$`), w.boardShowsOnce)
	sc.Step(pattern(`^agent (\d+) lists with a contact of (\d+) characters$`), w.listLongContact)
	sc.Step(pattern(`^the board shows agent (\d+) holding "([^"]*)" and agent (\d+) holding "([^"]*)"$`), w.boardHoldingTwo)
	sc.Step(pattern(`^the board shows agent (\d+) working on share (\d+), labelled self-declared$`), w.boardClaim)
	sc.Step(pattern(`^the board shows agent (\d+) working on nothing$`), func(ctx context.Context, i int) error { return w.boardClaimIs(ctx, i, 0) })
	sc.Step(pattern(`^agent (\d+) lists with working_on null$`), w.clearClaim)
}

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
	if id, _ := body["agent_id"].(string); id != "" && w.Last.Status == http.StatusOK {
		w.noteListed(id)
	}
	return nil
}

func (w *world) mustPost(ctx context.Context, body map[string]any) error {
	if err := w.post(ctx, body); err != nil {
		return err
	}
	if w.Last.Status != http.StatusOK {
		return verdict.Failf("BOUNTY-PEERS-LIST", "200 for a valid listing", w.Last.Status, "%s", w.clip(w.Last.Body))
	}
	return nil
}

// listTeam lists (or refreshes) every member with its contact.
func (w *world) listTeam(ctx context.Context) error {
	for _, a := range w.team {
		if err := w.mustPost(ctx, map[string]any{"agent_id": a.ID, "contact": contactOf(a)}); err != nil {
			return err
		}
	}
	return nil
}

func (w *world) listTeamClaiming(ctx context.Context, i, share int) error {
	for n, a := range w.team {
		body := map[string]any{"agent_id": a.ID, "contact": contactOf(a)}
		if n+1 == i {
			body["working_on"] = share
		}
		if err := w.mustPost(ctx, body); err != nil {
			return err
		}
	}
	return nil
}

func (w *world) listWithMessage(ctx context.Context, i int, contact, message string) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	return w.mustPost(ctx, map[string]any{"agent_id": a.ID, "contact": contact, "message": message})
}

func (w *world) boardShowsListing(ctx context.Context, i int, contact, message string) error {
	e, err := w.entryOf(ctx, i, "BOUNTY-PEERS-LIST")
	if err != nil {
		return err
	}
	if e.Contact != contact || e.Message != message {
		return verdict.Failf("BOUNTY-PEERS-LIST", contact+" / "+message, e.Contact+" / "+e.Message, "")
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

func (w *world) delist(ctx context.Context, i int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	if _, err := w.list(ctx, w.cid, map[string]any{"agent_id": a.ID, "remove": true}); err != nil {
		return err
	}
	if w.Last.Status != http.StatusOK {
		return verdict.Failf("BOUNTY-PEERS-DELIST", 200, w.Last.Status, "%s", w.clip(w.Last.Body))
	}
	return nil
}

func (w *world) boardLacks(ctx context.Context, i int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	b, err := w.board(ctx, w.cid)
	if err != nil {
		return err
	}
	if _, ok := b.entry(a.ID); ok {
		return verdict.Failf(w.rule, a.ID+" absent", "listed", "")
	}
	return nil
}

func (w *world) notCombinable(ctx context.Context) error {
	b, err := w.board(ctx, w.cid)
	if err != nil {
		return err
	}
	if b.Proximity.CombinableNow {
		return verdict.Failf("BOUNTY-PEERS-TTL", "combinable_now false once the listings expired", true, "expired listings are never counted")
	}
	return nil
}

func (w *world) boardShowsOnce(ctx context.Context, i int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	b, err := w.board(ctx, w.cid)
	if err != nil {
		return err
	}
	n := 0
	for _, e := range b.Peers {
		if e.AgentID == a.ID {
			n++
		}
	}
	if n != 1 {
		return verdict.Failf("BOUNTY-PEERS-REFRESH", "one listing", n, "%s after a refresh", a.ID)
	}
	return nil
}

func (w *world) listLongContact(ctx context.Context, i, n int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	return w.post(ctx, map[string]any{"agent_id": a.ID, "contact": "https://agent.example/" + strings.Repeat("x", n-len("https://agent.example/"))})
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

func (w *world) boardHoldingTwo(ctx context.Context, i int, a string, j int, b string) error {
	if err := w.boardHolding(ctx, i, a); err != nil {
		return err
	}
	return w.boardHolding(ctx, j, b)
}

func (w *world) boardClaim(ctx context.Context, i, share int) error {
	if err := w.boardClaimIs(ctx, i, share); err != nil {
		return err
	}
	e, _ := w.entryOf(ctx, i, "BOUNTY-INTENT")
	if !strings.Contains(strings.ToLower(e.WorkingOnStatus+" "+string(w.Last.Body)), bounty.SelfDeclared) {
		return verdict.Failf("BOUNTY-INTENT", "working_on labelled self-declared", e.WorkingOnStatus, "")
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

func (w *world) clearClaim(ctx context.Context, i int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	return w.mustPost(ctx, map[string]any{"agent_id": a.ID, "contact": contactOf(a), "working_on": nil})
}
