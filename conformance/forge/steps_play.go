package forge

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

func (w *world) progressAndSession(ctx context.Context) error {
	if _, err := w.progress(ctx, w.me); err != nil {
		return err
	}
	s, err := w.mustOpen(ctx, w.me)
	w.sess = s
	return err
}

// progressJudged: a new agent's progress is continuous and shows its
// current level, the one its session serves (FORGE-PROGRESS).
func (w *world) progressJudged(ctx context.Context) error {
	p, err := w.progress(ctx, w.me)
	if err != nil {
		return err
	}
	if p.CurrentLevel == nil {
		return verdict.Failf("FORGE-PROGRESS", "the current level's public view", "none", "a new agent on a chain of at least 10 levels")
	}
	if p.CurrentLevel.Position != p.progress()+1 {
		return verdict.Failf("FORGE-PROGRESS", p.progress()+1, p.CurrentLevel.Position, "the current level follows the continuous progress")
	}
	if w.sess.Position != p.CurrentLevel.Position {
		return verdict.Failf("FORGE-SESSION-CURRENT", p.CurrentLevel.Position, w.sess.Position, "the session serves the current level")
	}
	return nil
}

// nothingPrivate scans every answer of the scenario for private fields,
// the legacy difficulty and a difficulty tier under any name
// (FORGE-PRIVATE-SERVER-ONLY, FORGE-LEGACY-DIFFICULTY-HIDDEN,
// FORGE-NO-DIFFICULTY-TIERS).
func (w *world) nothingPrivate() error {
	for _, b := range w.bodies {
		var doc any
		if json.Unmarshal(b, &doc) != nil {
			continue
		}
		if k := difficultyKey(doc); k != "" {
			return verdict.Failf("FORGE-LEGACY-DIFFICULTY-HIDDEN", "no difficulty", "field "+k, "an answer to a solver carries the legacy difficulty")
		}
		switch k := findKey(doc, forbiddenKeys); {
		case strings.EqualFold(k, "difficulty"):
			return verdict.Failf("FORGE-LEGACY-DIFFICULTY-HIDDEN", "no difficulty", "field "+k, "an answer to a solver carries the legacy difficulty")
		case k != "":
			return verdict.Failf("FORGE-PRIVATE-SERVER-ONLY", "no private material", "field "+k, "an answer to a solver carries private material")
		}
		if k := tierInLevel(doc); k != "" {
			return verdict.Failf("FORGE-NO-DIFFICULTY-TIERS", "no difficulty tier", "field "+k, "an answer to a solver carries a tier")
		}
	}
	return nil
}

// emptyThenNamed opens a session with the exact body {} and then asks for
// one naming the next level: the {} answer is kept in w.sess (or w.Last
// when it opened nothing), the named one in w.answers.
func (w *world) emptyThenNamed(ctx context.Context) error {
	s, resp, err := w.openSession(ctx, w.me)
	if err != nil {
		return err
	}
	w.sess, w.Last = s, resp
	named, err := w.sendWaiting(ctx, w.me, driver.Request{Method: http.MethodPost, Path: "/api/sessions",
		JSON: map[string]any{"levelId": "seed-02-evens"}, Allow: []int{429}})
	if err != nil {
		return err
	}
	w.answers = append(w.answers, named)
	return nil
}

