package phantompress

import (
	"context"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// hidingSteps registers the steps of features/phantom-press/hiding.feature.
func hidingSteps(sc *suite.ScenarioContext, w *world) {
	sc.Step(pattern(`^nothing shown before the publish held a revealed answer, trap or witness type$`), w.nothingLeaked)
	sc.Step(pattern(`^the agent has looked at the case and interviewed a witness$`), w.lookedAndInterviewed)
	sc.Step(pattern(`^the settlement reveals every question's answer$`), w.revealAnswers)
	sc.Step(pattern(`^the settlement reveals the traps and every witness's type$`), w.revealDetail)
}

// nothingLeaked checks that a publish came back with its revealed answers
// (PP-HIDE-REVEAL): the model compared every earlier body of the case with
// the reveal then (Model.checkHidden).
func (w *world) nothingLeaked() error {
	// The model compared every body of the case with the reveal when the
	// publish came back (Model.checkHidden); here it must have had both.
	last, err := w.lastSettlement()
	if err != nil {
		return err
	}
	st := *last
	if len(st.Reveal.Answers) == 0 {
		return verdict.Failf("PP-HIDE-REVEAL", "the revealed answers", st.Reveal, "")
	}
	return nil
}

// lookedAndInterviewed looks at the case and interviews a witness not heard
// yet.
func (w *world) lookedAndInterviewed(ctx context.Context) error {
	if err := w.act(ctx, engine.ActLook, ""); err != nil {
		return err
	}
	return w.act(ctx, engine.ActInterview, w.unheardTopic())
}

// revealAnswers checks that the last settlement reveals the answer of
// every question of case 1 (PP-HIDE-REVEAL).
func (w *world) revealAnswers() error {
	st, err := w.lastSettlement()
	if err != nil {
		return err
	}
	if len(st.Reveal.Answers) != len(w.m.Cases[0].Questions) {
		return verdict.Failf("PP-HIDE-REVEAL", "the correct answer of every question of case 1", st.Reveal.Answers, "")
	}
	return nil
}

// revealDetail checks that the last settlement reveals the traps and the
// type of every witness of case 1 (PP-HIDE-REVEAL-DETAIL, the kit's choice:
// the seed says when they may appear, not that they must).
func (w *world) revealDetail() error {
	st, err := w.lastSettlement()
	if err != nil {
		return err
	}
	if rv := st.Reveal; len(rv.Witnesses) != len(w.m.Cases[0].Witnesses) || rv.Traps == nil {
		return verdict.Failf("PP-HIDE-REVEAL-DETAIL", "the traps and every witness's type of case 1", rv, "")
	}
	return nil
}
