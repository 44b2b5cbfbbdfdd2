package phantompress

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// budgetAtMost checks the run's budget stays within n turns after an
// extension past it, whether the target refused the extension or clamped it
// (the seed fixes the limit, not the answer: PP-RUN-TURN-LIMIT).
func (w *world) budgetAtMost(ctx context.Context, n int) error {
	if w.Status()/100 != 2 && w.Status()/100 != 4 {
		return verdict.Failf(w.rule(), "a refusal or a clamped extension", w.Status(), "%s", clip(w.Body()))
	}
	s, err := w.fetchState(ctx)
	if err != nil {
		return err
	}
	if s.BudgetTurns > n || s.BudgetTurns < w.snap.BudgetTurns {
		return verdict.Failf(w.rule(), fmt.Sprintf("a budget from %d to %d", w.snap.BudgetTurns, n), s.BudgetTurns, "budget_turns after extending past the limit")
	}
	w.m.State = s
	return nil
}

// budgetNow checks that the kit's extend body was taken (PP-WIRE-BODIES)
// and the run's budget is now n turns.
func (w *world) budgetNow(ctx context.Context, n int) error {
	if err := w.wireBody("extend"); err != nil {
		return err
	}
	return w.budgetIs(ctx, n)
}

// spendWholeBudget looks at the case until the run's turn reaches its
// budget.
func (w *world) spendWholeBudget(ctx context.Context) error {
	for w.m.State.Turn < w.m.State.BudgetTurns {
		if err := w.act(ctx, engine.ActLook, ""); err != nil {
			return err
		}
	}
	return nil
}

// logRecordsExtension checks that the public log records the budget
// extension from one figure to the other: in the kit's extensions[]
// (PP-RUN-EXTEND-LOGGED), or else in some object of a log of another shape
// (PP-RUN-LOG).
func (w *world) logRecordsExtension(ctx context.Context, from, to int) error {
	if err := w.wireBody("extend"); err != nil {
		return err
	}
	if _, err := w.getLog(ctx); err != nil {
		return err
	}
	if hasKey(w.Body(), "extensions") {
		var l runLog
		json.Unmarshal(w.Body(), &l)
		for _, e := range l.Extensions {
			if e.From == from && e.To == to {
				return nil
			}
		}
		return verdict.Failf("PP-RUN-EXTEND-LOGGED", fmt.Sprintf("an extension %d -> %d", from, to), l.Extensions, "")
	}
	if holdsPair(withoutState(w.Body()), from, to) {
		return nil
	}
	return w.shapeGate("PP-RUN-LOG", "the kit's extensions[{from, to}]", clip(w.Body()), "no object of the log holds %d and %d", from, to)
}

// freshSeededRun starts a run with the default budget and a custom seed.
func (w *world) freshSeededRun(ctx context.Context, seed string) error {
	return w.startRun(ctx, defaultBudget, &seed)
}

// fetchLeaderboard fetches the leaderboard, which needs no key.
func (w *world) fetchLeaderboard(ctx context.Context) error {
	_, err := w.do(ctx, http.MethodGet, "/leaderboard", "", nil, nil)
	return err
}

// newAgentFinishedSeeded registers a new agent and hedges a run with a
// custom seed to its end, unless the pool's quota is spent.
func (w *world) newAgentFinishedSeeded(ctx context.Context, seed string) error {
	p := poolOf(w.env)
	if why := p.spent(w.env); why != "" {
		return verdict.Skipf("%s", why)
	}
	me, err := w.register(ctx, fmt.Sprintf("pp-seeded-%d", w.env.Seed%1000000))
	if err != nil {
		return err
	}
	p.regs++
	if err := w.startRunAs(ctx, me, defaultBudget, &seed); err != nil {
		return err
	}
	return w.hedgeThrough(ctx)
}

// noLeaderboardRow checks that the leaderboard mentions neither the agent
// nor its run when its only run was seeded (PP-RUN-SEEDED).
func (w *world) noLeaderboardRow() error {
	if err := w.wantStatus(http.StatusOK); err != nil {
		return err
	}
	// Any mention of the agent or its run, whatever the board's shape.
	for _, id := range []string{w.me.ID, w.me.Name, w.run} {
		if id != "" && strings.Contains(string(w.Body()), `"`+id+`"`) {
			return verdict.Failf("PP-RUN-SEEDED", "no row for an agent whose only run is seeded", clip(w.Body()), "found %q", id)
		}
	}
	return nil
}

