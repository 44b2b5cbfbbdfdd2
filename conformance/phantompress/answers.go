package phantompress

import (
	"context"
	"fmt"
	"strings"

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

// assertCiting marks the run and asserts the kept question citing src, with
// the verdict the source backs or, when opposite, the other one.
func (w *world) assertCiting(ctx context.Context, src string, opposite bool) error {
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

// unbooked skips an answer check the model cannot decide: the answer cited
// a source the target showed in another shape than the kit's documents and
// testimonies (PP-DOC-FORMAT), it was accepted, and the target lists no
// recorded answers to book it from.
func (w *world) unbooked() error {
	if w.expect.HTTP == -1 && w.last != nil && w.last.OK && !w.last.has["answers"] {
		return verdict.Skipf("unchecked: the answer cites a source the target showed in another shape than the kit's (PP-DOC-FORMAT), and its state lists no recorded answers")
	}
	return nil
}
