package bounty

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty"
)

// combine submits (member, share) pairs with the shares the team holds,
// optionally with one share's first y byte flipped.
func (w *world) combine(ctx context.Context, pairs string, corrupt int) error {
	subs, err := w.submissions(pairs, corrupt)
	if err != nil {
		return err
	}
	resp, err := w.call(ctx, http.MethodPost, "/challenge/"+w.cid+"/combine", map[string]any{"submissions": subs})
	if err == nil && resp.Status/100 == 2 {
		w.won, w.closed, w.wonRound = raw(resp), w.cid, w.round
		w.creditWin(subs, w.round)
	}
	return err
}

// submissions builds a combine's entries from (member, share) pairs with
// the shares the team holds, share corrupt with its first y byte flipped.
func (w *world) submissions(pairs string, corrupt int) ([]bounty.Submission, error) {
	list, err := parsePairs(pairs)
	if err != nil {
		return nil, verdict.Errorf("%v", err)
	}
	var subs []bounty.Submission
	for _, p := range list {
		a, err := w.member(p[0])
		if err != nil {
			return nil, err
		}
		h, ok := w.shareHex[p[1]]
		if !ok {
			return nil, verdict.Errorf("nobody in the team solved share %d", p[1])
		}
		if p[1] == corrupt {
			b, _ := hex.DecodeString(h)
			b[0] ^= 0xff
			h = hex.EncodeToString(b)
		}
		subs = append(subs, bounty.Submission{AgentID: a.ID, ShareIndex: p[1], ShareHex: h})
	}
	return subs, nil
}

// combineRefused: a 4xx, no payout, and the registry still names this
// round (the scenario's MUST rule).
func (w *world) combineRefused(ctx context.Context) error {
	if w.Last.Status/100 != 4 {
		return verdict.Failf(w.rule, "a 4xx refusal", w.Last.Status, "%s", w.clip(w.Last.Body))
	}
	return w.roundOpen(ctx)
}

func (w *world) roundOpen(ctx context.Context) error {
	if w.won != nil {
		return verdict.Failf(w.rule, "no win", "a win", "%v", w.won)
	}
	cid, _, err := w.live(ctx)
	if err != nil {
		return err
	}
	if cid != w.cid {
		return verdict.Failf(w.rule, "the round still open", "the round rotated to "+cid, "a refused combine must change nothing")
	}
	return nil
}

