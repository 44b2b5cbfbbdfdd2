package phantompress

import (
	"context"

	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// deskBudget is the budget of the shared desk run: the turn limit, so the
// run serves as many scenarios as its four cases allow.
const deskBudget = seedTurnLimit

// Headroom a desk case must have left to serve one more scenario: the
// largest need of a scenario that starts on "an active run" (two reads, an
// interview, a few answers, a rejection or three).
const (
	deskTurnsLeft   = 40
	deskAPLeft      = 6
	deskUnreadLeft  = 3
	deskOpenAnswers = 2
)

// turnPage publishes the desk's current case with hedges on every question
// until a case with enough headroom is open or the run is over.
func (w *world) turnPage(ctx context.Context) error {
	for w.m.State.Status == engine.StatusActive && !deskReady(w.m) && turnsLeft(w.m) >= deskTurnsLeft {
		for _, q := range w.m.State.Case.Questions {
			if err := w.act(ctx, engine.ActAnswer, q.ID+" 裏取り不能 留保"); err != nil {
				return err
			}
		}
		if err := w.act(ctx, engine.ActPublish, ""); err != nil {
			return err
		}
	}
	return nil
}

// deskReady reports whether the desk's current case can serve one more
// scenario: active, turns and AP to spare, unread documents, an unheard
// topic, questions still open and no rejection yet.
func deskReady(m *Model) bool {
	s := m.State
	if s.Status != engine.StatusActive || turnsLeft(m) < deskTurnsLeft || s.AP < deskAPLeft {
		return false
	}
	unread, unheard := 0, false
	for _, d := range s.Case.Documents {
		if !d.Read {
			unread++
		}
	}
	for _, wt := range s.Case.Witnesses {
		for _, t := range wt.Topics {
			unheard = unheard || !t.Interviewed
		}
	}
	for _, n := range m.Rejections {
		if n > 0 {
			return false
		}
	}
	return unread >= deskUnreadLeft && unheard && len(s.Case.Questions)-len(m.Answers) >= deskOpenAnswers
}

func turnsLeft(m *Model) int { return m.State.BudgetTurns - m.State.Turn }