// rowHoldsFinalScore checks that the agent's leaderboard row holds at least
// the final score of its finished run, or that a full board of 50 may leave
// it out (PP-LEADERBOARD; PP-OPENAPI for the board's shape).
func (w *world) rowHoldsFinalScore() error {
	if !hasKey(w.Body(), "entries") {
		return w.shapeGate("PP-OPENAPI", "the kit's entries[]", clip(w.Body()), "the leaderboard's shape")
	}
	s := w.m.State
	final := seedScore(s.Points, s.Trust, s.Turn)
	es := leaderEntries(w.Body())
	for _, e := range es {
		if e.Agent.ID == w.me.ID {
			if e.Score < final {
				return verdict.Failf(w.rule(), fmt.Sprintf("a best score >= %d", final), e.Score, "the row of an agent that finished a run with %d", final)
			}
			return nil
		}
	}
	if len(es) < 50 {
		return verdict.Failf(w.rule(), "a row for the agent", len(es), "an agent with a finished public unseeded run scoring %d is not ranked on a board of fewer than 50", final)
	}
	return nil
}

// leaderboardRanked checks that the leaderboard holds 1 to 50 rows ranked
// 1.. by falling score, one per agent (PP-LEADERBOARD; PP-OPENAPI for the
// board's shape).
func (w *world) leaderboardRanked() error {
	if !hasKey(w.Body(), "entries") {
		return w.shapeGate("PP-OPENAPI", "the kit's entries[]", clip(w.Body()), "the leaderboard's shape")
	}
	es := leaderEntries(w.Body())
	seen := map[string]bool{}
	for i, e := range es {
		if seen[e.Agent.ID] || (i > 0 && es[i-1].Score < e.Score) || e.Rank != i+1 {
			return verdict.Failf("PP-LEADERBOARD", "rows ranked 1.. by falling score, one per agent", es, "row %d", i+1)
		}
		seen[e.Agent.ID] = true
	}
	if len(es) > 50 || len(es) == 0 {
		return verdict.Failf("PP-LEADERBOARD", "1-50 rows", len(es), "")
	}
	return nil
}

// startReplayRun starts a second run with the custom seed of the first and
// keeps it as the second run, leaving the first as it was.
func (w *world) startReplayRun(ctx context.Context) error {
	first := w.first
	seed := "conformance-replay"
	if err := w.startRun(ctx, defaultBudget, &seed); err != nil {
		return err
	}
	w.second = &created{RunID: w.run, State: w.m.State}
	w.first = first
	return nil
}

// sameFirstCase checks that two distinct runs started with one custom seed
// show the same first case and are marked seeded (PP-RUN-SEED-REPLAY).
func (w *world) sameFirstCase() error {
	a, b := w.first.State.Case, w.second.State.Case
	if w.first.RunID == w.second.RunID || !reflect.DeepEqual(a, b) || !w.second.State.Seeded {
		return verdict.Failf("PP-RUN-SEED-REPLAY", a, b, "two runs with one custom seed")
	}
	return nil
}

// hideRun sets the run's visibility to hidden (PP-WIRE-BODIES judges the
// kit's body).
func (w *world) hideRun(ctx context.Context) error { return w.visibility(ctx, "hidden") }

// publishRun sets the run's visibility back to public (PP-WIRE-BODIES
// judges the kit's body).
func (w *world) publishRun(ctx context.Context) error { return w.visibility(ctx, "public") }

// hiddenLogNotFound checks that the run's public log answers 404 (the
// scenario's rule).
func (w *world) hiddenLogNotFound(ctx context.Context) error {
	if _, err := w.do(ctx, http.MethodGet, "/runs/"+w.run, "", nil, nil); err != nil {
		return err
	}
	return w.wantStatus(http.StatusNotFound)
}

// finishSecondRun hedges a second public, unseeded run of the scenario's
// agent to its end, so the leaderboard has two runs of one agent to fold
// into one row (PP-LEADERBOARD). The scenario keeps the first run as its own.
func (w *world) finishSecondRun(ctx context.Context) error {
	p := poolOf(w.env)
	p.mu.Lock()
	why := p.spent(w.env)
	if why == "" && w.env.Live() && p.full(w.me) {
		why = fmt.Sprintf("the scenario's agent has spent its share of the plan (%s)", p.plan)
	}
	p.mu.Unlock()
	if why != "" {
		return verdict.Skipf("%s", why)
	}
	run, m, first := w.run, w.m, w.first
	if err := w.startRunAs(ctx, w.me, defaultBudget, nil); err != nil {
		return err
	}
	if err := w.hedgeThrough(ctx); err != nil {
		return err
	}
	w.second = &created{RunID: w.run, State: w.m.State}
	w.run, w.m, w.first = run, m, first
	return nil
}

