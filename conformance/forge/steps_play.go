package forge

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	rforge "github.com/agentgames/conformance/reference/forge"
	"github.com/agentgames/conformance/reference/forge/dsl"
	"github.com/agentgames/conformance/reference/forge/solver"
)

// liveLevelCap bounds how many levels a live chain walk solves.
const liveLevelCap = 12

func (w *world) playSteps(sc *godog.ScenarioContext) {
	sc.Step(pattern(`^the agent reads its progress and opens a session$`), w.progressAndSession)
	sc.Step(pattern(`^the progress is continuous and shows only the current level$`), w.progressJudged)
	sc.Step(pattern(`^no answer carries private material or a difficulty$`), w.nothingPrivate)
	sc.Step(pattern(`^the agent opens a session naming a level and then one with \{\}$`), w.namedThenEmpty)
	sc.Step(pattern(`^the named level is refused and the \{\} session serves the current level$`), w.namedJudged)
	sc.Step(pattern(`^the agent probes a challenge input and then a legal distinct input$`), w.probeChallenge)
	sc.Step(pattern(`^the challenge input is refused and the distinct probe answered$`), w.probesJudged)
	sc.Step(pattern(`^the agent spends the whole query budget and probes once more$`), w.spendBudget)
	sc.Step(pattern(`^the extra probe is refused$`), w.extraRefused)
	sc.Step(pattern(`^the session's lifetime passes$`), w.expire)
	sc.Step(pattern(`^a probe and a submission are refused$`), w.expiredJudged)
	sc.Step(pattern(`^the agent reads its progress (\d+) times as fast as it can$`), w.burst)
	sc.Step(pattern(`^any 429 answer carries Retry-After$`), w.burstJudged)
	sc.Step(pattern(`^the agent submits wrong outputs twice$`), w.wrongTwice)
	sc.Step(pattern(`^the first is judged wrong without advancing and the second refused$`), w.wrongJudged)
	sc.Step(pattern(`^the agent submits its level's outputs out of order and then in order$`), w.outOfOrder)
	sc.Step(pattern(`^only the ordered submission is correct and the next level is unlocked$`), w.orderJudged)
	sc.Step(pattern(`^the agent sends a probe whose body repeats the input key$`), w.duplicateKeyProbe)
	sc.Step(pattern(`^the probe is refused with a coded 400 and the next probe is the session's first$`), w.duplicateKeyJudged)
	sc.Step(pattern(`^the agent solves level after level$`), w.walkChain)
	sc.Step(pattern(`^no answer showed a level before it was unlocked$`), w.nothingEarly)
	sc.Step(pattern(`^at the frontier progress says atFrontier and no session opens$`), w.frontierJudged)
	sc.Step(pattern(`^the level after the agent's current one is disabled$`), w.disableNext)
	sc.Step(pattern(`^the agent solves its current level$`), w.solveOne)
	sc.Step(pattern(`^its progress skips the disabled level as skipped, not cleared$`), w.disabledJudged)
}

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
		switch k := findKey(doc, forbiddenKeys); {
		case k == "difficulty":
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

func (w *world) namedThenEmpty(ctx context.Context) error {
	resp, err := w.do(ctx, w.me, driver.Request{Method: http.MethodPost, Path: "/api/sessions", JSON: map[string]any{"levelId": "seed-02-evens"}})
	if err != nil {
		return err
	}
	w.Last = resp
	s, err := w.mustOpen(ctx, w.me)
	w.sess = s
	return err
}

func (w *world) namedJudged(ctx context.Context) error {
	if w.Last.Status/100 != 4 {
		return verdict.Failf("FORGE-SESSION-EMPTY-BODY", "a session body with levelId refused", w.Last.Status, "%s", w.env.HTTP.Secrets().Clip(w.Last.Body))
	}
	p, err := w.progress(ctx, w.me)
	if err != nil {
		return err
	}
	if p.CurrentLevel == nil || w.sess.Position != p.CurrentLevel.Position {
		return verdict.Failf("FORGE-SESSION-CURRENT", "the session on the current level", w.sess.Position, "the {} session")
	}
	return nil
}

func (w *world) probeChallenge(ctx context.Context) error {
	if len(w.sess.ChallengeInputs) == 0 {
		return verdict.Failf("FORGE-SESSION-CURRENT", "challenge inputs", "none", "the session has no challengeInputs")
	}
	for _, in := range [][]int64{w.sess.ChallengeInputs[0], w.distinctProbe()} {
		resp, err := w.query(ctx, w.me, w.sess, in)
		if err != nil {
			return err
		}
		w.answers = append(w.answers, resp)
	}
	return nil
}

// distinctProbe is a legal input unlike every challenge input.
func (w *world) distinctProbe() []int64 {
	in, _ := solver.Probe(w.sess.Level.InputDomain, w.sess.ChallengeInputs, rngFor(w.env.Seed))
	return in
}

func (w *world) probesJudged() error {
	if w.answers[0].Status/100 != 4 {
		return verdict.Failf("FORGE-PROBE-DISTINCT", "a probe equal to a challenge input refused", w.answers[0].Status, "%s", w.env.HTTP.Secrets().Clip(w.answers[0].Body))
	}
	if w.answers[1].Status != http.StatusOK {
		return verdict.Failf("FORGE-QUERY", "a legal distinct probe answered", w.answers[1].Status, "%s", w.env.HTTP.Secrets().Clip(w.answers[1].Body))
	}
	return nil
}

func (w *world) spendBudget(ctx context.Context) error {
	if w.sess.QueryBudget <= 0 || w.sess.QueryBudget > 1000 {
		return verdict.Skipf("the session states no usable queryBudget (%d)", w.sess.QueryBudget)
	}
	for i := 0; i <= w.sess.QueryBudget; i++ {
		resp, err := w.query(ctx, w.me, w.sess, w.distinctProbe())
		if err != nil {
			return err
		}
		w.Last = resp
		if i < w.sess.QueryBudget && resp.Status != http.StatusOK {
			return verdict.Failf("FORGE-QUERY-BUDGET", "queries within the budget answered", resp.Status, "query %d of %d", i+1, w.sess.QueryBudget)
		}
	}
	return nil
}

func (w *world) extraRefused() error {
	if w.Last.Status/100 != 4 {
		return verdict.Failf("FORGE-QUERY-BUDGET", "the query past the budget refused", w.Last.Status, "budget %d", w.sess.QueryBudget)
	}
	return nil
}

func (w *world) expire() error {
	if w.env.Clock == nil {
		return verdict.Skipf("needs the embedded reference's clock")
	}
	w.env.Clock.Advance(rforge.SessionTTL + time.Minute) // the reference's lifetime; a live target is never asked
	return nil
}

func (w *world) expiredJudged(ctx context.Context) error {
	q, err := w.query(ctx, w.me, w.sess, w.distinctProbe())
	if err != nil {
		return err
	}
	s, _, err := w.submit(ctx, w.me, w.sess, make([]dsl.Value, len(w.sess.ChallengeInputs)))
	if err != nil {
		return err
	}
	if q.Status/100 != 4 || s.Status/100 != 4 {
		return verdict.Failf("FORGE-EXPIRY", "a probe and a submission refused", []int{q.Status, s.Status}, "after the session's lifetime")
	}
	return nil
}

func (w *world) burst(ctx context.Context, n int) error {
	for range n {
		resp, err := w.do(ctx, w.me, driver.Request{Method: http.MethodGet, Path: "/api/progress", Allow: []int{429}})
		if err != nil {
			return err
		}
		if resp.Status == http.StatusTooManyRequests {
			w.Last = resp
			return nil
		}
	}
	return nil
}

func (w *world) burstJudged() error {
	if w.Last == nil {
		return verdict.Skipf("no rate limit was met within the burst")
	}
	if w.Last.Header.Get("Retry-After") == "" {
		return verdict.Failf("FORGE-RATE-LIMIT", "429 with Retry-After", "no Retry-After", "a rate-limited answer")
	}
	return nil
}

// wrongOutputs are outputs that cannot all be right: an int where the
// level gives lists and a list where it gives ints.
func (w *world) wrongOutputs() []dsl.Value {
	out := make([]dsl.Value, len(w.sess.ChallengeInputs))
	wrong := dsl.Value{Type: dsl.TList, List: []int64{424242}}
	if len(w.sess.Level.Examples) > 0 && strings.HasPrefix(strings.TrimSpace(string(w.sess.Level.Examples[0].Output)), "[") {
		wrong = dsl.Value{Type: dsl.TInt, Int: 424242}
	}
	for i := range out {
		out[i] = wrong
	}
	return out
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

// outOfOrder submits the right outputs rotated (when they differ), then
// clears the level in order.
func (w *world) outOfOrder(ctx context.Context) error {
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
	_, d, err := w.clear(ctx, w.me, 0)
	if err != nil {
		return err
	}
	w.Before = s.Position
	w.sess = nil
	if d != nil && d.Progress.CurrentLevel != nil {
		w.sess = &sessionDoc{Position: d.Progress.CurrentLevel.Position}
	}
	return nil
}

func sameValues(a, b []dsl.Value) bool {
	for i := range a {
		if !solver.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

func (w *world) orderJudged(ctx context.Context) error {
	if w.Last != nil {
		var d submitDoc
		if w.Last.Status/100 == 2 && w.Last.Decode("FORGE-ORIGINAL-ORDER", &d) == nil && d.Correct != nil && *d.Correct {
			return verdict.Failf("FORGE-ORIGINAL-ORDER", "rotated outputs judged wrong", "correct", "outputs are judged in the challenge inputs' order")
		}
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
