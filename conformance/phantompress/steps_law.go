package phantompress

import (
	"strings"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// claimsRevealedAs checks, over every settlement's reveal, that each claim
// the named law selection picks was revealed with the given verdict (the
// selection's own law rule; PP-DOC-FORMAT when secondaries lack an origin);
// it skips when no claim fits.
func (w *world) claimsRevealedAs(phrase, want string) error {
	lc, ok := lawCases[strings.TrimSuffix(phrase, ",")]
	if !ok {
		return verdict.Errorf("no law selection named %q", phrase)
	}
	found := 0
	for _, st := range w.m.Settlements {
		rv := st.Reveal
		if len(rv.Documents) == 0 {
			return verdict.Skipf("the target's reveal does not disclose the case's material")
		}
		if originless(rv) && lc.rule != "PP-LAW-TRUE-OFFICIAL" && !strings.HasPrefix(phrase, "an official record contradicts") {
			return w.shapeGate("PP-DOC-FORMAT", "an origin on every secondary source", "none", "case %d: independence cannot be judged", st.CaseNo)
		}
		for _, q := range rv.Questions {
			if !lc.pick(weigh(rv, q.Claim), rv) {
				continue
			}
			found++
			if got := string(rv.Answers[q.ID]); got != want {
				return verdict.Failf(lc.rule, want, got, "case %d %s (claim %s)", st.CaseNo, q.ID, q.Claim)
			}
		}
	}
	if found == 0 {
		return verdict.Skipf("no claim of this run's cases is one that %s", phrase)
	}
	return nil
}

// lawDerivesAnswers checks that every revealed answer is the verdict the
// law derives from the revealed material, leaving the both-backed reading
// to PP-LAW-BOTH-BACKED (PP-LAW-DOC-KINDS; PP-DOC-FORMAT when secondaries
// lack an origin).
func (w *world) lawDerivesAnswers() error {
	n := 0
	for _, st := range w.m.Settlements {
		src := revealedSources(st.Reveal)
		if originless(st.Reveal) {
			return w.shapeGate("PP-DOC-FORMAT", "an origin on every secondary source", "none", "case %d: independence cannot be judged", st.CaseNo)
		}
		for _, q := range st.Reveal.Questions {
			if engine.Branch(src, q.Claim) == "unverifiable-both-backed" {
				continue // the kit's reading, checked under PP-LAW-BOTH-BACKED
			}
			n++
			if want := engine.Law(src, q.Claim); st.Reveal.Answers[q.ID] != want {
				return verdict.Failf("PP-LAW-DOC-KINDS", want, st.Reveal.Answers[q.ID], "case %d %s", st.CaseNo, q.ID)
			}
		}
	}
	if n == 0 {
		return verdict.Skipf("the target revealed no material")
	}
	return nil
}

// lawSteps registers the steps of features/phantom-press/law.feature.
func lawSteps(sc *suite.ScenarioContext, w *world) {
	sc.Step(pattern(`^every claim (.+) was revealed as "([^"]*)"$`), w.claimsRevealedAs)
	sc.Step(pattern(`^every revealed answer is the verdict the law derives from the revealed material$`), w.lawDerivesAnswers)
}