// emptyAndNamedJudged decides FORGE-SESSION-EMPTY-BODY on what the
// contract fixes: {} opens a session on the current level, and a body
// naming a level opens no other level. Whether the named body is refused
// or its levelId ignored is left open; the reference's refusal is
// FORGE-REF-SESSION-LEVELID, noted only after the MUST conditions.
func (w *world) emptyAndNamedJudged(ctx context.Context) error {
	if w.sess == nil {
		if w.Last.Status == http.StatusTooManyRequests {
			return verdict.Errorf("the target rate-limited a session opening (429, Retry-After %q)", w.Last.Header.Get("Retry-After"))
		}
		return verdict.Failf("FORGE-SESSION-EMPTY-BODY", "the exact body {} opens a session", w.Last.Status, "%s", w.env.HTTP.Secrets().Clip(w.Last.Body))
	}
	p, err := w.progress(ctx, w.me)
	if err != nil {
		return err
	}
	if p.CurrentLevel == nil || w.sess.Position != p.CurrentLevel.Position {
		return verdict.Failf("FORGE-SESSION-CURRENT", "the session on the current level", w.sess.Position, "the {} session")
	}
	named := w.answers[0]
	if named.Status/100 == 2 {
		var s sessionDoc
		if err := named.Decode("FORGE-SESSION-EMPTY-BODY", &s); err != nil {
			return err
		}
		if s.Position != p.CurrentLevel.Position {
			return verdict.Failf("FORGE-SESSION-EMPTY-BODY", "the current level or nothing", s.Position,
				"a body naming a level opened the session at position %d, the current level is %d", s.Position, p.CurrentLevel.Position)
		}
	}
	if named.Status != http.StatusBadRequest {
		w.note("FORGE-REF-SESSION-LEVELID", "400 LEVEL_SELECTION_NOT_ALLOWED", named.Status, "a session body naming a level: %s", w.env.HTTP.Secrets().Clip(named.Body))
	}
	return nil
}

// permutedChallenge is a challenge input's values in another order that is
// no challenge input itself: a legal probe distinct from every challenge
// input (the same values, the same length, so inside the domain), which a
// deployment comparing probes as sorted lists refuses (FORGE-QUERY;
// docs/detection.md, forge round 4). Nil when every challenge input's
// rotations and reversal are challenge inputs or the input itself.
func permutedChallenge(challenges [][]int64) []int64 {
	for _, c := range challenges {
		var cands [][]int64
		for i := 1; i < len(c); i++ {
			cands = append(cands, append(slices.Clone(c[i:]), c[:i]...))
		}
		rev := slices.Clone(c)
		slices.Reverse(rev)
		for _, in := range append(cands, rev) {
			if !containsInput(challenges, in) {
				return in
			}
		}
	}
	return nil
}

func (w *world) wrongTwice(ctx context.Context) error {
	before, err := w.progress(ctx, w.me)
	if err != nil {
		return err
	}
	w.Before = before.progress()
	for range 2 {
		resp, _, err := w.submit(ctx, w.me, w.sess, w.wrongOutputs())
		if err != nil {
			return err
		}
		w.answers = append(w.answers, resp)
	}
	return nil
}

func (w *world) wrongJudged(ctx context.Context) error {
	var first submitDoc
	if w.answers[0].Status/100 == 2 {
		if err := w.answers[0].Decode("FORGE-ONE-SUBMISSION", &first); err != nil {
			return err
		}
		if first.Correct != nil && *first.Correct {
			return verdict.Failf("FORGE-ONE-SUBMISSION", "wrong outputs judged wrong", "correct", "outputs of the wrong type")
		}
	} else {
		w.note("FORGE-REF-WRONG-SUBMISSION", "200 {correct: false}", w.answers[0].Status, "a wrong submission")
	}
	if w.answers[1].Status/100 != 4 {
		return verdict.Failf("FORGE-ONE-SUBMISSION", "the second submission refused", w.answers[1].Status, "%s", w.env.HTTP.Secrets().Clip(w.answers[1].Body))
	}
	p, err := w.progress(ctx, w.me)
	if err != nil {
		return err
	}
	if p.progress() != w.Before {
		return verdict.Failf("FORGE-SUBMIT-ADVANCES", w.Before, p.progress(), "a wrong submission advanced the progress")
	}
	return nil
}

