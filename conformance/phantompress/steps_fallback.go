package phantompress

import (
	"context"
	"fmt"
	"strings"

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
	sc.Step(`^the agent has spent its AP down to (\d+), a document and a topic still open$`, w.spendAPDownTo)
}

// spendAPDownTo reads and interviews until exactly n AP are left, keeping
// one document unread and one topic unasked, so the next read or interview
// meets the AP boundary (PP-AP-COST, PP-AP-INSUFFICIENT); it skips when the
// case cannot be spent down to n that way.
func (w *world) spendAPDownTo(ctx context.Context, n int) error {
	docs, topics := w.openDocs(), w.openTopics()
	spend := w.m.State.AP - n
	for reads := 0; reads < len(docs) && 2*reads <= spend; reads++ {
		rest := spend - engine.APRead*reads
		if rest%engine.APInterview != 0 || rest/engine.APInterview >= len(topics) {
			continue
		}
		for _, d := range docs[:reads] {
			if err := w.act(ctx, engine.ActRead, d); err != nil {
				return err
			}
		}
		for _, t := range topics[:rest/engine.APInterview] {
			if err := w.act(ctx, engine.ActInterview, strings.Replace(t, ":", " ", 1)); err != nil {
				return err
			}
		}
		return nil
	}
	return verdict.Skipf("case %d cannot be spent from %d down to %d AP with a document and a topic left", w.m.State.CaseNo, w.m.State.AP, n)
}

// openDocs lists the documents of the case not read yet.
func (w *world) openDocs() []string {
	var out []string
	for _, d := range w.m.State.Case.Documents {
		if !d.Read {
			out = append(out, d.ID)
		}
	}
	return out
}

// openTopics lists the witness topics of the case not asked yet.
func (w *world) openTopics() []string {
	var out []string
	for _, wt := range w.m.State.Case.Witnesses {
		for _, t := range wt.Topics {
			if !t.Interviewed {
				out = append(out, t.Source)
			}
		}
	}
	return out
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
