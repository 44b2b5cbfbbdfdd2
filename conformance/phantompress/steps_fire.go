package phantompress

import (
	"context"
	"fmt"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// side is one run of a scenario that drives two: its ID and its model.
type side struct {
	run string
	m   *Model
}

// firingPair is the state of the "trust between 1 and 10" scenario (no
// firing above trust 0): a scout run and a target run started with one
// custom seed, so the scout's reveal of each case is the answer key of the
// target's same case (PP-RUN-SEED-REPLAY).
type firingPair struct {
	scout, target side
	landed        bool
}

// use makes s the world's current run.
func (w *world) use(s side) { w.run, w.m = s.run, s.m }

// sameQuestions reports whether two runs show the same checklist.
func sameQuestions(a, b engine.CaseView) bool {
	if a.CaseNo != b.CaseNo || len(a.Questions) != len(b.Questions) {
		return false
	}
	for i := range a.Questions {
		if a.Questions[i].ID != b.Questions[i].ID || a.Questions[i].Text != b.Questions[i].Text {
			return false
		}
	}
	return true
}

// planLow picks, for each question of case caseNo, the answer whose
// settlement costs the most trust while leaving at least 1: wrong hedges
// and 裏取り不能 misprints only, which need no source. truth is the scout's
// revealed answer key.
func planLow(qs []engine.Question, truth map[string]engine.Verdict, caseNo, trust int) []string {
	var out []string
	for _, q := range qs {
		v := truth[q.ID]
		opts := []engine.Graded{{Verdict: v, Confidence: engine.Hedge}}
		if v == engine.Unverifiable {
			opts = append(opts, engine.Graded{Verdict: engine.True, Confidence: engine.Hedge})
		} else {
			opts = append(opts, engine.Graded{Verdict: engine.Unverifiable, Confidence: engine.Hedge},
				engine.Graded{Verdict: engine.Unverifiable, Confidence: engine.Assert})
		}
		best, loss := opts[0], 0
		for _, g := range opts {
			g.Question, g.Correct = q.ID, v
			if l := -engine.SettleLine(g, caseNo).Trust; l > loss && trust-l >= 1 {
				best, loss = g, l
			}
		}
		trust -= loss
		out = append(out, fmt.Sprintf("%s %s %s", q.ID, best.Verdict, best.Confidence))
	}
	return out
}

// fireSteps registers the steps of the "trust between 1 and 10" scenario,
// whose two runs the world keeps in w.fire.
func fireSteps(sc *godog.ScenarioContext, w *world) {
	sc.Step(pattern(`^two fresh runs with one custom seed$`), w.twoSeededRuns)
	sc.Step(pattern(`^the agent answers the second run, case by case, so that a publish leaves trust between 1 and 10$`), w.landLowTrust)
	sc.Step(pattern(`^that run is still active, and its status says so$`), w.stillActiveLowTrust)
}

// twoSeededRuns starts a scout run and a target run with one custom seed;
// it skips when their first cases differ.
func (w *world) twoSeededRuns(ctx context.Context) error {
	seed := fmt.Sprintf("pp-fire10-%d", w.env.Seed%1000000)
	if err := w.startRun(ctx, defaultBudget, &seed); err != nil {
		return err
	}
	w.fire.scout = side{w.run, w.m}
	if err := w.startRun(ctx, defaultBudget, &seed); err != nil {
		return err
	}
	w.fire.target = side{w.run, w.m}
	if !sameQuestions(w.fire.scout.m.State.Case, w.fire.target.m.State.Case) {
		return verdict.Skipf("the target gave two runs with one custom seed different cases (PP-RUN-SEED-REPLAY is the kit's choice)")
	}
	return nil
}

// landLowTrust plays the scout through each case to learn its revealed
// answers, then answers the target's same case to leave trust between 1 and
// 10 after the publish (the model fails PP-SETTLE-FIRED if the target fires
// early); it skips when no case lands there.
func (w *world) landLowTrust(ctx context.Context) error {
	for w.fire.target.m.State.Status == engine.StatusActive {
		w.use(w.fire.scout)
		if !sameQuestions(w.fire.scout.m.State.Case, w.fire.target.m.State.Case) {
			return verdict.Skipf("the two runs of one custom seed diverged at case %d", w.fire.target.m.State.CaseNo)
		}
		caseNo := w.m.State.CaseNo
		if err := w.answerAll(ctx, "裏取り不能 留保", 0); err != nil {
			return err
		}
		if err := w.act(ctx, engine.ActPublish, ""); err != nil {
			return err
		}
		n := len(w.m.Settlements)
		if n == 0 || len(w.m.Settlements[n-1].Reveal.Answers) == 0 {
			return verdict.Skipf("the target's reveal does not disclose the answers of case %d", caseNo)
		}
		truth := w.m.Settlements[n-1].Reveal.Answers
		w.use(w.fire.target)
		for _, arg := range planLow(w.m.State.Case.Questions, truth, caseNo, w.m.State.Trust) {
			if err := w.act(ctx, engine.ActAnswer, arg); err != nil {
				return err
			}
		}
		// The model fails PP-SETTLE-FIRED if the target ends the run
		// with trust left (checkAfterPublish).
		if err := w.act(ctx, engine.ActPublish, ""); err != nil {
			return err
		}
		if t := w.m.State.Trust; t >= 1 && t <= 10 {
			w.fire.landed = true
			return nil
		}
	}
	return verdict.Skipf("the target's cases never left trust between 1 and 10 (status %s, trust %d)", w.fire.target.m.State.Status, w.fire.target.m.State.Trust)
}

// stillActiveLowTrust checks that the target run, with trust between 1 and
// 10, is still active: only trust 0 fires the trainee (PP-SETTLE-FIRED).
func (w *world) stillActiveLowTrust(ctx context.Context) error {
	if !w.fire.landed {
		return verdict.Errorf("no publish left trust between 1 and 10")
	}
	s, err := w.fetchState(ctx)
	if err != nil {
		return err
	}
	if s.Status != engine.StatusActive || s.Trust < 1 || s.Trust > 10 {
		return verdict.Failf("PP-SETTLE-FIRED", fmt.Sprintf("status active with trust %d", w.m.State.Trust), fmt.Sprintf("status %s, trust %d", s.Status, s.Trust),
			"only trust 0 fires the trainee")
	}
	return nil
}
