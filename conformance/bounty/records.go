package bounty

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
)

// kitRecord is what the run itself did as one agent, the measure its
// track_record on the board is held to (BOUNTY-TRACK-RECORD).
type kitRecord struct {
	joined  int // the live round when the agent registered
	solves  int // accepted solves, every round
	wins    int // winning combines it was credited in
	lastWon int // the round of its last win
}

// recordOf returns the run's record of agent id, made on first use.
func (w *world) recordOf(id string) *kitRecord {
	if w.records == nil {
		w.records = map[string]*kitRecord{}
	}
	if w.records[id] == nil {
		w.records[id] = &kitRecord{}
	}
	return w.records[id]
}

// creditWin credits one win in round to every agent of a winning combine.
func (w *world) creditWin(subs []bounty.Submission, round int) {
	seen := map[string]bool{}
	for _, s := range subs {
		if !seen[s.AgentID] {
			seen[s.AgentID] = true
			r := w.recordOf(s.AgentID)
			r.wins, r.lastWon = r.wins+1, round
		}
	}
}

// trackRecords: each winner's record on the live board shows exactly what
// the run did as it (BOUNTY-TRACK-RECORD). Wins, the last won round and
// accepted solves are the agent's own, which no other player can add to,
// so they are exact; registered_round lies between the round the run
// registered it in and its first solve's round (a win elsewhere may have
// rotated the round in between; on a fresh serve the two are one);
// rounds_available, which the contract names but does not define, is at
// least the rounds the agent won.
func (w *world) trackRecords(ctx context.Context) error {
	b, err := w.liveBoard(ctx)
	if err != nil {
		return err
	}
	for _, a := range w.team {
		e, ok := b.entry(a.ID)
		if !ok {
			return verdict.Failf("BOUNTY-TRACK-RECORD", a.ID+" on the board", "absent", "listings carry over")
		}
		if err := w.recordMatches(a.ID, e.TrackRecord); err != nil {
			return err
		}
	}
	return nil
}

// trackFields are the record's fields the contract lists.
var trackFields = []string{"rounds_won", "last_won_round", "shares_solved", "registered_round", "rounds_available"}

// recordMatches compares one board record with the run's (trackRecords).
func (w *world) recordMatches(id string, tr map[string]*int) error {
	for _, f := range trackFields {
		if tr[f] == nil {
			return verdict.Failf("BOUNTY-TRACK-RECORD", "track_record."+f, tr, "%s", id)
		}
	}
	r := w.recordOf(id)
	got := func(f string) int { return *tr[f] }
	switch {
	case got("rounds_won") != r.wins:
		return verdict.Failf("BOUNTY-TRACK-RECORD", r.wins, got("rounds_won"), "track_record.rounds_won of %s: its wins in this run", id)
	case got("last_won_round") != r.lastWon:
		return verdict.Failf("BOUNTY-TRACK-RECORD", r.lastWon, got("last_won_round"), "track_record.last_won_round of %s", id)
	case got("shares_solved") != r.solves:
		return verdict.Failf("BOUNTY-TRACK-RECORD", r.solves, got("shares_solved"), "track_record.shares_solved of %s: its accepted solves in this run", id)
	case got("registered_round") < r.joined || (r.lastWon > 0 && got("registered_round") > r.lastWon-r.wins+1):
		return verdict.Failf("BOUNTY-TRACK-RECORD", fmt.Sprintf("between %d (registered) and %d (its first win)", r.joined, r.lastWon-r.wins+1),
			got("registered_round"), "track_record.registered_round of %s", id)
	case got("rounds_available") < r.wins:
		return verdict.Failf("BOUNTY-TRACK-RECORD", fmt.Sprintf(">= %d (its wins)", r.wins), got("rounds_available"), "track_record.rounds_available of %s", id)
	}
	return nil
}

// roundCounters reads rounds.current_round and rounds.rounds_completed
// where the contract shows them, in the manifest's rounds block (the
// discovery document), else from the registry, top level or a rounds
// block. ok is false when no answer shows both.
func (w *world) roundCounters(ctx context.Context) (current, completed int, ok bool, err error) {
	for _, p := range []string{"/.well-known/agent-puzzle-bounty.json", "/challenges"} {
		resp, err := w.call(ctx, http.MethodGet, p, nil)
		if err != nil {
			return 0, 0, false, err
		}
		if resp.Status/100 != 2 {
			continue
		}
		if c, d, ok := countersIn(resp.Body); ok {
			return c, d, true, nil
		}
	}
	return 0, 0, false, nil
}

