package phantompress

import (
	"context"
	"errors"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// readAffordable reads unread documents while AP allows.
func (w *world) readAffordable(ctx context.Context) error {
	for w.m.State.AP >= engine.APRead {
		id := w.unreadDoc()
		if id == "" {
			return nil
		}
		if err := w.act(ctx, engine.ActRead, id); err != nil {
			return err
		}
	}
	return nil
}

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

// spendAllAP reads and interviews until no investigation is affordable.
func (w *world) spendAllAP(ctx context.Context) error {
	if err := w.readAffordable(ctx); err != nil {
		return err
	}
	for w.m.State.AP >= engine.APInterview {
		src := w.unheardTopic()
		if src == "" {
			break
		}
		if err := w.act(ctx, engine.ActInterview, src); err != nil {
			return err
		}
	}
	return nil
}

// spendAPKeepingUnread spends AP, interviews first, until less than a
// read's cost is left while an unread document remains: the next read must
// be refused for want of AP, not because the document was read.
func (w *world) spendAPKeepingUnread(ctx context.Context) error {
	for w.m.State.AP >= engine.APRead {
		unread := 0
		for _, d := range w.m.State.Case.Documents {
			if !d.Read {
				unread++
			}
		}
		switch src := w.unheardTopic(); {
		case src != "" && w.m.State.AP >= engine.APInterview:
			if err := w.act(ctx, engine.ActInterview, src); err != nil {
				return err
			}
		case unread >= 2:
			if err := w.act(ctx, engine.ActRead, w.unreadDoc()); err != nil {
				return err
			}
		default:
			return verdict.Skipf("case %d cannot be left short of AP with a document unread", w.m.State.CaseNo)
		}
	}
	return nil
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

// playThrough plays every case to its publish: a look, one interview, the
// documents AP allows, assertions of what officials say.
func (w *world) playThrough(ctx context.Context) error {
	for i := 0; i < 4 && w.m.State.Status == engine.StatusActive; i++ {
		if err := w.act(ctx, engine.ActLook, ""); err != nil {
			return err
		}
		if src := w.unheardTopic(); src != "" {
			if err := w.act(ctx, engine.ActInterview, src); err != nil {
				return err
			}
		}
		if err := w.readAffordable(ctx); err != nil {
			return err
		}
		if err := w.answerFromOfficials(ctx); err != nil {
			return err
		}
		if err := w.act(ctx, engine.ActPublish, ""); err != nil {
			return err
		}
	}
	return nil
}

// misprintUntilFired asserts 裏取り不能 everywhere, which misprints every
// question whose answer is 真 or 偽, until trust runs out.
func (w *world) misprintUntilFired(ctx context.Context) error {
	for i := 0; i < 4 && w.m.State.Status == engine.StatusActive; i++ {
		if err := w.answerAll(ctx, "裏取り不能 断言", 0); err != nil {
			return err
		}
		if err := w.act(ctx, engine.ActPublish, ""); err != nil {
			return err
		}
	}
	if w.m.State.Status != engine.StatusFired {
		return verdict.Skipf("the target's cases did not let misprints exhaust trust (status %s)", w.m.State.Status)
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

// playedRun adopts the run's one played-through run, playing it first if
// no scenario has. A failure while playing is every dependent's failure.
func (w *world) playedRun(ctx context.Context) error {
	p := poolOf(w.env)
	p.playMu.Lock()
	defer p.playMu.Unlock()
	if p.played == nil {
		err := w.startRun(ctx, defaultBudget, nil)
		if err == nil {
			err = w.playThrough(ctx)
		}
		var s *verdict.Skipped
		if errors.As(err, &s) {
			return err
		}
		p.played = &sharedRun{run: w.run, m: w.m, me: w.me, err: err}
	}
	if p.played.err != nil {
		return p.played.err
	}
	w.run, w.m, w.me = p.played.run, p.played.m, p.played.me
	return nil
}