// newAgentReadsThenFinishes registers a new agent, reads the leaderboard
// while the agent has no finished run, then hedges a run of it to its end:
// a board cached at that read and never invalidated by the finish is then
// seen stale (PP-LEADERBOARD). A new agent, since a pooled one may already
// be ranked with a score as high.
func (w *world) newAgentReadsThenFinishes(ctx context.Context) error {
	me, err := w.registerExtra(ctx, fmt.Sprintf("pp-board-%d", w.env.Seed%1000000))
	if err != nil {
		return err
	}
	if err := w.fetchLeaderboard(ctx); err != nil {
		return err
	}
	if err := w.startRunAs(ctx, me, defaultBudget, nil); err != nil {
		return err
	}
	return w.hedgeThrough(ctx)
}

// registerExtra registers one more agent beside the scenario's own, counted
// in the pool's registrations, unless the pool's quota is spent (a skip).
func (w *world) registerExtra(ctx context.Context, name string) (*identity, error) {
	p := poolOf(w.env)
	p.mu.Lock()
	why := p.spent(w.env)
	p.mu.Unlock()
	if why != "" {
		return nil, verdict.Skipf("%s", why)
	}
	me, err := w.register(ctx, name)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.regs++
	p.mu.Unlock()
	return me, nil
}

// otherAgentStartsRun registers a second agent and starts one public,
// unseeded run for it, so the leaderboard has two agents whose scores
// differ and its order can be seen (PP-LEADERBOARD). The scenario keeps its
// own agent and run.
func (w *world) otherAgentStartsRun(ctx context.Context) error {
	other, err := w.registerExtra(ctx, "pp-conformance-rival")
	if err != nil {
		return err
	}
	me, run, m, first := w.me, w.run, w.m, w.first
	defer func() { w.rival, w.me, w.run, w.m, w.first = w.run, me, run, m, first }()
	return w.startRunAs(ctx, other, defaultBudget, nil)
}

