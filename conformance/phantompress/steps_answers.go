package phantompress

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// fill replaces the placeholders of an answer template with IDs of the
// current case: {q} the first question, {read1}/{read2} documents read,
// {unread} a document not read, {unheard} a topic not interviewed.
func (w *world) fill(tpl string) string {
	var read []string
	for _, d := range w.m.State.Case.Documents {
		if d.Read {
			read = append(read, d.ID)
		}
	}
	for len(read) < 2 {
		read = append(read, "d1")
	}
	q := w.m.State.Case.Questions[0].ID
	if w.question != "" {
		q = w.question
	}
	r := strings.NewReplacer("{q}", q, "{read1}", read[0], "{read2}", read[1], "{unread}", w.unreadDoc(), "{unheard}", w.unheardTopic())
	return r.Replace(tpl)
}

// stanceQuestion finds a question an acquired source takes a stance on.
func (w *world) stanceQuestion(testimony bool) (q engine.Question, src string, st engine.Stance, ok bool) {
	for _, qq := range w.m.State.Case.Questions {
		if testimony {
			for id, t := range w.m.Testimonies {
				for _, c := range t.Claims {
					if c.Claim == qq.Claim {
						return qq, id, c.Stance, true
					}
				}
			}
			continue
		}
		for id, d := range w.m.Docs {
			for _, c := range d.Claims {
				if c.Claim == qq.Claim {
					return qq, id, c.Stance, true
				}
			}
		}
	}
	return engine.Question{}, "", "", false
}

func verdictOf(st engine.Stance, opposite bool) engine.Verdict {
	if (st == engine.Supports) != opposite {
		return engine.True
	}
	return engine.False
}