func (w *world) equalSplit() error {
	got := w.payouts()
	ids := make([]string, 0, len(got))
	for id := range got {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	if len(ids) == 0 {
		return verdict.Failf("BOUNTY-PAYOUT-SPLIT", "payouts", "none", "")
	}
	base, rest := bounty.BountyAmount/len(ids), bounty.BountyAmount%len(ids)
	for i, id := range ids {
		want := base
		if i < rest {
			want++
		}
		if got[id] != want {
			return verdict.Failf("BOUNTY-PAYOUT-SPLIT", want, got[id], "%s", id)
		}
	}
	return nil
}

// ledgerRecords finds every payout of the win in the ledger (BOUNTY-LEDGER).
func (w *world) ledgerRecords(ctx context.Context) error {
	l, err := w.ledger(ctx, "BOUNTY-LEDGER")
	if err != nil {
		return err
	}
	for id, amount := range w.payouts() {
		found := false
		for _, p := range l.Payouts {
			found = found || (p.AgentID == id && p.Amount == amount && p.ChallengeID == w.closed)
		}
		if !found {
			return verdict.Failf("BOUNTY-LEDGER", fmt.Sprintf("%s paid %d in %s", id, amount, w.closed), "no such ledger line", "")
		}
	}
	return nil
}

func (w *world) manifestPlayMoney() error {
	b := w.man.Bounty
	if b["currency"] != bounty.Currency || b["real_money"] != false {
		return verdict.Failf("BOUNTY-PLAY-MONEY", "currency PLAY, real_money false", b, "manifest bounty")
	}
	return nil
}

func (w *world) ledgerPlayMoney(ctx context.Context) error {
	if bytes.Contains(w.Last.Body, []byte(`"real_money":true`)) {
		return verdict.Failf("BOUNTY-PLAY-MONEY", "real_money false", "real_money true", "combine answer")
	}
	l, err := w.ledger(ctx, "BOUNTY-PLAY-MONEY")
	if err != nil {
		return err
	}
	if l.Currency != bounty.Currency || (l.RealMoney != nil && *l.RealMoney) {
		return verdict.Failf("BOUNTY-PLAY-MONEY", "PLAY, no real money", l.Currency, "ledger")
	}
	return nil
}

// combineSteps registers the steps of features/bounty/combine.feature.
func (w *world) combineSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the team combines "([^"]*)" with share (\d+) corrupted$`), w.combine)
	sc.Step(pattern(`^the combine is refused and the round stays open$`), w.combineRefused)
	sc.Step(pattern(`^the round stays open$`), w.roundOpen)
	sc.Step(pattern(`^the new round's shares reconstruct a master key other than the closed round's$`), w.newMasterKey)
	sc.Step(pattern(`^(\d+) members combine "([^"]*)" at once$`), w.raceCombines)
	sc.Step(pattern(`^exactly one combine wins and every other answers already_solved$`), w.combineRaceSettled)
	sc.Step(pattern(`^the ledger pays the round once$`), w.roundPaidOnce)
	sc.Step(pattern(`^the combine is refused with code "([^"]*)" and the round stays open$`), w.refusedWithCode)
	sc.Step(pattern(`^the corrected combine wins$`), w.correctedWins)
	sc.Step(pattern(`^the team reads every public surface of the round$`), func(ctx context.Context) error { return w.readSurfaces(ctx, false) })
	sc.Step(pattern(`^the team reads every public surface of the closed round$`), func(ctx context.Context) error { return w.readSurfaces(ctx, true) })
	sc.Step(pattern(`^no response carried a share or the master key$`), w.noSecretSeen)
	sc.Step(pattern(`^the winning answer was searched for the master key$`), w.noSecretSeen)
	sc.Step(pattern(`^the team wins the next round with "([^"]*)"$`), w.winNextRound)
	sc.Step(pattern(`^the metrics of both rounds count what the run did there, and the repeated game$`), w.metricsOfBothRounds)
	sc.Step(pattern(`^the payout is an equal split with the remainder to the lowest agent_ids$`), w.equalSplit)
	sc.Step(pattern(`^the ledger records the payout$`), w.ledgerRecords)
	sc.Step(pattern(`^the manifest's bounty is PLAY with real_money false$`), w.manifestPlayMoney)
	sc.Step(pattern(`^the ledger's currency is PLAY with no real money$`), w.ledgerPlayMoney)
	sc.Step(pattern(`^the registry names a new challenge one round later with new puzzles and the same k-of-n$`), w.rotated)
	sc.Step(pattern(`^the closed challenge answers 410 on its manifest and accepts no solve or combine$`), w.closedAnswers410)
	sc.Step(pattern(`^the closed challenge's status and metrics answer 200$`), w.closedReadable)
	sc.Step(pattern(`^the registry's active challenge is the one the win announced$`), w.registryFollows)
	sc.Step(pattern(`^agent (\d+) solves share (\d+) in the new round$`), w.solveInNewRound)
	sc.Step(pattern(`^in the new round (agent \d+ solves share \d+(?:, agent \d+ solves share \d+)*)$`), w.solvesInNewRound)
	sc.Step(pattern(`^agent (\d+) joins the team$`), w.joinTeam)
	sc.Step(pattern(`^the team's highest agent_id solves share (\d+) in the new round$`), w.highestSolvesInNewRound)
	sc.Step(pattern(`^the new round's board lists the team with no shares and no claims$`), w.carriedOver)
	sc.Step(pattern(`^the new round's board shows each winner's track record with the win and its solve$`), w.trackRecords)
	sc.Step(pattern(`^the new round's board shows each winner's track record with both wins and both solves$`), w.trackRecords)
	sc.Step(pattern(`^the round counters are read$`), w.countersBefore)
	sc.Step(pattern(`^current_round and rounds_completed advanced with the win$`), w.countersAdvanced)
	sc.Step(pattern(`^the leaderboard is ordered by PLAY earned, rounds won and accepted solves$`), w.leaderboardOrdered)
	sc.Step(pattern(`^the runner reads the leaderboard$`), w.readLeaderboard)
	sc.Step(pattern(`^the runner can end a season$`), w.canEndSeason)
	sc.Step(pattern(`^the season ends$`), w.endSeason)
	sc.Step(pattern(`^the standings start again and the ended season keeps its top three$`), w.seasonReset)
	sc.Step(pattern(`^every profile's reputation follows the formula$`), w.reputationFormula)
	sc.Step(pattern(`^the closed round's metrics contain no agent_id, contact, share or solution$`), w.metricsAnonymous)
}

