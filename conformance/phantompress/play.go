package phantompress

import (
	"context"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

func (w *world) unreadDoc() string {
	for _, d := range w.m.State.Case.Documents {
		if !d.Read {
			return d.ID
		}
	}
	return ""
}

func (w *world) unheardTopic() string {
	for _, wt := range w.m.State.Case.Witnesses {
		for _, t := range wt.Topics {
			if !t.Interviewed {
				return t.Source
			}
		}
	}
	return ""
}

// answerAll answers every unanswered question with "<qid> <rest>".
func (w *world) answerAll(ctx context.Context, rest string, skip int) error {
	qs := w.m.State.Case.Questions
	for i := 0; i < len(qs)-skip; i++ {
		if _, done := w.m.Answers[qs[i].ID]; done {
			continue
		}
		if err := w.act(ctx, engine.ActAnswer, qs[i].ID+" "+rest); err != nil {
			return err
		}
	}
	return nil
}

// backing finds an observed source taking a stance on claim.
func (w *world) backing(claim string, officialOnly bool) (string, engine.Stance) {
	for _, d := range w.m.State.Case.Documents {
		doc, ok := w.m.Docs[d.ID]
		if !ok || (officialOnly && doc.Kind != engine.KindOfficial) {
			continue
		}
		for _, c := range doc.Claims {
			if c.Claim == claim {
				return doc.ID, c.Stance
			}
		}
	}
	if officialOnly {
		return "", ""
	}
	for id, t := range w.m.Testimonies {
		for _, c := range t.Claims {
			if c.Claim == claim {
				return id, c.Stance
			}
		}
	}
	return "", ""
}

// answerFromOfficials asserts what an official the agent read says and
// hedges 裏取り不能 elsewhere: the play of a careful trainee.
func (w *world) answerFromOfficials(ctx context.Context) error {
	for _, q := range w.m.State.Case.Questions {
		arg := q.ID + " 裏取り不能 留保"
		if id, st := w.backing(q.Claim, true); id != "" {
			v := engine.True
			if st == engine.Contradicts {
				v = engine.False
			}
			arg = q.ID + " " + string(v) + " 断言 " + id
		}
		if err := w.act(ctx, engine.ActAnswer, arg); err != nil {
			return err
		}
	}
	return nil
}

// hedgeThrough finishes the run by hedging 裏取り不能 on every question of
// every case: cheap, never fired (at most 26 wrong hedges of -3 trust).
func (w *world) hedgeThrough(ctx context.Context) error {
	for i := 0; i < 4 && w.m.State.Status == engine.StatusActive; i++ {
		if err := w.answerAll(ctx, "裏取り不能 留保", 0); err != nil {
			return err
		}
		if err := w.act(ctx, engine.ActPublish, ""); err != nil {
			return err
		}
	}
	if w.m.State.Status == engine.StatusActive {
		return verdict.Errorf("the run is still active after four publishes")
	}
	return nil
}

// sharedRun is a finished run one scenario played and later scenarios that
// only inspect it reuse, sparing a live deployment's quota.
type sharedRun struct {
	run string
	m   *Model
	me  *identity
	err error
}
