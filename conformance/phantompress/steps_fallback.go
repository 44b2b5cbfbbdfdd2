package phantompress

import (
	"context"
	"fmt"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// fallbackSteps registers the steps that check a settlement through the
// state fields the seed's client reads, with no need for the kit's event
// shape: answers whose correctness an official record the agent read fixes.
func fallbackSteps(sc *godog.ScenarioContext, w *world) {
	sc.Step(`^the agent has hedged against every official record it read$`, w.hedgeAgainstOfficials)
	sc.Step(`^the publish cost at least 3 trust for every hedge against an official record$`, w.costPerWrongHedge)
}

// hedgeAgainstOfficials hedges the opposite of what an official record the
// agent read says on every question it decides, and 裏取り不能 elsewhere;
// it skips when no official read decides any question.
func (w *world) hedgeAgainstOfficials(ctx context.Context) error {
	w.against = 0
	for _, q := range w.m.State.Case.Questions {
		arg := q.ID + " 裏取り不能 留保"
		if known := w.m.possibleTruths(q.Claim); len(known) == 1 {
			wrong := engine.True
			if known[0] == engine.True {
				wrong = engine.False
			}
			arg = fmt.Sprintf("%s %s 留保", q.ID, wrong)
			w.against++
		}
		if err := w.act(ctx, engine.ActAnswer, arg); err != nil {
			return err
		}
	}
	if w.against == 0 {
		return verdict.Skipf("no official record the agent could afford decides a question of case %d", w.m.State.CaseNo)
	}
	return nil
}

// costPerWrongHedge checks the publish took at least the wrong hedge's 3
// trust for every hedge against an official record (PP-SETTLE-TABLE: hedge
// + wrong -5, trust -3; PP-LAW-TRUE-OFFICIAL and PP-LAW-FALSE fix which
// hedges are wrong), read in the state's trust field alone.
func (w *world) costPerWrongHedge() error {
	if w.last == nil {
		return verdict.Errorf("no publish answer")
	}
	want := w.before.Trust + w.against*engine.TrustHedgeWrong
	if got := w.last.State.Trust; got > want {
		return verdict.Failf("PP-SETTLE-TABLE", fmt.Sprintf("trust at most %d", want), got,
			"%d hedges against official records, trust %d before the publish", w.against, w.before.Trust)
	}
	return nil
}