// runsSteps registers the steps of features/phantom-press/runs.feature.
func runsSteps(sc *suite.ScenarioContext, w *world) {
	sc.Step(pattern(`^the public log records every action the agent took but status$`), w.logRecordsEveryAction)
	sc.Step(pattern(`^the public log mentions the ID every accepted action named$`), w.logHoldsArgs)
	sc.Step(pattern(`^the budget does not exceed (\d+) turns$`), w.budgetAtMost)
	sc.Step(pattern(`^the budget is now (\d+) turns$`), w.budgetNow)
	sc.Step(pattern(`^the agent has spent the whole budget$`), w.spendWholeBudget)
	sc.Step(pattern(`^the public log records the extension from (\d+) to (\d+) turns$`), w.logRecordsExtension)
	sc.Step(pattern(`^a fresh run with the custom seed "([^"]*)"$`), w.freshSeededRun)
	sc.Step(pattern(`^the agent fetches the leaderboard$`), w.fetchLeaderboard)
	sc.Step(pattern(`^a new agent has finished a run with the custom seed "([^"]*)"$`), w.newAgentFinishedSeeded)
	sc.Step(pattern(`^the agent has no row on the leaderboard$`), w.noLeaderboardRow)
	sc.Step(pattern(`^the agent's row holds at least the run's final score$`), w.rowHoldsFinalScore)
	sc.Step(pattern(`^the leaderboard is ranked by score with one row per agent and at most 50 rows$`), w.leaderboardRanked)
	sc.Step(pattern(`^the agent has finished a second run$`), w.finishSecondRun)
	sc.Step(pattern(`^a new agent read the leaderboard, then finished a run$`), w.newAgentReadsThenFinishes)
	sc.Step(pattern(`^another agent has started a public run$`), w.otherAgentStartsRun)
	sc.Step(pattern(`^the agent starts another run with the same seed$`), w.startReplayRun)
	sc.Step(pattern(`^both runs show the same first case$`), w.sameFirstCase)
	sc.Step(pattern(`^the agent lists the (\d+) most recent runs$`), w.listRecentRuns)
	sc.Step(pattern(`^the run is among at most (\d+) listed runs$`), w.runAmongRecent)
	sc.Step(pattern(`^at most (\d+) runs? (?:is|are) listed$`), w.atMostRecent)
	sc.Step(pattern(`^the runs listed so far are noted$`), w.noteListedRuns)
	sc.Step(pattern(`^no run listed is older than the other agent's run$`), w.noneOlderThanRival)
	sc.Step(pattern(`^the agent hides the run$`), w.hideRun)
	sc.Step(pattern(`^the run has been hidden$`), w.hideRun)
	sc.Step(pattern(`^the agent makes the run public again$`), w.publishRun)
	sc.Step(pattern(`^the recent runs are noted$`), w.noteRecentBeforeHiding)
	sc.Step(pattern(`^the run is listed again among the recent runs$`), w.listedAgain)
	sc.Step(pattern(`^fetching the public log of the run is refused with status 404$`), w.hiddenLogNotFound)
	sc.Step(pattern(`^a run hedged through to the end$`), w.hedgedRun)
	sc.Step(pattern(`^the agent reviews the run with (\d+) characters$`), w.review)
	sc.Step(pattern(`^the public log shows the review$`), w.logShowsReview)
	sc.Step(pattern(`^a second review is refused$`), w.secondReviewRefused)
	sc.Step(pattern(`^the agent comments "([^"]*)"$`), w.comment)
	sc.Step(pattern(`^the agent comments with (\d+) characters$`), w.commentOfLength)
	sc.Step(pattern(`^the agent comments with (\d+) single-byte characters$`), w.commentOfASCII)
	sc.Step(pattern(`^the comment is (accepted|refused)$`), w.commentOutcome)
	sc.Step(pattern(`^the agent has written 100 comments$`), w.writeMaxComments)
}

// logHoldsArgs checks, whatever the log's shape, that the public log of the
// run mentions the ID every accepted read, interview and answer of the
// scenario named: it is the full log (PP-RUN-LOG-FULL: Full run log).
func (w *world) logHoldsArgs(ctx context.Context) error {
	if len(w.args) == 0 {
		return verdict.Errorf("the scenario's accepted actions carried no argument")
	}
	if err := w.fetchRawLog(ctx); err != nil {
		return err
	}
	var v map[string]any
	if json.Unmarshal(w.Body(), &v) != nil {
		return verdict.Failf("PP-RUN-LOG-FULL", "a JSON log", clip(w.Body()), "")
	}
	delete(v, "state") // the run's state lists every ID of its case whatever was done
	all := strings.Join(stringsIn(v), "\n")
	for _, a := range w.args {
		if !strings.Contains(all, a) {
			return verdict.Failf("PP-RUN-LOG-FULL", "the argument "+a, clip(w.Body()), "an accepted action's argument is missing from the public log")
		}
	}
	return nil
}

// logRecordsEveryAction fetches the public log and judges it with
// judgeRunLog (PP-RUN-LOG-FULL).
func (w *world) logRecordsEveryAction(ctx context.Context) error {
	if len(w.taken) == 0 {
		return verdict.Errorf("the scenario took no action to look for in the log")
	}
	if err := w.fetchRawLog(ctx); err != nil {
		return err
	}
	missing, unchecked := judgeRunLog(w.Body(), w.taken)
	switch {
	case missing != "":
		return verdict.Failf("PP-RUN-LOG-FULL", "every action but status in the public log", clip(w.Body()), "%s", missing)
	case statusLogged(w.Body(), w.taken):
		// action_list: status (ターン非消費・ログ非記録 / not logged).
		return verdict.Failf("PP-STATUS", "no status entry in the public log", clip(w.Body()), "the log's entries name the status action")
	case unchecked != "":
		return verdict.Skipf("unchecked: %s", unchecked)
	}
	return nil
}

// review posts a review of n characters on the run.
func (w *world) review(ctx context.Context, n int) error {
	_, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/review", w.me.Key, map[string]string{"text": repeatRunes(n)}, nil)
	return err
}

// hedgedRun starts a run with the default budget and hedges it through to
// its end.
func (w *world) hedgedRun(ctx context.Context) error {
	if err := w.startRun(ctx, defaultBudget, nil); err != nil {
		return err
	}
	return w.hedgeThrough(ctx)
}

