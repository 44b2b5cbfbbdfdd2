package phantompress

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// casesMatchTable checks that four cases were played and each showed the
// AP, documents, witnesses and questions of its row of the table
// (PP-CASE-TABLE).
func (w *world) casesMatchTable() error {
	if len(w.m.Cases) != 4 {
		return verdict.Failf("PP-CASE-TABLE", 4, len(w.m.Cases), "cases seen while playing through")
	}
	for _, c := range w.m.Cases {
		s, _ := seedSpecOf(c.CaseNo)
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

// case2Open checks that the run moved to case 2 with its 12 AP (the
// scenario's rule).
func (w *world) case2Open() error {
	s := w.m.State
	if s.CaseNo != 2 || s.AP != 12 {
		return verdict.Failf(w.rule(), "case 2 with 12 AP", fmt.Sprintf("case %d with %d AP", s.CaseNo, s.AP), "")
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
	if s.RunID != w.run || s.Status != engine.StatusActive || s.TurnLimit != seedTurnLimit || s.Trust != w.Before.Trust ||
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

// casesSteps registers the steps of features/phantom-press/cases.feature.
func casesSteps(sc *suite.ScenarioContext, w *world) {
	sc.Step(pattern(`^each case showed the AP, documents, witnesses and questions of its row$`), w.casesMatchTable)
	sc.Step(pattern(`^the cases came in the order 1, 2, 3, 4$`), w.casesInOrder)
	sc.Step(pattern(`^the agent answers every question with a hedge$`), w.hedgeAll)
	sc.Step(pattern(`^case 2 is open with fresh AP$`), w.case2Open)
	sc.Step(pattern(`^the AP fell by (\d+)$`), w.apFellBy)
	sc.Step(pattern(`^the agent has spent all its AP$`), w.spendAllAP)
	sc.Step(pattern(`^the agent reads the same document again$`), w.rereadDocument)
	sc.Step(pattern(`^the agent performs "([^"]*)" with "([^"]*)"$`), w.perform)
	sc.Step(pattern(`^the available actions match the run's situation$`), w.availableMatch)
	sc.Step(pattern(`^the available actions list every action valid now$`), w.availableComplete)
	sc.Step(pattern(`^the state shows the run's resources and the case's public face$`), w.stateView)
	sc.Step(pattern(`^the events hold one document event for that document$`), w.oneDocumentEvent)
	sc.Step(pattern(`^the document shows its kind, origin, text and the claims it takes a stance on$`), w.docFormat)
	sc.Step(pattern(`^the testimony shows its source, origin, text and the claims it takes a stance on$`), w.testimonyFormat)
	sc.Step(pattern(`^the agent has spent its AP down to (\d+), a document and a topic still open$`), w.spendAPDownTo)
	sc.Step(pattern(`^the agent (?:has spent|spends) its AP with a document still unread$`), w.spendAPKeepingUnread)
	sc.Step(pattern(`^the answer carries ok, turn, narrative, state, events and available_actions$`), w.actionResponseFields)
	sc.Step(pattern(`^the state carries case_no, turn, trust, ap and the status "([^"]*)"$`), w.stateClientFields)
	sc.Step(pattern(`^the state's status is no longer "active"$`), w.noLongerActive)
}

// spendAPKeepingUnread spends AP, interviews first, until less than a
// read's cost is left while an unread document remains: the next read must
// be refused for want of AP, not because the document was read.
func (w *world) spendAPKeepingUnread(ctx context.Context) error {
	for w.m.State.AP >= seedAPRead {
		unread := 0
		for _, d := range w.m.State.Case.Documents {
			if !d.Read {
				unread++
			}
		}
		switch src := w.unheardTopic(); {
		case src != "" && w.m.State.AP >= seedAPInterview:
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

// spendAPDownTo reads and interviews until exactly n AP are left, keeping
// one document unread and one topic unasked, so the next read or interview
// meets the AP boundary (PP-AP-COST, PP-AP-INSUFFICIENT); it skips when the
// case cannot be spent down to n that way.
func (w *world) spendAPDownTo(ctx context.Context, n int) error {
	docs, topics := w.openDocs(), w.openTopics()
	spend := w.m.State.AP - n
	for reads := 0; reads < len(docs) && 2*reads <= spend; reads++ {
		rest := spend - seedAPRead*reads
		if rest%seedAPInterview != 0 || rest/seedAPInterview >= len(topics) {
			continue
		}
		for _, d := range docs[:reads] {
			if err := w.act(ctx, engine.ActRead, d); err != nil {
				return err
			}
		}
		for _, t := range topics[:rest/seedAPInterview] {
			if err := w.act(ctx, engine.ActInterview, strings.Replace(t, ":", " ", 1)); err != nil {
				return err
			}
		}
		return nil
	}
	return verdict.Skipf("case %d cannot be spent from %d down to %d AP with a document and a topic left", w.m.State.CaseNo, w.m.State.AP, n)
}

// actionResponseFields checks that an action's answer carries the fields
// the seed's client reads (PP-ACTION-RESPONSE).
func (w *world) actionResponseFields() error {
	for _, k := range []string{"ok", "turn", "narrative", "state", "events", "available_actions"} {
		if !hasKey(w.Body(), k) {
			return verdict.Failf("PP-ACTION-RESPONSE", "ok, turn, narrative, state, events, available_actions", clip(w.Body()), "no %q", k)
		}
	}
	return nil
}

// stateClientFields checks that the state carries the fields the seed's
// client reads, at case 1 with the initial trust and the given status
// (PP-STATE-CLIENT-FIELDS).
func (w *world) stateClientFields(status string) error {
	has := stateKeys(w.Body())
	for _, k := range []string{"case_no", "turn", "trust", "ap", "status"} {
		if !has[k] {
			return verdict.Failf("PP-STATE-CLIENT-FIELDS", "state.case_no, turn, trust, ap, status", clip(w.Body()), "no state.%s", k)
		}
	}
	if s := w.last.State; s.Status != status || s.CaseNo != 1 || s.Trust != seedTrustInit {
		return verdict.Failf("PP-STATE-CLIENT-FIELDS", fmt.Sprintf("case 1, trust 100, status %q", status), fmt.Sprintf("case %d, trust %d, status %q", s.CaseNo, s.Trust, s.Status), "")
	}
	return nil
}

// noLongerActive checks that the run's status is no longer active
// (PP-STATE-STATUS-ENDED).
func (w *world) noLongerActive() error {
	if got := w.m.State.Status; got == engine.StatusActive {
		return verdict.Failf("PP-STATE-STATUS-ENDED", "a status other than active", got, "after case %d, trust %d", w.m.State.CaseNo, w.m.State.Trust)
	}
	return nil
}