// rotated: a new challenge_id, round + 1, other puzzles, same k and n
// (BOUNTY-ROTATION).
func (w *world) rotated(ctx context.Context) error {
	old := w.man
	if err := w.liveChallenge(ctx); err != nil {
		return err
	}
	switch {
	case w.cid == old.ChallengeID:
		return verdict.Failf("BOUNTY-ROTATION", "a new challenge_id", w.cid, "after the win")
	case w.round != old.Round+1:
		return verdict.Failf("BOUNTY-ROTATION", old.Round+1, w.round, "the next round's number")
	case w.man.Threshold != old.Threshold:
		return verdict.Failf("BOUNTY-ROTATION", old.Threshold, w.man.Threshold, "same k-of-n")
	}
	for _, p := range w.man.Puzzles {
		q, err := old.puzzleOf(p.ShareIndex)
		if err == nil && q.Params == p.Params {
			return verdict.Failf("BOUNTY-ROTATION", "new puzzles", "share "+fmt.Sprint(p.ShareIndex)+" unchanged", "")
		}
	}
	return nil
}

// closedAnswers410 tries every round-bound endpoint on the closed
// challenge. What the contract fixes is BOUNTY-STALE-410: the closed
// challenge's manifest answers 410 (rounds.stale_manifest), and a closed
// round accepts no solve and no combine. That every other round-bound
// endpoint answers 410 too is the reference's choice
// (BOUNTY-REF-STALE-410), noted only once the MUST conditions are decided.
func (w *world) closedAnswers410(ctx context.Context) error {
	c := "/challenge/" + w.closed
	a := w.team[0]
	calls := []struct {
		method, path string
		body         any
		write        bool
	}{
		{http.MethodGet, c + "/manifest", nil, false},
		{http.MethodGet, c + "/puzzle/2", nil, false},
		{http.MethodPost, c + "/solve", w.closedSolve(a), true},
		{http.MethodPost, c + "/combine", map[string]any{"submissions": []any{}}, true},
		{http.MethodGet, c + "/peers", nil, false},
	}
	var other []string // the calls that answered anything but 410
	for i, call := range calls {
		resp, err := w.call(ctx, call.method, call.path, call.body)
		if err != nil {
			return err
		}
		switch {
		case i == 0 && resp.Status != http.StatusGone:
			return verdict.Failf("BOUNTY-STALE-410", 410, resp.Status, "GET %s of a closed round", call.path)
		case call.write && resp.Status/100 == 2:
			return verdict.Failf("BOUNTY-STALE-410", "a refusal (the reference's 410)", resp.Status, "%s %s on a closed round: %s", call.method, call.path, w.clip(resp.Body))
		case resp.Status != http.StatusGone:
			other = append(other, fmt.Sprintf("%s %s: %d", call.method, call.path, resp.Status))
		}
	}
	if len(other) > 0 {
		w.note("BOUNTY-REF-STALE-410", 410, strings.Join(other, "; "), "round-bound endpoints of a closed round")
	}
	return nil
}

func (w *world) closedReadable(ctx context.Context) error {
	for _, p := range []string{"/status", "/metrics"} {
		if err := w.want2xx(ctx, "BOUNTY-CLOSED-READABLE", http.MethodGet, "/challenge/"+w.closed+p, nil, nil); err != nil {
			return err
		}
	}
	return nil
}

func (w *world) registryFollows(ctx context.Context) error {
	cid, _, err := w.live(ctx)
	if err != nil {
		return err
	}
	if next, ok := w.won["next_challenge_id"].(string); ok && next != cid {
		return verdict.Failf("BOUNTY-REGISTRY", next, cid, "the active challenge after the win")
	}
	if cid == w.closed {
		return verdict.Failf("BOUNTY-REGISTRY", "the new round", cid, "the closed challenge is still active")
	}
	return nil
}

func (w *world) solveInNewRound(ctx context.Context, i, s int) error {
	if err := w.liveChallenge(ctx); err != nil {
		return err
	}
	a, err := w.member(i)
	if err != nil {
		return err
	}
	if _, err := w.solveAs(ctx, w.cid, w.man, a, s); err != nil {
		if f, ok := err.(*verdict.Failure); ok {
			f.RuleID = "BOUNTY-IDENTITY-PERSIST"
		}
		return err
	}
	return nil
}