// outOfOrder reads the progress first, so that a progress read cached
// before the clear is seen after it (FORGE-SUBMIT-ADVANCES), then submits
// the right outputs rotated (when they differ) and clears the level in
// order.
func (w *world) outOfOrder(ctx context.Context) error {
	if _, err := w.progress(ctx, w.me); err != nil {
		return err
	}
	s, err := w.mustOpen(ctx, w.me)
	if err != nil {
		return err
	}
	w.sess = s
	outs, _, err := w.infer(ctx, w.me, s, 0)
	if err != nil {
		return err
	}
	rotated := append(slices.Clone(outs[1:]), outs[0])
	if len(outs) > 1 && !sameValues(rotated, outs) {
		resp, _, err := w.submit(ctx, w.me, s, rotated)
		if err != nil {
			return err
		}
		w.Last = resp
	}
	if err := w.shortSubmission(ctx); err != nil {
		return err
	}
	_, d, err := w.clear(ctx, w.me, 0)
	if err != nil {
		return err
	}
	w.Before = s.Position
	w.sess = nil
	if d != nil {
		w.returned = &d.Progress
	}
	if d != nil && d.Progress.CurrentLevel != nil {
		w.sess = &sessionDoc{Position: d.Progress.CurrentLevel.Position}
	}
	return nil
}

func (w *world) orderJudged(ctx context.Context) error {
	if w.Last != nil {
		var d submitDoc
		if w.Last.Status/100 == 2 && w.Last.Decode("FORGE-ORIGINAL-ORDER", &d) == nil && d.Correct != nil && *d.Correct {
			return verdict.Failf("FORGE-ORIGINAL-ORDER", "rotated outputs judged wrong", "correct", "outputs are judged in the challenge inputs' order")
		}
	}
	// FORGE-SUBMIT-ADVANCES: only a correct submission advances, and one
	// short of an output answers no challenge input it leaves out.
	if sh := w.short; sh != nil && sh.CurrentLevel != nil && sh.CurrentLevel.Position > w.Before {
		return verdict.Failf("FORGE-SUBMIT-ADVANCES", w.Before, sh.CurrentLevel.Position,
			"the current level after a submission holding one output fewer than the challenge inputs")
	}
	p, err := w.progress(ctx, w.me)
	if err != nil {
		return err
	}
	if p.CurrentLevel == nil {
		return nil // the cleared level was the last: nothing to unlock
	}
	if p.CurrentLevel.Position <= w.Before {
		return verdict.Failf("FORGE-SUBMIT-ADVANCES", "a position after "+itoa(w.Before), p.CurrentLevel.Position, "after a correct submission")
	}
	if r := w.returned; r != nil {
		if err := r.agrees(p); err != nil {
			return err
		}
	}
	s, err := w.mustOpen(ctx, w.me)
	if err != nil {
		return err
	}
	if s.Position != p.CurrentLevel.Position {
		return verdict.Failf("FORGE-SUBMIT-UNLOCKS", p.CurrentLevel.Position, s.Position, "the next session serves the unlocked level")
	}
	return nil
}

// duplicateKeyProbe sends {"input": legal, "input": challenge}: a reader
// keeping the last key would see a challenge input, one keeping the first
// a legal probe; the kit refuses both readings (FORGE-INPUT-POLICY).
func (w *world) duplicateKeyProbe(ctx context.Context) error {
	legal, _ := json.Marshal(w.distinctProbe())
	challenge, _ := json.Marshal(w.sess.ChallengeInputs[0])
	raw := []byte(`{"input":` + string(legal) + `,"input":` + string(challenge) + `}`)
	resp, err := w.do(ctx, w.me, driver.Request{Method: http.MethodPost, Path: "/api/sessions/" + w.sess.SessionID + "/query", Raw: raw})
	w.Last = resp
	return err
}

func (w *world) duplicateKeyJudged(ctx context.Context) error {
	if w.Last.Status != http.StatusBadRequest || code(w.Last) == "" {
		return verdict.Failf("FORGE-INPUT-POLICY", "400 with a code", w.Last.Status, "%s", w.env.HTTP.Secrets().Clip(w.Last.Body))
	}
	resp, err := w.query(ctx, w.me, w.sess, w.distinctProbe())
	if err != nil {
		return err
	}
	var q struct {
		QueriesUsed *int `json:"queriesUsed"`
	}
	if resp.Status == http.StatusOK && json.Unmarshal(resp.Body, &q) == nil && q.QueriesUsed != nil && *q.QueriesUsed != 1 {
		return verdict.Failf("FORGE-INPUT-POLICY", 1, *q.QueriesUsed, "queriesUsed after a refused probe and a legal one")
	}
	return nil
}

