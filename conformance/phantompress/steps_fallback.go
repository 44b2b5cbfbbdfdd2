package phantompress

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// fallbackSteps registers the steps that check a settlement through the
// state fields the seed's client reads, with no need for the kit's event
// shape: answers whose correctness an official record the agent read fixes.
func fallbackSteps(sc *godog.ScenarioContext, w *world) {
	sc.Step(pattern(`^the agent has hedged against every official record it read$`), w.hedgeAgainstOfficials)
	sc.Step(pattern(`^the publish cost at least 3 trust for every hedge against an official record$`), w.costPerWrongHedge)
	sc.Step(pattern(`^the agent has spent its AP down to (\d+), a document and a topic still open$`), w.spendAPDownTo)
	sc.Step(pattern(`^the agent (reads the log of|extends|hides|reviews) a run that does not exist$`), w.missingRunWrite)
	sc.Step(pattern(`^the agent has been rejected twice on a question and refused once for a malformed answer to it$`), w.twoRejectionsOneMalformed)
	sc.Step(pattern(`^the agent asserts that question is unverifiable, which is not yet hedge-only$`), w.assertNotHedgeOnly)
	sc.Step(pattern(`^the public log mentions the ID every accepted action named$`), w.logHoldsArgs)
}

// missingRunWrite sends a log read or an owner write to a run that does not
// exist (PP-ERR-404: every endpoint of a run).
func (w *world) missingRunWrite(ctx context.Context, what string) error {
	const missing = "/runs/run_000000000000"
	var err error
	switch what {
	case "reads the log of":
		_, err = w.do(ctx, http.MethodGet, missing, "", nil, nil)
	case "extends":
		_, err = w.do(ctx, http.MethodPost, missing+"/extend", w.me.Key, map[string]int{"turns": 1}, nil)
	case "hides":
		_, err = w.do(ctx, http.MethodPost, missing+"/visibility", w.me.Key, map[string]string{"visibility": "hidden"}, nil)
	default:
		_, err = w.do(ctx, http.MethodPost, missing+"/review", w.me.Key, map[string]string{"text": "存在しない run への書評"}, nil)
	}
	return err
}

// twoRejectionsOneMalformed has a question rejected twice (an assertion its
// source does not back) and refused once as malformed (an assertion with no
// source): two substantive rejections, not three.
func (w *world) twoRejectionsOneMalformed(ctx context.Context) error {
	w.doc = w.unreadDoc()
	if err := w.act(ctx, engine.ActRead, w.doc); err != nil {
		return err
	}
	q, ok := w.silentQuestion(w.doc)
	if !ok {
		return verdict.Skipf("document %s takes a stance on every question", w.doc)
	}
	w.question = q
	for i := 0; i < engine.MaxRejections-1; i++ {
		if err := w.act(ctx, engine.ActAnswer, q+" 偽 断言 "+w.doc); err != nil {
			return err
		}
	}
	return w.act(ctx, engine.ActAnswer, q+" 偽 断言")
}

// assertNotHedgeOnly asserts the kept question is unverifiable: a
// malformed answer is no substantive rejection (形式不正 is not 実質拒否), so
// the question must still take an assertion (PP-ANSWER-HEDGE-ONLY).
func (w *world) assertNotHedgeOnly(ctx context.Context) error {
	w.mark()
	err := w.act(ctx, engine.ActAnswer, w.question+" 裏取り不能 断言")
	refused := (w.last != nil && !w.last.OK) || w.Status() == http.StatusBadRequest
	if err != nil && refused {
		return verdict.Failf("PP-ANSWER-HEDGE-ONLY", "an assertion accepted after two substantive rejections and one malformed answer",
			clip(w.Body()), "the malformed answer was counted as a rejection")
	}
	return err
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
	want := w.Before.Trust + w.against*engine.TrustHedgeWrong
	if got := w.last.State.Trust; got > want {
		return verdict.Failf("PP-SETTLE-TABLE", fmt.Sprintf("trust at most %d", want), got,
			"%d hedges against official records, trust %d before the publish", w.against, w.Before.Trust)
	}
	return nil
}

// shapeGate reports a target that answers outside one of the kit's
// REFERENCE shapes, which a step needs to decide its scenario's rule: in a
// scenario of that very REFERENCE rule it is the warning itself; in any
// other it is noted as a warning and the step skips as unchecked, since a
// MUST rule must neither fail on the kit's shape nor pass unchecked.
func (w *world) shapeGate(rule string, expected, observed any, detail string, args ...any) error {
	f := verdict.Failf(rule, expected, observed, detail, args...)
	if w.rule() == rule {
		return f
	}
	w.noteFinding(f)
	return verdict.Skipf("unchecked: %s on this target lacks the kit's shape (%s)", w.rule(), rule)
}