// highestSolvesInNewRound: the member with the highest agent_id solves
// share s in the new round. After a three-way win the lowest agent_id
// takes the split's remainder and the other two tie on PLAY and rounds
// won, so this solve decides their order by the third key of the ranking
// rule (BOUNTY-LEADERBOARD) against any order by agent_id.
func (w *world) highestSolvesInNewRound(ctx context.Context, s int) error {
	top := 0
	for i, a := range w.team {
		if a.ID > w.team[top].ID {
			top = i
		}
	}
	return w.solveInNewRound(ctx, top+1, s)
}

// carriedOver: every listed member is still listed in the new round,
// holding nothing and claiming nothing, on its entries and in the intents
// block (BOUNTY-CARRYOVER).
func (w *world) carriedOver(ctx context.Context) error {
	if err := w.liveChallenge(ctx); err != nil {
		return err
	}
	b, err := w.boardUnjudged(ctx, w.cid)
	if err != nil {
		return err
	}
	if err := w.nothingCarried(b); err != nil {
		return err
	}
	if err := b.servedLive(); err != nil {
		return err
	}
	return w.holdingsAsSolved(w.cid, b)
}

// nothingCarried: every listed member is on the new round's board b with
// no shares and no claim, on its entry or in the intents block
// (BOUNTY-CARRYOVER), judged before the checks every board gets, which
// would name a claim carried into the intents as BOUNTY-INTENT's.
func (w *world) nothingCarried(b *boardDoc) error {
	for _, a := range w.team {
		e, ok := b.entry(a.ID)
		if !ok {
			return verdict.Failf("BOUNTY-CARRYOVER", a.ID+" still listed", "not on the new board", "")
		}
		if len(e.SharesHeld) > 0 || e.WorkingOn != nil {
			return verdict.Failf("BOUNTY-CARRYOVER", "no shares, no claim", fmt.Sprintf("shares %v, working_on %s", e.SharesHeld, claimText(e.WorkingOn)), "%s", a.ID)
		}
		// The intents block shows claims too: a claim carried over there
		// is carried over (a board without the block is unchecked here).
		for share, who := range b.Intents.ByShare {
			if slices.Contains(who, a.ID) {
				return verdict.Failf("BOUNTY-CARRYOVER", "no claim in the new round's intents", "claimant of share "+share, "%s", a.ID)
			}
		}
	}
	return nil
}

// leaderboardOrdered judges the season standings (BOUNTY-LEADERBOARD):
// they rank by PLAY earned, then rounds won, then accepted solves, and
// every winner of the round is ranked. The list is read in any layout the
// contract leaves open (standingsOf); a layout other than the reference's
// is noted (BOUNTY-REF-LEADERBOARD-SHAPE) after the order is judged.
// readLeaderboard reads the standings before a write, so that standings
// cached then are seen stale after it (winnersRanked).
func (w *world) readLeaderboard(ctx context.Context) error {
	_, err := w.call(ctx, http.MethodGet, "/leaderboard.json", nil)
	return err
}

func (w *world) leaderboardOrdered(ctx context.Context) error {
	resp, err := w.call(ctx, http.MethodGet, "/leaderboard.json", nil)
	if err != nil {
		return err
	}
	if resp.Status/100 != 2 {
		return verdict.Failf("BOUNTY-LEADERBOARD", "2xx", resp.Status, "GET /leaderboard.json: %s", w.clip(resp.Body))
	}
	list, reference, ok := standingsOf(resp.Body)
	if !ok {
		w.note("BOUNTY-REF-LEADERBOARD-SHAPE", "{standings: [{agent_id, play_earned, rounds_won, accepted_solves}]}", w.clip(resp.Body), "GET /leaderboard.json")
		return verdict.Skipf("unchecked: the leaderboard shows no list of standings with an agent id, PLAY earned, rounds won and accepted solves")
	}
	for i := 1; i < len(list); i++ {
		if a, b := list[i-1], list[i]; ranksAbove(b, a) {
			return verdict.Failf("BOUNTY-LEADERBOARD", "PLAY, then rounds won, then solves, descending", fmt.Sprintf("%s above %s", a.AgentID, b.AgentID), "")
		}
	}
	if err := w.winnersRanked(list); err != nil {
		return err
	}
	if !reference {
		w.note("BOUNTY-REF-LEADERBOARD-SHAPE", "{standings: [{agent_id, play_earned, rounds_won, accepted_solves}]}", w.clip(resp.Body), "the standings were read under other names")
	}
	return nil
}