// playSteps registers the steps of features/forge/play.feature.
func (w *world) playSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^a newly registered agent with an open session$`), w.agentWithSession)
	sc.Step(pattern(`^the agent opens a session with \{\} naming the next level in the query string$`), w.sessionByQuery)
	sc.Step(pattern(`^the session is refused or serves the agent's current level$`), w.queryIgnored)
	sc.Step(pattern(`^the first agent clears its level and opens a session on the next, and the second probes that session$`), w.probeOthersSession)
	sc.Step(pattern(`^the second agent's probe is refused$`), w.othersSessionRefused)
	sc.Step(pattern(`^its progress and its next session show nothing of the cleared level$`), w.clearedHidden)
	sc.Step(pattern(`^the first agent clears its level while the second looks on, then the second clears its own$`), w.clearInTurn)
	sc.Step(pattern(`^each position showed both agents the same level, unchanged between reads$`), w.sameLevels)
	sc.Step(pattern(`^the agent reads its progress and opens a session$`), w.progressAndSession)
	sc.Step(pattern(`^the progress is continuous and shows only the current level$`), w.progressJudged)
	sc.Step(pattern(`^no answer carries private material or a difficulty$`), w.nothingPrivate)
	sc.Step(pattern(`^the agent opens a session with \{\} and then one naming the next level$`), w.emptyThenNamed)
	sc.Step(pattern(`^the \{\} session serves the current level and the named level opens nothing else$`), w.emptyAndNamedJudged)
	sc.Step(pattern(`^the agent probes a challenge input, then a legal distinct input and a challenge input reordered$`), w.probeChallenge)
	sc.Step(pattern(`^the challenge input is refused and both distinct probes answered$`), w.probesJudged)
	sc.Step(pattern(`^the agent submits wrong outputs twice$`), w.wrongTwice)
	sc.Step(pattern(`^the agent sends two wrong submissions of its session at once$`), w.racingSubmissions)
	sc.Step(pattern(`^at most one of them is judged$`), w.racingJudged)
	sc.Step(pattern(`^the first is judged wrong without advancing and the second refused$`), w.wrongJudged)
	sc.Step(pattern(`^the agent submits its level's outputs out of order and then in order$`), w.outOfOrder)
	sc.Step(pattern(`^only the ordered submission is correct and the next level is unlocked$`), w.orderJudged)
	sc.Step(pattern(`^the agent sends a probe whose body repeats the input key$`), w.duplicateKeyProbe)
	sc.Step(pattern(`^the probe is refused with a coded 400 and the next probe is the session's first$`), w.duplicateKeyJudged)
	sc.Step(pattern(`^the agent solves its current level$`), w.solveOne)
	sc.Step(pattern(`^no answer before the submission carried the level's expected outputs$`), w.expectedOutputsHidden)
}

func (w *world) agentWithSession(ctx context.Context) error {
	if err := w.newAgent(ctx); err != nil {
		return err
	}
	s, err := w.mustOpen(ctx, w.me)
	w.sess = s
	return err
}

// sessionByQuery opens a session with the exact body {} whose query string
// names the level after the agent's current one.
func (w *world) sessionByQuery(ctx context.Context) error {
	p, err := w.progress(ctx, w.me)
	if err != nil {
		return err
	}
	if p.CurrentLevel == nil {
		return verdict.Errorf("a new agent has no current level")
	}
	w.Before = p.CurrentLevel.Position
	next := w.Before + 1
	path := fmt.Sprintf("/api/sessions?position=%d&level=%d&levelPosition=%d", next, next, next)
	resp, err := w.sendWaiting(ctx, w.me, driver.Request{Method: http.MethodPost, Path: path, Raw: []byte(`{}`), Allow: []int{429}})
	w.Last = resp
	return err
}