func answerSteps(sc *godog.ScenarioContext, w *world) {
	sc.Step(`^the agent has read two documents$`, func(ctx context.Context) error {
		for i := 0; i < 2; i++ {
			if err := w.act(ctx, engine.ActRead, w.unreadDoc()); err != nil {
				return err
			}
		}
		return nil
	})
	sc.Step(`^the agent answers "([^"]*)"$`, func(ctx context.Context, tpl string) error {
		w.mark()
		return w.act(ctx, engine.ActAnswer, w.fill(tpl))
	})
	sc.Step(`^the agent has answered "([^"]*)"$`, func(ctx context.Context, tpl string) error {
		return w.act(ctx, engine.ActAnswer, w.fill(tpl))
	})
	sc.Step(`^the answer is recorded as "([^"]*)" "([^"]*)"$`, func(v, c string) error {
		q := engine.Fields(w.fill("{q}"))[0]
		a, ok := w.m.Answers[q]
		if w.last == nil || !w.last.OK || !ok || string(a.Verdict) != v || string(a.Confidence) != c {
			return verdict.Failf("", fmt.Sprintf("%s recorded as %s %s", q, v, c), fmt.Sprintf("%v %+v", w.last.OK, a), "")
		}
		return nil
	})
	sc.Step(`^the answer is recorded with both documents as sources$`, func() error {
		q := w.fill("{q}")
		want := engine.Fields(w.fill("{read1} {read2}"))
		if a := w.m.Answers[q]; !sameSet(a.Sources, want) {
			return verdict.Failf("PP-ANSWER-SEPARATORS", want, a.Sources, "sources recorded for %s", q)
		}
		return nil
	})
	sc.Step(`^the agent has read a document that takes a stance on a question$`, func(ctx context.Context) error {
		for w.m.State.AP >= engine.APRead {
			if err := w.act(ctx, engine.ActRead, w.unreadDoc()); err != nil {
				return err
			}
			if q, src, _, ok := w.stanceQuestion(false); ok {
				w.question, w.doc = q.ID, src
				return nil
			}
		}
		return verdict.Skipf("no document read in this case takes a stance on a question")
	})
	sc.Step(`^the agent has interviewed a witness that takes a stance on a question$`, func(ctx context.Context) error {
		for w.m.State.AP >= engine.APInterview && w.unheardTopic() != "" {
			if err := w.act(ctx, engine.ActInterview, w.unheardTopic()); err != nil {
				return err
			}
			if q, src, _, ok := w.stanceQuestion(true); ok {
				w.question, w.source = q.ID, src
				return nil
			}
		}
		return verdict.Skipf("no testimony affordable in this case takes a stance on a question")
	})
	assertCiting := func(ctx context.Context, src string, opposite bool) error {
		w.mark()
		var st engine.Stance
		for _, q := range w.m.State.Case.Questions {
			if q.ID == w.question {
				s, _ := w.m.observedSource(src)
				for _, c := range s.Claims {
					if c.Claim == q.Claim {
						st = c.Stance
					}
				}
			}
		}
		return w.act(ctx, engine.ActAnswer, fmt.Sprintf("%s %s 断言 %s", w.question, verdictOf(st, opposite), src))
	}
	sc.Step(`^the agent asserts that question citing the document$`, func(ctx context.Context) error { return assertCiting(ctx, w.doc, false) })
	sc.Step(`^the agent asserts that question citing the testimony$`, func(ctx context.Context) error { return assertCiting(ctx, w.source, false) })
	sc.Step(`^the agent asserts the opposite of the document on that question$`, func(ctx context.Context) error { return assertCiting(ctx, w.doc, true) })
	sc.Step(`^the assertion is recorded$`, func() error {
		a, ok := w.m.Answers[w.question]
		if w.last == nil || !w.last.OK || !ok || a.Confidence != engine.Assert || w.m.Rejections[w.question] != w.beforeRejections[w.question] {
			return verdict.Failf("PP-ANSWER-ASSERT-SOURCES", "the assertion recorded", clip(w.body), "")
		}
		return nil
	})
	sc.Step(`^the agent asserts a question the document says nothing about, citing it$`, func(ctx context.Context) error {
		w.mark()
		q, ok := w.silentQuestion(w.doc)
		if !ok {
			return verdict.Skipf("document %s takes a stance on every question", w.doc)
		}
		w.question = q
		return w.act(ctx, engine.ActAnswer, q+" 真 断言 "+w.doc)
	})
	sc.Step(`^the answer is rejected at the cost of a turn$`, func() error {
		r := w.last
		if r == nil || !r.OK || r.State.Turn != w.before.Turn+1 || w.m.Rejections[w.question] != w.beforeRejections[w.question]+1 {
			return verdict.Failf("PP-ANSWER-REJECT", "ok:true, one turn spent, one more rejection", clip(w.body), "")
		}
		// The question may hold an earlier answer: a rejection leaves it as it was.
		now, has := w.m.Answers[w.question]
		prev, had := w.beforeAnswers[w.question]
		if has && (!had || !reflect.DeepEqual(prev, now)) {
			return verdict.Failf("PP-ANSWER-REJECT", "the answer not recorded", now, "")
		}
		return nil
	})
	sc.Step(`^the agent has been rejected 3 times on a question$`, func(ctx context.Context) error {
		w.doc = w.unreadDoc()
		if err := w.act(ctx, engine.ActRead, w.doc); err != nil {
			return err
		}
		q, ok := w.silentQuestion(w.doc)
		if !ok {
			return verdict.Skipf("document %s takes a stance on every question", w.doc)
		}
		w.question = q
		for i := 0; i < engine.MaxRejections; i++ {
			if err := w.act(ctx, engine.ActAnswer, q+" 偽 断言 "+w.doc); err != nil {
				return err
			}
		}
		return nil
	})
	sc.Step(`^the agent asserts that question is unverifiable$`, func(ctx context.Context) error {
		w.mark()
		return w.act(ctx, engine.ActAnswer, w.question+" 裏取り不能 断言")
	})
	sc.Step(`^the agent hedges on that question$`, func(ctx context.Context) error {
		w.mark()
		return w.act(ctx, engine.ActAnswer, w.question+" 裏取り不能 留保")
	})
	sc.Step(`^the question accepts only hedges$`, func() error {
		s := w.m.State
		listed := !w.m.Shows["hedge_only"] // the kit's field; checked where a target shows it
		for _, q := range s.HedgeOnly {
			listed = listed || q == w.question
		}
		if w.m.Rejections[w.question] != engine.MaxRejections || !listed {
			return verdict.Failf("PP-ANSWER-HEDGE-ONLY", fmt.Sprintf("%s with 3 rejections, listed hedge_only", w.question), fmt.Sprintf("%v %v", w.m.Rejections, s.HedgeOnly), "")
		}
		return nil
	})
	sc.Step(`^the assertion is not recorded$`, func() error {
		before, had := w.beforeAnswers[w.question]
		now, has := w.m.Answers[w.question]
		if has && (!had || before.Confidence != now.Confidence) {
			return verdict.Failf("PP-ANSWER-HEDGE-ONLY", "no assertion recorded", now, "")
		}
		if w.last != nil && w.last.OK && w.last.State.Turn != w.before.Turn+1 {
			return verdict.Failf("PP-ANSWER-HEDGE-ONLY", "ok:false, or ok:true spending one turn", clip(w.body), "")
		}
		return nil
	})
	sc.Step(`^the refusal carries the code "([^"]*)" and an error message$`, func(code string) error {
		if w.last == nil || w.last.OK || w.last.Code != code || w.last.Error == "" {
			return verdict.Failf("PP-REFUSAL-CODES", "ok:false with code "+code+" and an error", clip(w.body), "")
		}
		return nil
	})
}

// silentQuestion finds a question whose claim the source takes no stance on.
func (w *world) silentQuestion(src string) (string, bool) {
	s, ok := w.m.observedSource(src)
	if !ok {
		return "", false
	}
	for _, q := range w.m.State.Case.Questions {
		if !engine.Backs(s, q.Claim, engine.True) && !engine.Backs(s, q.Claim, engine.False) {
			return q.ID, true
		}
	}
	return "", false
}
