package phantompress

import (
	"context"
	"fmt"
	"net/http"
	"reflect"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// readTwoDocuments reads two documents not read yet.
func (w *world) readTwoDocuments(ctx context.Context) error {
	for i := 0; i < 2; i++ {
		if err := w.act(ctx, engine.ActRead, w.unreadDoc()); err != nil {
			return err
		}
	}
	return nil
}

// answerTemplate marks the run and answers the filled answer template (see
// fill).
func (w *world) answerTemplate(ctx context.Context, tpl string) error {
	w.mark()
	return w.act(ctx, engine.ActAnswer, w.fill(tpl))
}

// answeredTemplate answers the filled answer template without marking the
// run.
func (w *world) answeredTemplate(ctx context.Context, tpl string) error {
	return w.act(ctx, engine.ActAnswer, w.fill(tpl))
}

// answerRecordedAs checks that the last answer was accepted and its
// question recorded with the given verdict and confidence (the scenario's
// rule).
func (w *world) answerRecordedAs(v, c string) error {
	if err := w.unbooked(); err != nil {
		return err
	}
	q := engine.Fields(w.fill("{q}"))[0]
	a, ok := w.m.Answers[q]
	if w.last == nil || !w.last.OK || !ok || string(a.Verdict) != v || string(a.Confidence) != c {
		return verdict.Failf(w.rule(), fmt.Sprintf("%s recorded as %s %s", q, v, c), fmt.Sprintf("%v %+v", w.last.OK, a), "")
	}
	return nil
}

// answerHasBothSources checks that the question's answer records both
// documents read as its sources (PP-ANSWER-SEPARATORS).
func (w *world) answerHasBothSources() error {
	if err := w.unbooked(); err != nil {
		return err
	}
	q := w.fill("{q}")
	want := engine.Fields(w.fill("{read1} {read2}"))
	if a := w.m.Answers[q]; !sameSet(a.Sources, want) {
		return verdict.Failf("PP-ANSWER-SEPARATORS", want, a.Sources, "sources recorded for %s", q)
	}
	return nil
}

// readStanceDocument reads documents until one takes a stance on a question
// of the case, keeping both; it skips when none affordable does.
func (w *world) readStanceDocument(ctx context.Context) error {
	for w.m.State.AP >= seedAPRead {
		if err := w.act(ctx, engine.ActRead, w.unreadDoc()); err != nil {
			return err
		}
		if q, src, _, ok := w.stanceQuestion(false); ok {
			w.question, w.doc = q.ID, src
			return nil
		}
	}
	return verdict.Skipf("no document read in this case takes a stance on a question")
}

// interviewStanceWitness interviews witnesses until a testimony takes a
// stance on a question of the case, keeping both; it skips when none
// affordable does.
func (w *world) interviewStanceWitness(ctx context.Context) error {
	for w.m.State.AP >= seedAPInterview && w.unheardTopic() != "" {
		if err := w.act(ctx, engine.ActInterview, w.unheardTopic()); err != nil {
			return err
		}
		if q, src, _, ok := w.stanceQuestion(true); ok {
			w.question, w.source = q.ID, src
			return nil
		}
	}
	return verdict.Skipf("no testimony affordable in this case takes a stance on a question")
}

// assertCitingDoc marks the run and asserts the kept question as the kept
// document backs it.
func (w *world) assertCitingDoc(ctx context.Context) error { return w.assertCiting(ctx, w.doc, false) }

// assertCitingTestimony marks the run and asserts the kept question as the
// kept testimony backs it.
func (w *world) assertCitingTestimony(ctx context.Context) error {
	return w.assertCiting(ctx, w.source, false)
}

// assertAgainstDoc marks the run and asserts the kept question against what
// the kept document says, citing it.
func (w *world) assertAgainstDoc(ctx context.Context) error { return w.assertCiting(ctx, w.doc, true) }

// assertionRecorded checks that the assertion was accepted and recorded
// with no new rejection (PP-ANSWER-ASSERT-SOURCES).
func (w *world) assertionRecorded() error {
	if err := w.unbooked(); err != nil {
		return err
	}
	a, ok := w.m.Answers[w.question]
	if w.last == nil || !w.last.OK || !ok || a.Confidence != engine.Assert || w.m.Rejections[w.question] != w.beforeRejections[w.question] {
		return verdict.Failf("PP-ANSWER-ASSERT-SOURCES", "the assertion recorded", clip(w.Body()), "")
	}
	return nil
}

// assertSilentQuestion marks the run and asserts, citing the kept document,
// a question it takes no stance on; it skips when the document speaks to
// every question.
func (w *world) assertSilentQuestion(ctx context.Context) error {
	w.mark()
	q, ok := w.silentQuestion(w.doc)
	if !ok {
		return verdict.Skipf("document %s takes a stance on every question", w.doc)
	}
	w.question = q
	return w.act(ctx, engine.ActAnswer, q+" 真 断言 "+w.doc)
}

// hedgeSilentQuestion records a hedge on the first question the read
// document is silent on, so a rejection on it has an answer to leave
// standing (PP-ANSWER-REJECT); it skips when the document speaks to all.
func (w *world) hedgeSilentQuestion(ctx context.Context) error {
	q, ok := w.silentQuestion(w.doc)
	if !ok {
		return verdict.Skipf("document %s takes a stance on every question", w.doc)
	}
	return w.act(ctx, engine.ActAnswer, q+" 裏取り不能 留保")
}

// answerRejected checks that the answer was rejected with ok:true, one turn
// and one more rejection, leaving the question's earlier answer as it was
// (PP-ANSWER-REJECT).
func (w *world) answerRejected() error {
	r := w.last
	if r == nil || !r.OK || r.State.Turn != w.Before.Turn+1 || w.m.Rejections[w.question] != w.beforeRejections[w.question]+1 {
		return verdict.Failf(w.rule(), "ok:true, one turn spent, one more rejection", clip(w.Body()), "")
	}
	// The question may hold an earlier answer: a rejection leaves it as it was.
	now, has := w.m.Answers[w.question]
	prev, had := w.beforeAnswers[w.question]
	if has && (!had || !reflect.DeepEqual(prev, now)) {
		return verdict.Failf(w.rule(), "the answer not recorded", now, "")
	}
	return nil
}

// rejectedThrice reads a document and asserts, citing it, a question it is
// silent on until the maximum of rejections; it skips when the document
// speaks to every question.
func (w *world) rejectedThrice(ctx context.Context) error {
	w.doc = w.unreadDoc()
	if err := w.act(ctx, engine.ActRead, w.doc); err != nil {
		return err
	}
	q, ok := w.silentQuestion(w.doc)
	if !ok {
		return verdict.Skipf("document %s takes a stance on every question", w.doc)
	}
	w.question = q
	for i := 0; i < seedMaxRejections; i++ {
		if err := w.act(ctx, engine.ActAnswer, q+" 偽 断言 "+w.doc); err != nil {
			return err
		}
	}
	return nil
}

// assertUnverifiable marks the run and asserts the kept question as
// 裏取り不能.
func (w *world) assertUnverifiable(ctx context.Context) error {
	w.mark()
	return w.act(ctx, engine.ActAnswer, w.question+" 裏取り不能 断言")
}

// hedgeQuestion marks the run and hedges the kept question as
// 裏取り不能.
func (w *world) hedgeQuestion(ctx context.Context) error {
	w.mark()
	return w.act(ctx, engine.ActAnswer, w.question+" 裏取り不能 留保")
}

// hedgeOnly checks that the kept question has the maximum of rejections and
// is listed hedge_only where the target shows that field
// (PP-ANSWER-HEDGE-ONLY).
func (w *world) hedgeOnly() error {
	s := w.m.State
	listed := !w.m.Shows["hedge_only"] // the kit's field; checked where a target shows it
	for _, q := range s.HedgeOnly {
		listed = listed || q == w.question
	}
	if w.m.Rejections[w.question] != seedMaxRejections || !listed {
		return verdict.Failf("PP-ANSWER-HEDGE-ONLY", fmt.Sprintf("%s with 3 rejections, listed hedge_only", w.question), fmt.Sprintf("%v %v", w.m.Rejections, s.HedgeOnly), "")
	}
	return nil
}

// assertionNotRecorded checks that an assertion on a hedge-only question
// was not recorded: refused, or accepted spending one turn
// (PP-ANSWER-HEDGE-ONLY).
func (w *world) assertionNotRecorded() error {
	before, had := w.beforeAnswers[w.question]
	now, has := w.m.Answers[w.question]
	if has && (!had || before.Confidence != now.Confidence) {
		return verdict.Failf("PP-ANSWER-HEDGE-ONLY", "no assertion recorded", now, "")
	}
	if w.last != nil && w.last.OK && w.last.State.Turn != w.Before.Turn+1 {
		return verdict.Failf("PP-ANSWER-HEDGE-ONLY", "ok:false, or ok:true spending one turn", clip(w.Body()), "")
	}
	return nil
}

// refusalCode checks that the last action answered ok:false with the given
// code and an error message (PP-REFUSAL-CODES).
func (w *world) refusalCode(code string) error {
	if w.last == nil || w.last.OK || w.last.Code != code || w.last.Error == "" {
		return verdict.Failf("PP-REFUSAL-CODES", "ok:false with code "+code+" and an error", clip(w.Body()), "")
	}
	return nil
}

// answersSteps registers the steps of features/phantom-press/answers.feature.
func answersSteps(sc *suite.ScenarioContext, w *world) {
	sc.Step(pattern(`^the agent has read two documents$`), w.readTwoDocuments)
	sc.Step(pattern(`^the agent answers "([^"]*)"$`), w.answerTemplate)
	sc.Step(pattern(`^the agent has answered "([^"]*)"$`), w.answeredTemplate)
	sc.Step(pattern(`^the answer is recorded as "([^"]*)" "([^"]*)"$`), w.answerRecordedAs)
	sc.Step(pattern(`^the answer is recorded with both documents as sources$`), w.answerHasBothSources)
	sc.Step(pattern(`^the agent has read a document that takes a stance on a question$`), w.readStanceDocument)
	sc.Step(pattern(`^the agent has interviewed a witness that takes a stance on a question$`), w.interviewStanceWitness)
	sc.Step(pattern(`^the agent asserts that question citing the document$`), w.assertCitingDoc)
	sc.Step(pattern(`^the agent asserts that question citing the testimony$`), w.assertCitingTestimony)
	sc.Step(pattern(`^the agent asserts the opposite of the document on that question$`), w.assertAgainstDoc)
	sc.Step(pattern(`^the assertion is recorded$`), w.assertionRecorded)
	sc.Step(pattern(`^the agent asserts a question the document says nothing about, citing it$`), w.assertSilentQuestion)
	sc.Step(pattern(`^the answer is rejected at the cost of a turn$`), w.answerRejected)
	sc.Step(pattern(`^the agent has hedged a question the document says nothing about$`), w.hedgeSilentQuestion)
	sc.Step(pattern(`^the agent has been rejected 3 times on a question$`), w.rejectedThrice)
	sc.Step(pattern(`^the agent asserts that question is unverifiable$`), w.assertUnverifiable)
	sc.Step(pattern(`^the agent hedges on that question$`), w.hedgeQuestion)
	sc.Step(pattern(`^the question accepts only hedges$`), w.hedgeOnly)
	sc.Step(pattern(`^the assertion is not recorded$`), w.assertionNotRecorded)
	sc.Step(pattern(`^the refusal carries the code "([^"]*)" and an error message$`), w.refusalCode)
	sc.Step(pattern(`^the agent has read another document silent on that question$`), w.readSilentDocument)
	sc.Step(pattern(`^the agent asserts that question citing both documents$`), w.assertCitingBoth)
	sc.Step(pattern(`^the agent has been rejected twice on a question and refused once for a malformed answer to it$`), w.twoRejectionsOneMalformed)
	sc.Step(pattern(`^the agent asserts that question is unverifiable, which is not yet hedge-only$`), w.assertNotHedgeOnly)
}

// readSilentDocument reads documents until one is silent on the kept
// question, keeping it as the second source; it skips when none affordable
// is.
func (w *world) readSilentDocument(ctx context.Context) error {
	for w.m.State.AP >= seedAPRead && w.unreadDoc() != "" {
		id := w.unreadDoc()
		if err := w.act(ctx, engine.ActRead, id); err != nil {
			return err
		}
		if !w.silentOn(id, w.question) {
			continue
		}
		w.source = id
		return nil
	}
	return verdict.Skipf("no affordable document of case 1 is silent on %s", w.question)
}

// assertCitingBoth marks the run and asserts the kept question as the kept
// document backs it, citing both kept sources.
func (w *world) assertCitingBoth(ctx context.Context) error {
	w.mark()
	var st engine.Stance
	s, _ := w.m.observedSource(w.doc)
	for _, q := range w.m.State.Case.Questions {
		for _, c := range s.Claims {
			if q.ID == w.question && c.Claim == q.Claim {
				st = c.Stance
			}
		}
	}
	return w.act(ctx, engine.ActAnswer, fmt.Sprintf("%s %s 断言 %s %s", w.question, verdictOf(st, false), w.doc, w.source))
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
	for i := 0; i < seedMaxRejections-1; i++ {
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
