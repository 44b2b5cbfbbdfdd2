package phantompress

import (
	"context"
	"fmt"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// caseSteps registers the steps of the case table, AP costs, the state view
// and the documents and testimonies a case shows.
func caseSteps(sc *godog.ScenarioContext, w *world) {
	sc.Step(pattern(`^the agent plays through every case$`), w.playThrough)
	sc.Step(pattern(`^each case showed the AP, documents, witnesses and questions of its row$`), w.casesMatchTable)
	sc.Step(pattern(`^the cases came in the order 1, 2, 3, 4$`), w.casesInOrder)
	sc.Step(pattern(`^the agent has answered every question with a hedge$`), w.hedgeAll)
	sc.Step(pattern(`^the agent answers every question with a hedge$`), w.hedgeAll)
	sc.Step(pattern(`^the agent has answered every question with "([^"]*)"$`), w.answerAllWith)
	sc.Step(pattern(`^the agent has answered every question but one$`), w.answerAllButOne)
	sc.Step(pattern(`^the agent publishes the paper$`), w.publishPaper)
	sc.Step(pattern(`^case 2 is open with fresh AP$`), w.case2Open)
	sc.Step(pattern(`^the action succeeds and spends one turn$`), w.succeedsSpendingTurn)
	sc.Step(pattern(`^the AP fell by (\d+)$`), w.apFellBy)
	sc.Step(pattern(`^the agent interviews a witness$`), w.interviewWitness)
	sc.Step(pattern(`^the agent has spent all its AP$`), w.spendAllAP)
	sc.Step(pattern(`^the agent spends all its AP$`), w.spendAllAP)
	sc.Step(pattern(`^the agent has read a document$`), w.readDocument)
	sc.Step(pattern(`^the agent reads the same document again$`), w.rereadDocument)
	sc.Step(pattern(`^the agent performs "([^"]*)" with "([^"]*)"$`), w.perform)
	sc.Step(pattern(`^the available actions match the run's situation$`), w.availableMatch)
	sc.Step(pattern(`^the available actions list every action valid now$`), w.availableComplete)
	sc.Step(pattern(`^the state shows the run's resources and the case's public face$`), w.stateView)
	sc.Step(pattern(`^the events hold one document event for that document$`), w.oneDocumentEvent)
	sc.Step(pattern(`^the document shows its kind, origin, text and the claims it takes a stance on$`), w.docFormat)
	sc.Step(pattern(`^the testimony shows its source, origin, text and the claims it takes a stance on$`), w.testimonyFormat)
}

// casesMatchTable checks that four cases were played and each showed the
// AP, documents, witnesses and questions of its row of the table
// (PP-CASE-TABLE).
func (w *world) casesMatchTable() error {
	if len(w.m.Cases) != 4 {
		return verdict.Failf("PP-CASE-TABLE", 4, len(w.m.Cases), "cases seen while playing through")
	}
	for _, c := range w.m.Cases {
		s, _ := engine.SpecOf(c.CaseNo)
		if err := CheckCaseTable(c, s.AP); err != nil {
			return err
		}
		if c.APMax != s.AP {
			return verdict.Failf("PP-CASE-TABLE", s.AP, c.APMax, "ap_max of case %d", c.CaseNo)
		}
	}
	return nil
}

// casesInOrder checks that the cases came in the order 1, 2, 3, 4
// (PP-CASE-ORDER).
func (w *world) casesInOrder() error {
	var got []int
	for _, c := range w.m.Cases {
		got = append(got, c.CaseNo)
	}
	if fmt.Sprint(got) != "[1 2 3 4]" {
		return verdict.Failf("PP-CASE-ORDER", "[1 2 3 4]", got, "")
	}
	return nil
}

// hedgeAll hedges every question of the case as 裏取り不能.
func (w *world) hedgeAll(ctx context.Context) error {
	return w.answerAll(ctx, "裏取り不能 留保", 0)
}

// answerAllWith answers every question of the case with the given verdict
// and confidence.
func (w *world) answerAllWith(ctx context.Context, rest string) error {
	return w.answerAll(ctx, rest, 0)
}

// answerAllButOne hedges every question of the case but one.
func (w *world) answerAllButOne(ctx context.Context) error {
	return w.answerAll(ctx, "裏取り不能 留保", 1)
}

// publishPaper marks the run and publishes the paper.
func (w *world) publishPaper(ctx context.Context) error {
	w.mark()
	return w.act(ctx, engine.ActPublish, "")
}

// case2Open checks that the run moved to case 2 with its 12 AP (the
// scenario's rule).
func (w *world) case2Open() error {
	s := w.m.State
	if s.CaseNo != 2 || s.AP != 12 {
		return verdict.Failf(w.rule(), "case 2 with 12 AP", fmt.Sprintf("case %d with %d AP", s.CaseNo, s.AP), "")
	}
	return nil
}

// succeedsSpendingTurn checks that the last action answered ok:true one
// turn after the mark (the scenario's rule).
func (w *world) succeedsSpendingTurn() error {
	if w.last == nil || !w.last.OK || w.last.State.Turn != w.Before.Turn+1 {
		return verdict.Failf(w.rule(), fmt.Sprintf("ok:true at turn %d", w.Before.Turn+1), fmt.Sprintf("%d %s", w.Status(), clip(w.Body())), "")
	}
	return nil
}

// apFellBy checks that the action cost n AP since the mark: PP-AP-COST,
// or PP-AP-ZERO for the actions that cost none (the scenario's rule).
func (w *world) apFellBy(n int) error {
	if got := w.Before.AP - w.m.State.AP; got != n {
		return verdict.Failf(w.rule(), n, got, "AP spent")
	}
	return nil
}

// interviewWitness marks the run and interviews a witness not heard yet,
// keeping its source.
func (w *world) interviewWitness(ctx context.Context) error {
	w.mark()
	w.source = w.unheardTopic()
	return w.act(ctx, engine.ActInterview, strings.Replace(w.source, ":", " ", 1))
}

// readDocument reads a document not read yet, keeping its ID, without
// marking the run.
func (w *world) readDocument(ctx context.Context) error {
	w.doc = w.unreadDoc()
	return w.act(ctx, engine.ActRead, w.doc)
}

// rereadDocument marks the run and reads the kept document again.
func (w *world) rereadDocument(ctx context.Context) error {
	w.mark()
	return w.act(ctx, engine.ActRead, w.doc)
}

// perform marks the run and sends any action with its argument.
func (w *world) perform(ctx context.Context, action, arg string) error {
	w.mark()
	return w.act(ctx, action, arg)
}

// availableMatch checks the last answer's available actions against the
// model (Model.checkAvailable names the rule).
func (w *world) availableMatch() error {
	return w.m.checkAvailable(w.last.AvailableActions)
}

// availableComplete checks that the last answer listed every action the
// model judges valid now, no more and no fewer (PP-AVAILABLE-ACTIONS-COMPLETE).
func (w *world) availableComplete() error {
	if w.last == nil {
		return verdict.Errorf("no action answer to read available_actions from")
	}
	if want, got := w.m.Expected(), actionNames(w.last.AvailableActions); !sameSet(want, got) {
		return verdict.Failf("PP-AVAILABLE-ACTIONS-COMPLETE", want, w.last.AvailableActions, "")
	}
	return nil
}

// stateView checks that the last state shows the run, status active, the
// turn limit, the marked trust and a case with claimed questions
// (PP-STATE-VIEW).
func (w *world) stateView() error {
	s := w.last.State
	if s.RunID != w.run || s.Status != engine.StatusActive || s.TurnLimit != engine.TurnLimit || s.Trust != w.Before.Trust ||
		s.Case.CaseNo != s.CaseNo || len(s.Case.Questions) == 0 || s.Case.Questions[0].Claim == "" {
		return verdict.Failf("PP-STATE-VIEW", fmt.Sprintf("run_id, status active, turn_limit 200, trust %d as before, case with claims", w.Before.Trust), s, "")
	}
	return nil
}

// oneDocumentEvent checks that the last answer's events hold exactly one
// document event, for the document read (PP-EVENTS).
func (w *world) oneDocumentEvent() error {
	var docs []string
	for _, e := range w.last.Events {
		if e.Type == "document" && e.Document != nil {
			docs = append(docs, e.Document.ID)
		}
	}
	if len(docs) != 1 || docs[0] != w.doc {
		return verdict.Failf("PP-EVENTS", []string{w.doc}, docs, "document events")
	}
	return nil
}

// docFormat checks that the document read shows a known kind, its origin,
// text and claims with a supports or contradicts stance (PP-DOC-FORMAT).
func (w *world) docFormat() error {
	d, ok := w.m.Docs[w.doc]
	if !ok || !engine.KnownKind(d.Kind) || d.Kind == engine.KindTestimony || d.Origin == "" || d.Text == "" || len(d.Claims) == 0 {
		return verdict.Failf("PP-DOC-FORMAT", "{kind, origin, text, claims}", d, "document %s", w.doc)
	}
	for _, c := range d.Claims {
		if c.Claim == "" || (c.Stance != engine.Supports && c.Stance != engine.Contradicts) {
			return verdict.Failf("PP-DOC-FORMAT", "claims with a key and stance supports|contradicts", c, "")
		}
	}
	return nil
}

// testimonyFormat checks that the testimony heard shows its origin, text
// and claims (PP-DOC-FORMAT).
func (w *world) testimonyFormat() error {
	t, ok := w.m.Testimonies[w.source]
	if !ok || t.Origin == "" || t.Text == "" || len(t.Claims) == 0 {
		return verdict.Failf("PP-DOC-FORMAT", "{source, origin, text, claims}", t, "testimony %s", w.source)
	}
	return nil
}