// winnersRanked fails BOUNTY-LEADERBOARD when a winner of the round is
// missing from standings that should hold it: a list that ends with a
// standing at least as good as the winner's least possible one (its payout,
// one win, one solve) may be cut short, so there its absence is unchecked.
func (w *world) winnersRanked(list []standingDoc) error {
	paid := w.payouts()
	for _, a := range w.team {
		if st, ok := standingOf(list, a.ID); ok {
			// The team registered in this scenario, so a winner's PLAY is
			// this round's payout: less is a standing read before the
			// win (a cache no win invalidates).
			if st.PlayEarned < float64(paid[a.ID]) {
				return verdict.Failf("BOUNTY-LEADERBOARD", fmt.Sprintf("%s with at least the %d PLAY it was just paid", a.ID, paid[a.ID]),
					st.PlayEarned, "a winner's standing after its win")
			}
			continue
		}
		least := standingDoc{AgentID: a.ID, PlayEarned: float64(paid[a.ID]), RoundsWon: 1, AcceptedSolves: 1}
		if n := len(list); n > 0 && !ranksAbove(least, list[n-1]) {
			return verdict.Skipf("unchecked: %s is not in standings that may be cut short (%d listed)", a.ID, n)
		}
		return verdict.Failf("BOUNTY-LEADERBOARD", a.ID+" in the standings", "absent", "a winner")
	}
	return nil
}

// reputationFormula reads each member's profile: reputation must be
// 10*rounds_won + 3*accepted_solves + rounds_played - 10*strikes
// (BOUNTY-REPUTATION). A profile without those fields is unchecked.
func (w *world) reputationFormula(ctx context.Context) error {
	for _, a := range w.team {
		var p map[string]*int
		resp, err := w.call(ctx, http.MethodGet, "/agents/"+a.ID, nil)
		if err != nil {
			return err
		}
		_ = resp.Decode("BOUNTY-PROFILE-READ", &p)
		need := []string{"reputation", "rounds_won", "accepted_solves", "rounds_played"}
		for _, f := range need {
			if p[f] == nil {
				return verdict.Skipf("unchecked: the profile does not show %s", f)
			}
		}
		strikes := 0
		if p["operator_strikes"] != nil {
			strikes = *p["operator_strikes"]
		}
		want := 10**p["rounds_won"] + 3**p["accepted_solves"] + *p["rounds_played"] - 10*strikes
		if *p["reputation"] != want {
			return verdict.Failf("BOUNTY-REPUTATION", want, *p["reputation"], "%s", a.ID)
		}
		if err := w.termsAsPlayed(a.ID, *p["rounds_won"], *p["accepted_solves"]); err != nil {
			return err
		}
	}
	return nil
}

// metricsAnonymous: the closed round's metrics name no member, contact or
// share (BOUNTY-METRICS).
func (w *world) metricsAnonymous(ctx context.Context) error {
	resp, err := w.call(ctx, http.MethodGet, "/challenge/"+w.closed+"/metrics", nil)
	if err != nil {
		return err
	}
	if resp.Status/100 != 2 {
		return verdict.Failf("BOUNTY-METRICS", 200, resp.Status, "metrics of the closed round")
	}
	for _, a := range w.team {
		for _, needle := range []string{a.ID, contactOf(a)} {
			if bytes.Contains(resp.Body, []byte(needle)) {
				return verdict.Failf("BOUNTY-METRICS", "no identities or contacts", needle, "in metrics")
			}
		}
	}
	for _, h := range w.shareHex {
		if bytes.Contains(resp.Body, []byte(h)) {
			return verdict.Failf("BOUNTY-METRICS", "no shares", "a share_hex", "in metrics")
		}
	}
	body := bytes.ToLower(resp.Body)
	for _, s := range w.solutions {
		if bytes.Contains(body, []byte(s)) {
			return verdict.Failf("BOUNTY-METRICS", "no solutions", "a solution the run sent", "in metrics")
		}
	}
	return nil
}

// noteSolution keeps the hex values of a solution long enough that
// finding one in an answer cannot be chance (16 hex digits or more):
// what metrics must not expose (BOUNTY-METRICS).
func (c *client) noteSolution(sol bounty.Solution) {
	for _, h := range []string{sol.PlaintextHex, sol.NonceHex} {
		if len(h) >= 16 {
			c.solutions = append(c.solutions, strings.ToLower(h))
		}
	}
}
