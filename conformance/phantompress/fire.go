package phantompress

import (
	"fmt"

	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// side is one run of a scenario that drives two: its ID, its model and
// its owner.
type side struct {
	run string
	m   *Model
	me  *identity // the run's owner: the pool may hand the second run to another agent
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
func (w *world) use(s side) { w.run, w.m, w.me = s.run, s.m, s.me }

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
			if l := -seedLine(g, caseNo).Trust; l > loss && trust-l >= 1 {
				best, loss = g, l
			}
		}
		trust -= loss
		out = append(out, fmt.Sprintf("%s %s %s", q.ID, best.Verdict, best.Confidence))
	}
	return out
}