// queryIgnored: the session is refused or serves the current level
// (FORGE-NO-LEVEL-SELECTION when it serves the level the query named,
// FORGE-SESSION-CURRENT when it serves yet another one).
func (w *world) queryIgnored() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status/100 != 2 {
		return nil // refused: the agent chose nothing
	}
	var s sessionDoc
	if err := w.Last.Decode("FORGE-SESSION-CURRENT", &s); err != nil {
		return err
	}
	pos := s.Position
	if pos == 0 && s.Level != nil {
		pos = s.Level.Position
	}
	switch pos {
	case w.Before:
		return nil
	case 0:
		return verdict.Skipf("unchecked: the session names no position")
	case w.Before + 1:
		return verdict.Failf("FORGE-NO-LEVEL-SELECTION", w.Before, pos, "a session opened with ?position=%d served that level", pos)
	}
	return verdict.Failf("FORGE-SESSION-CURRENT", w.Before, pos, "the session serves another level than the current one")
}

// clearedHidden: after a clear, the progress and the next session show
// the new current level only: no title, rules or id of the cleared level
// that the new level does not share (FORGE-SESSION-PUBLIC-VIEW).
func (w *world) clearedHidden(ctx context.Context) error {
	if w.sess == nil || w.sess.Level == nil {
		return verdict.Errorf("no cleared level to compare with")
	}
	cleared := *w.sess.Level
	mark := len(w.bodies)
	p, err := w.progress(ctx, w.me)
	if err != nil {
		return err
	}
	if p.CurrentLevel == nil {
		return verdict.Skipf("the cleared level was the chain's last")
	}
	if _, err := w.mustOpen(ctx, w.me); err != nil {
		return err
	}
	cur := p.CurrentLevel
	for _, text := range []string{cleared.Title, cleared.Rules, cleared.LevelID} {
		if len(text) < 6 || strings.Contains(cur.Title+"\n"+cur.Rules+"\n"+cur.LevelID, text) {
			continue
		}
		quoted, _ := json.Marshal(text)
		needle := strings.Trim(string(quoted), `"`)
		for _, b := range w.bodies[mark:] {
			if strings.Contains(string(b), needle) {
				return verdict.Failf("FORGE-SESSION-PUBLIC-VIEW", "the current level's view only", text,
					"an answer after the clear still shows level %d's content", cleared.Position)
			}
		}
	}
	return nil
}

// clearInTurn reads both agents' current levels, clears the first agent's,
// reads again, then clears the second's: the views at each position can
// then be compared between agents and, for the second agent, over time.
func (w *world) clearInTurn(ctx context.Context) error {
	look := func(a *agent, who string) error {
		p, err := w.progress(ctx, a)
		if err != nil {
			return err
		}
		if p.CurrentLevel == nil {
			return verdict.Skipf("the chain ended before %s's level could be compared", who)
		}
		w.sightings = append(w.sightings, sighting{who: who, view: p.CurrentLevel})
		return nil
	}
	steps := []func() error{
		func() error { return look(w.me, "the first agent") },
		func() error { return look(w.other, "the second agent") },
		func() error { _, _, err := w.clear(ctx, w.me, 0); return err },
		func() error { return look(w.me, "the first agent") },
		func() error { return look(w.other, "the second agent") },
		func() error { _, _, err := w.clear(ctx, w.other, 0); return err },
		func() error { return look(w.other, "the second agent") },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// sameLevels judges the sightings clearInTurn took, in this order: the
// second agent's level must not change while it does nothing
// (FORGE-PUBLISHED-IMMUTABLE, or FORGE-CHAIN-LINEAR when another level took
// its position); both agents must meet the same level at positions 1 and 2
// (FORGE-CHAIN-LINEAR, or FORGE-PUBLISHED-IMMUTABLE when one level id shows
// two contents).
func (w *world) sameLevels() error {
	if len(w.sightings) != 5 {
		return verdict.Errorf("five sightings expected, got %d", len(w.sightings))
	}
	a1, b1, a2, b1again, b2 := w.sightings[0], w.sightings[1], w.sightings[2], w.sightings[3], w.sightings[4]
	if err := compareSightings(b1, b1again, "while it did nothing"); err != nil {
		return err
	}
	if err := compareSightings(a1, b1, "at the same moment"); err != nil {
		return err
	}
	return compareSightings(a2, b2, "after each cleared the level before")
}

// sameCount reports whether two stated counts agree; a count either answer
// leaves out is unchecked.
func sameCount(a, b *int) bool { return a == nil || b == nil || *a == *b }