// countersIn finds both counters in a document's rounds block or at its
// top level.
func countersIn(body []byte) (current, completed int, ok bool) {
	var doc struct {
		Rounds    *roundsBlock `json:"rounds"`
		Current   *int         `json:"current_round"`
		Completed *int         `json:"rounds_completed"`
	}
	if json.Unmarshal(body, &doc) != nil {
		return 0, 0, false
	}
	if r := doc.Rounds; r != nil && r.Current != nil && r.Completed != nil {
		return *r.Current, *r.Completed, true
	}
	if doc.Current != nil && doc.Completed != nil {
		return *doc.Current, *doc.Completed, true
	}
	return 0, 0, false
}

// roundsBlock is the manifest's rounds block, as far as the counters go.
type roundsBlock struct {
	Current   *int `json:"current_round"`
	Completed *int `json:"rounds_completed"`
}

// countersBefore keeps the counters before the scenario's win.
func (w *world) countersBefore(ctx context.Context) error {
	c, d, ok, err := w.roundCounters(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return verdict.Skipf("unchecked: neither the discovery manifest nor the registry shows rounds.current_round and rounds.rounds_completed")
	}
	w.counters = [2]int{c, d}
	return nil
}

// countersAdvanced judges the counters after the kit's own win
// (BOUNTY-ROUNDS-COMPLETED): rounds_completed advances exactly as far as
// current_round (each win closes one round and opens the next), at least
// by the one the kit won; current_round is past the round the kit closed
// and no later than the live round read after it. A platform others also
// play may have advanced more between the readings, so more than one is
// accepted there; against a fresh serve the live round is the next one,
// so the advance is exactly one.
func (w *world) countersAdvanced(ctx context.Context) error {
	c, d, ok, err := w.roundCounters(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return verdict.Failf("BOUNTY-ROUNDS-COMPLETED", "rounds.current_round and rounds.rounds_completed, as before the win", "absent", "after the win")
	}
	_, live, err := w.live(ctx)
	if err != nil {
		return err
	}
	c0, d0 := w.counters[0], w.counters[1]
	switch {
	case c < w.wonRound+1 || c > live:
		return verdict.Failf("BOUNTY-ROUNDS-COMPLETED", fmt.Sprintf("current_round from %d (past the round the win closed) to %d (the live round)", w.wonRound+1, live), c, "after the kit won round %d", w.wonRound)
	case d-d0 < 1:
		return verdict.Failf("BOUNTY-ROUNDS-COMPLETED", fmt.Sprintf("rounds_completed above %d after a win", d0), d, "after the kit won round %d", w.wonRound)
	case d-d0 != c-c0:
		return verdict.Failf("BOUNTY-ROUNDS-COMPLETED", fmt.Sprintf("rounds_completed to advance as current_round did (%d -> %d)", c0, c), fmt.Sprintf("%d -> %d", d0, d), "one round completed per round opened")
	}
	return nil
}

// liveBoard reads the peers board of the live round, whatever round the
// run last knew.
func (w *world) liveBoard(ctx context.Context) (*boardDoc, error) {
	if err := w.liveChallenge(ctx); err != nil {
		return nil, err
	}
	return w.board(ctx, w.cid)
}

// termsAsPlayed holds a profile's rounds_won and accepted_solves to what
// the run did as the agent, which registered in this scenario: "Engine-
// accepted events only", so a rejected solve moves neither the count nor
// the reputation (BOUNTY-REPUTATION). Another player can add to neither
// for an agent_id the run holds, so both are exact.
func (w *world) termsAsPlayed(id string, won, solves int) error {
	r := w.recordOf(id)
	switch {
	case won != r.wins:
		return verdict.Failf("BOUNTY-REPUTATION", r.wins, won, "rounds_won of %s: its wins in this run", id)
	case solves != r.solves:
		return verdict.Failf("BOUNTY-REPUTATION", r.solves, solves, "accepted_solves of %s: its accepted solves in this run (a rejected one is no engine-accepted event)", id)
	}
	return nil
}

// solvesInNewRound moves the scenario to the round the win opened (its
// shares and the win forgotten) and solves there: what each member holds
// afterwards is only what it solved in that round, which a combine is
// then judged by ("an ACCEPTED SOLVE of this round", BOUNTY-CREDIT).
func (w *world) solvesInNewRound(ctx context.Context, text string) error {
	if err := w.liveChallenge(ctx); err != nil {
		return err
	}
	w.won = nil
	return w.solveList(ctx, text)
}

// joinTeam registers member i, the next one, in the scenario's round.
func (w *world) joinTeam(ctx context.Context, i int) error {
	if i != len(w.team)+1 {
		return verdict.Errorf("the team has %d members; agent %d cannot join next", len(w.team), i)
	}
	return w.addMember(ctx)
}

// addMember registers one more agent and seats it on the scenario's team,
// its record joined in the current round (BOUNTY-REPUTATION counts what
// each member did from there).
func (w *world) addMember(ctx context.Context) error {
	a, err := w.register(ctx)
	if err != nil {
		return err
	}
	w.team = append(w.team, a)
	w.recordOf(a.ID).joined = w.round
	return nil
}
