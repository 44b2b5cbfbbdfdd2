package bounty

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
)

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

func (w *world) delist(ctx context.Context, i int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	if _, err := w.list(ctx, w.cid, map[string]any{"agent_id": a.ID, "remove": true}); err != nil {
		return err
	}
	if w.Last.Status/100 != 2 {
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
		return verdict.Failf(w.rule, "combinable_now false", true, "expired listings are never counted, and without a matching of k holders to k shares nobody can combine")
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

// boardStillShows: member i's listing is on the board, inside its window
// (the scenario's rule).
func (w *world) boardStillShows(ctx context.Context, i int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	b, err := w.board(ctx, w.cid)
	if err != nil {
		return err
	}
	for _, e := range b.Peers {
		if e.AgentID == a.ID {
			return nil
		}
	}
	return verdict.Failf(w.rule, a.ID+" still listed", "gone", "a listing inside its 1800 s TTL")
}

func (w *world) listLongContact(ctx context.Context, i, n int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	return w.post(ctx, map[string]any{"agent_id": a.ID, "contact": "https://agent.example/" + strings.Repeat("x", n-len("https://agent.example/"))})
}

// listWideContact: member i lists with a contact of n characters ending
// in wide letters (wideContact, BOUNTY-CONTACT).
func (w *world) listWideContact(ctx context.Context, i, n int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	return w.wideContact(n, "BOUNTY-CONTACT", func(c string) error {
		return w.post(ctx, map[string]any{"agent_id": a.ID, "contact": c})
	})
}

// wideContact holds a contact limit to characters (BOUNTY-CONTACT,
// BOUNTY-PROFILE-CONTACT: "Max 256 chars.", "<= 256 chars"), as
// takeWideName does for names: where a deployment takes a short contact
// ending in wideLetters at all (an IRI; it may refuse them, the seed says
// only "machine-reachable"), a contact of n characters ending in them
// must be taken too, so a limit counted in bytes or UTF-16 units fails
// rule. A deployment that refuses the short one leaves this unchecked.
func (w *world) wideContact(n int, rule string, send func(contact string) error) error {
	const head = "https://agent.example/"
	tail := strings.Repeat(string(wideLetters), 2) // 4 characters, 12 bytes, 6 UTF-16 units
	wide := func(n int) string { return head + strings.Repeat("x", n-len(head)-4) + tail }
	if err := send(wide(len(head) + 4)); err != nil {
		return err
	}
	if w.Last.Status/100 != 2 {
		return nil // no wide letters in a contact at all: unchecked here
	}
	c := wide(n)
	if err := send(c); err != nil {
		return err
	}
	if w.Last.Status/100 != 2 {
		return verdict.Failf(rule, fmt.Sprintf("2xx for a contact of %d characters (%d bytes)", utf8.RuneCountInString(c), len(c)), w.Last.Status,
			"a contact with 4 such characters was accepted: %s", w.clip(w.Last.Body))
	}
	return nil
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

func (w *world) clearClaim(ctx context.Context, i int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	return w.mustPost(ctx, map[string]any{"agent_id": a.ID, "contact": contactOf(a), "working_on": nil})
}

// peersSteps registers the steps of features/bounty/peers.feature.
func (w *world) peersSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^agent (\d+) submits a wrong solution for share (\d+)$`), w.wrongSolve)
	sc.Step(pattern(`^agent (\d+) lists with contact "([^"]*)" and message "([^"]*)"$`), w.listWithMessage)
	sc.Step(pattern(`^the board shows agent (\d+) with contact "([^"]*)" and message "([^"]*)"$`), w.boardShowsListing)
	sc.Step(pattern(`^agent (\d+) delists$`), w.delist)
	sc.Step(pattern(`^the board does not show agent (\d+)$`), w.boardLacks)
	sc.Step(pattern(`^every listing on the board is within its TTL$`), func(ctx context.Context) error { _, err := w.board(ctx, w.cid); return err })
	sc.Step(pattern(`^the board is not combinable$`), w.notCombinable)
	sc.Step(pattern(`^the board shows agent (\d+) exactly once$`), w.boardShowsOnce)
	sc.Step(pattern(`^the board still shows agent (\d+)$`), w.boardStillShows)
	sc.Step(pattern(`^the runner notes agent (\d+)'s last_seen$`), w.noteLastSeen)
	sc.Step(pattern(`^(\d+) seconds pass, waited out even live$`), w.shortWait)
	sc.Step(pattern(`^agent (\d+)'s last_seen moved with the refresh$`), w.lastSeenMoved)
	sc.Step(pattern(`^the runner notes agent (\d+)'s expires_in_s$`), w.noteExpiresIn)
	sc.Step(pattern(`^agent (\d+)'s expires_in_s fell by at least the wait$`), w.expiresInFell)
	sc.Step(pattern(`^the runner notes the board's (combinable_for_s|stalled_for_s)$`), w.noteBoardClock)
	sc.Step(pattern(`^the board's (combinable_for_s|stalled_for_s) rose by at least the wait$`), w.boardClockRose)
	sc.Step(pattern(`^the runner notes the round's list events$`), w.noteListEvents)
	sc.Step(pattern(`^the refresh added no list event$`), w.refreshAddedNoEvent)
	sc.Step(pattern(`^agent (\d+) lists with a contact of (\d+) characters$`), w.listLongContact)
	sc.Step(pattern(`^agent (\d+) lists with a contact of (\d+) characters, ending in wide letters, where it takes a few$`), w.listWideContact)
	sc.Step(pattern(`^the board shows agent (\d+) working on share (\d+), labelled self-declared$`), w.boardClaim)
	sc.Step(pattern(`^the board shows agent (\d+) working on nothing$`), func(ctx context.Context, i int) error { return w.boardClaimIs(ctx, i, 0) })
	sc.Step(pattern(`^agent (\d+) lists with working_on null$`), w.clearClaim)
	sc.Step(pattern(`^the board's coalition_proximity is the one computed from its listings$`), w.proximityMatches)
	sc.Step(pattern(`^the board is combinable with a valid roster whose lowest agent_id is the broker$`), w.combinableWithBroker)
	sc.Step(pattern(`^the board's roster is the greedy matching in agent_id order$`), w.rosterIsGreedy)
	sc.Step(pattern(`^the board's solve_election is the one computed from its listings$`), w.electionMatches)
}

// wrongSolve submits a well-formed wrong solution as member i.
func (w *world) wrongSolve(ctx context.Context, i, s int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	return w.submitWrong(ctx, a, s)
}

func (w *world) proximityMatches(ctx context.Context) error {
	b, err := w.board(ctx, w.cid)
	if err != nil {
		return err
	}
	return w.checkProximity(b)
}

func (w *world) combinableWithBroker(ctx context.Context) error {
	b, err := w.board(ctx, w.cid)
	if err != nil {
		return err
	}
	if !b.Proximity.CombinableNow {
		return verdict.Failf("BOUNTY-PROXIMITY", "combinable_now true", false, "k listed holders of distinct shares")
	}
	return w.checkRoster(b)
}

// rosterIsGreedy compares the served roster with the kit's choice
// (BOUNTY-ROSTER), after the MUST conditions of the roster held.
func (w *world) rosterIsGreedy(ctx context.Context) error {
	if err := w.combinableWithBroker(ctx); err != nil {
		return err
	}
	b, _ := w.board(ctx, w.cid)
	want := bounty.ComputeProximity(b.pure(w.man.Threshold.K, w.man.Threshold.N)).Roster
	if fmt.Sprint(sortedPairs(want)) != fmt.Sprint(sortedPairs(b.Proximity.Roster)) {
		return verdict.Failf("BOUNTY-ROSTER", want, b.Proximity.Roster, "greedy by agent_id")
	}
	return nil
}

func (w *world) electionMatches(ctx context.Context) error {
	b, err := w.board(ctx, w.cid)
	if err != nil {
		return err
	}
	if err := w.checkProximity(b); err != nil {
		return err
	}
	return w.checkElection(b)
}
