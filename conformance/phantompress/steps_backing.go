package phantompress

import (
	"context"
	"fmt"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// backingSteps registers the steps of answers.feature that check the
// all-sources reading of backing: an answer citing a document silent on its
// question beside one that backs it.
func backingSteps(sc *godog.ScenarioContext, w *world) {
	sc.Step(pattern(`^the agent has read another document silent on that question$`), w.readSilentDocument)
	sc.Step(pattern(`^the agent asserts that question citing both documents$`), w.assertCitingBoth)
}

// readSilentDocument reads documents until one is silent on the kept
// question, keeping it as the second source; it skips when none affordable
// is.
func (w *world) readSilentDocument(ctx context.Context) error {
	for w.m.State.AP >= engine.APRead && w.unreadDoc() != "" {
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

// silentOn reports whether an observed source takes no stance on question q.
func (w *world) silentOn(src, q string) bool {
	s, ok := w.m.observedSource(src)
	if !ok {
		return false
	}
	for _, qq := range w.m.State.Case.Questions {
		if qq.ID == q {
			return !engine.Backs(s, qq.Claim, engine.True) && !engine.Backs(s, qq.Claim, engine.False)
		}
	}
	return false
}