// logShowsReview checks that the kit's review body was taken
// (PP-WIRE-BODIES) and the public log shows the 2000-character review
// (PP-RUN-LOG).
func (w *world) logShowsReview(ctx context.Context) error {
	if err := w.wireBody("review"); err != nil {
		return w.reviewLimitOrShape(ctx, err)
	}
	if _, err := w.getLog(ctx); err != nil {
		return err
	}
	if !strings.Contains(string(w.Body()), repeatRunes(2000)) {
		return w.shapeGate("PP-RUN-LOG", "the 2000-character review in the run log", clip(w.Body()), "the kit shows the review in the public log")
	}
	return nil
}

// reviewLimitOrShape tells a refused 2000-character review apart: when a
// one-character review of the same run is then accepted, the target reads
// the kit's body and refused the length the seed allows (PP-REVIEW);
// otherwise the body's shape is the question (shape, PP-WIRE-BODIES).
func (w *world) reviewLimitOrShape(ctx context.Context, shape error) error {
	refused := w.Status()
	if refused < 400 || refused >= 500 {
		return shape
	}
	if err := w.review(ctx, 1); err != nil {
		return err
	}
	if w.Status() >= 200 && w.Status() < 300 {
		return verdict.Failf("PP-REVIEW", "a 2000-character review accepted", refused, "a one-character review of the same run was accepted")
	}
	return shape
}

// secondReviewRefused sends a second review of the run and checks that it
// is refused with a 4xx other than 401 and 404 (PP-REVIEW).
func (w *world) secondReviewRefused(ctx context.Context) error {
	if err := w.review(ctx, 10); err != nil {
		return err
	}
	if w.Status() < 400 || w.Status() >= 500 || w.Status() == http.StatusUnauthorized || w.Status() == http.StatusNotFound {
		return verdict.Failf("PP-REVIEW", "a refusal (400 or 409)", w.Status(), "a second review of one run: %s", clip(w.Body()))
	}
	return nil
}

// comment marks the run and comments the given text.
func (w *world) comment(ctx context.Context, text string) error {
	w.mark()
	return w.act(ctx, engine.ActComment, text)
}

// commentOfLength marks the run and comments a text of n characters.
// commentOfASCII comments n single-byte characters: as many bytes as
// characters, so either unit of <text max 500> reads it the same way
// (PP-COMMENT-LENGTH).
func (w *world) commentOfASCII(ctx context.Context, n int) error {
	w.mark()
	w.sized = strings.Repeat("a", n)
	return w.act(ctx, engine.ActComment, w.sized)
}

// commentOfLength comments n Japanese characters (3 bytes each in UTF-8).
func (w *world) commentOfLength(ctx context.Context, n int) error {
	w.mark()
	w.sized = repeatRunes(n)
	return w.act(ctx, engine.ActComment, w.sized)
}

// commentOutcome checks that the last comment was accepted or refused as
// the outline says (PP-COMMENT-LENGTH). A comment within 500 characters
// but over 500 bytes is accepted only on the kit's reading of the unit
// (PP-COMMENT-CHARS: the seed's <text max 500> names none), so its
// refusal is that rule's, never the MUST length rule's.
func (w *world) commentOutcome(outcome string) error {
	if outcome == "refused" && w.last == nil && w.Status() == http.StatusBadRequest {
		return nil // the seed gives ok:false no status: a 400 refusal is as faithful
	}
	if w.last == nil || w.last.OK != (outcome == "accepted") {
		rule := "PP-COMMENT-LENGTH"
		if outcome == "accepted" && len(w.sized) > seedMaxCommentRunes {
			rule = "PP-COMMENT-CHARS"
		}
		return verdict.Failf(rule, outcome, w.last, "")
	}
	return nil
}

// writeMaxComments writes the run's maximum number of comments, live or
// embedded, then marks the run.
func (w *world) writeMaxComments(ctx context.Context) error {
	// PP-COMMENT: comments spend no turn, so a live run can afford the
	// 100 (each is a write of the run's plan); the model checks that each
	// of them, the 100th included, is accepted.
	for i := 0; i < seedMaxComments; i++ {
		if err := w.act(ctx, engine.ActComment, "メモ"+strconv.Itoa(i)); err != nil {
			return err
		}
	}
	w.mark()
	return nil
}
