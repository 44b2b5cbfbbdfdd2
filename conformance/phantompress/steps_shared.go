package phantompress

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// sharedSteps registers the steps several feature files use.
func sharedSteps(sc *suite.ScenarioContext, w *world) {
	registerSteps(sc, w)
	sc.Step(pattern(`^the request is refused with status (\d+)$`), w.wantStatus)
	sc.Step(pattern(`^a registered agent$`), w.registeredAgent)
	sc.Step(pattern(`^a fresh run$`), w.freshRun)
	sc.Step(pattern(`^an active run$`), w.activeRun)
	sc.Step(pattern(`^the agent looks at the case$`), w.lookAtCase)
	sc.Step(pattern(`^the agent reads a document$`), w.readADocument)
	sc.Step(pattern(`^the public log of the run can be fetched$`), w.logFetchable)
	sc.Step(pattern(`^the agent sends the raw action body (.+)$`), w.sendRawAction)
	sc.Step(pattern(`^nothing about the run changed$`), w.runUnchanged)
	sc.Step(pattern(`^a run played through to the end$`), w.playedRun)
	sc.Step(pattern(`^the agent has answered every question with a hedge$`), w.hedgeAll)
	sc.Step(pattern(`^the agent publishes the paper$`), w.publishPaper)
	sc.Step(pattern(`^the action succeeds and spends one turn$`), w.succeedsSpendingTurn)
	sc.Step(pattern(`^the agent interviews a witness$`), w.interviewWitness)
	sc.Step(pattern(`^the agent has read a document$`), w.readDocument)
	sc.Step(pattern(`^the agent starts a run with the body (.+)$`), w.startRunWithBody)
	sc.Step(pattern(`^a run is started with a budget of (\d+) turns$`), w.runStartedWithBudget)
	sc.Step(pattern(`^a fresh run with a budget of (\d+) turns$`), w.freshRunWithBudget)
	sc.Step(pattern(`^the agent extends the budget by (\d+) turns$`), w.extendBudget)
	sc.Step(pattern(`^the agent has extended the budget by (\d+) turns$`), w.extendedBudget)
	sc.Step(pattern(`^the agent has looked at the case$`), w.lookedAtCase)
	sc.Step(pattern(`^the agent checks its status$`), w.checkStatus)
	sc.Step(pattern(`^the public log lists 1 action, the look$`), w.logListsOneLook)
	sc.Step(pattern(`^the action succeeds without spending a turn$`), w.succeedsWithoutTurn)
	sc.Step(pattern(`^the action is refused without spending a turn$`), w.refusedWithoutTurn)
	sc.Step(pattern(`^the agent has read every document it can afford$`), w.readAffordable)
	sc.Step(pattern(`^the agent misprints until it is fired$`), w.misprintUntilFired)
	sc.Step(pattern(`^the agent fetches the public log of the run$`), w.fetchLog)
}

// activeRun gives the scenario a run it may act on. Against the embedded
// reference that is a fresh run, so scenarios stay independent. Against a
// live target the scenario joins the shared desk run while its current case
// still has the headroom above; otherwise the desk publishes the case with
// hedges and moves to the next one, and only a finished desk starts a new
// run. A scenario that ends in anything but a pass drops the desk, since
// the model may no longer match the target. The per-key allowance of 30
// runs a day then covers many scenarios per run (PP-QUOTA-RUNS).
func (w *world) activeRun(ctx context.Context) error {
	if !w.env.Live() {
		return w.startRun(ctx, defaultBudget, nil)
	}
	p := poolOf(w.env)
	p.playMu.Lock()
	defer p.playMu.Unlock()
	if d := p.desk; d != nil {
		w.run, w.m, w.me = d.run, d.m, d.me
		if err := w.turnPage(ctx); err != nil {
			p.desk = nil
			return err
		}
		if !deskReady(w.m) {
			p.desk = nil
		}
	}
	if p.desk == nil {
		if err := w.startRun(ctx, deskBudget, nil); err != nil {
			return err
		}
		p.desk = &sharedRun{run: w.run, m: w.m, me: w.me}
	}
	w.first = &created{RunID: w.run, State: w.m.State}
	desk := p.desk
	w.Cleanup(func() {
		if w.Failed() {
			p.playMu.Lock()
			if p.desk == desk {
				p.desk = nil
			}
			p.playMu.Unlock()
		}
	})
	return nil
}

// readAffordable reads unread documents while AP allows.
func (w *world) readAffordable(ctx context.Context) error {
	for w.m.State.AP >= seedAPRead {
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

// spendAllAP reads and interviews until no investigation is affordable.
func (w *world) spendAllAP(ctx context.Context) error {
	if err := w.readAffordable(ctx); err != nil {
		return err
	}
	for w.m.State.AP >= seedAPInterview {
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
// question whose answer is 真 or 偽, until trust runs out. The run counts
// as fired when it ended with trust 0, whatever the target calls that
// status: the name is the kit's (PP-STATE-VIEW), judged by a later step.
func (w *world) misprintUntilFired(ctx context.Context) error {
	for i := 0; i < 4 && w.m.State.Status == engine.StatusActive; i++ {
		if err := w.answerAll(ctx, "裏取り不能 断言", 0); err != nil {
			return err
		}
		if err := w.act(ctx, engine.ActPublish, ""); err != nil {
			return statusEndedOf(w.rule(), err)
		}
	}
	if w.m.State.Status == engine.StatusActive || w.m.State.Trust != 0 {
		return verdict.Skipf("the target's cases did not let misprints exhaust trust (status %s)", w.m.State.Status)
	}
	return nil
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

func (w *world) wantStatus(code int) error {
	if w.Status() != code {
		return verdict.Failf(w.rule(), code, w.Status(), "body %s", clip(w.Body()))
	}
	return nil
}

// registeredAgent gives the scenario an agent, reusing the run-wide
// identity where it can to spare the target's quota.
func (w *world) registeredAgent(ctx context.Context) error {
	_, err := w.identity(ctx)
	return err
}

// freshRun starts a run with the default budget.
func (w *world) freshRun(ctx context.Context) error { return w.startRun(ctx, defaultBudget, nil) }

// lookAtCase marks the run and looks at the case: a When step whose answer
// the Then steps judge.
func (w *world) lookAtCase(ctx context.Context) error {
	w.mark()
	return w.act(ctx, engine.ActLook, "")
}

// readADocument marks the run and reads a document not read yet (d1 if
// every one was).
func (w *world) readADocument(ctx context.Context) error {
	w.mark()
	w.doc = w.unreadDoc()
	if w.doc == "" {
		w.doc = "d1"
	}
	return w.act(ctx, engine.ActRead, w.doc)
}

// logFetchable checks that the run's public log can be fetched without a
// key and names the run (the scenario's rule).
func (w *world) logFetchable(ctx context.Context) error {
	l, err := w.getLog(ctx)
	if err != nil {
		return err
	}
	if l.RunID != w.run {
		return verdict.Failf(w.rule(), w.run, l.RunID, "run_id of the log")
	}
	return nil
}

// sendRawAction marks the run and posts a raw, possibly malformed, action
// body.
func (w *world) sendRawAction(ctx context.Context, raw string) error {
	w.mark()
	_, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/action", w.me.Key, nil, []byte(raw))
	return err
}

// runUnchanged checks that the run's turn, AP, trust, points, case, status,
// budget, answers and sources are as they were when marked: a refused
// request changes nothing (the scenario's rule).
func (w *world) runUnchanged(ctx context.Context) error {
	if w.snap == nil {
		return verdict.Errorf("no snapshot of the run")
	}
	s, err := w.fetchState(ctx)
	if err != nil {
		return err
	}
	a, b := *w.snap, s
	if a.Turn != b.Turn || a.AP != b.AP || a.Trust != b.Trust || a.Points != b.Points || a.CaseNo != b.CaseNo ||
		a.Status != b.Status || a.BudgetTurns != b.BudgetTurns || len(a.Answers) != len(b.Answers) || !sameSet(a.Acquired, b.Acquired) {
		return verdict.Failf(w.rule(), fmt.Sprintf("turn %d AP %d trust %d answers %d", a.Turn, a.AP, a.Trust, len(a.Answers)),
			fmt.Sprintf("turn %d AP %d trust %d answers %d", b.Turn, b.AP, b.Trust, len(b.Answers)), "the run changed")
	}
	return nil
}

// hedgeAll hedges every question of the case as 裏取り不能.
func (w *world) hedgeAll(ctx context.Context) error {
	return w.answerAll(ctx, "裏取り不能 留保", 0)
}

// publishPaper marks the run and publishes the paper.
func (w *world) publishPaper(ctx context.Context) error {
	w.mark()
	return w.act(ctx, engine.ActPublish, "")
}

// succeedsSpendingTurn checks that the last action answered ok:true one
// turn after the mark (the scenario's rule).
func (w *world) succeedsSpendingTurn() error {
	if w.last == nil || !w.last.OK || w.last.State.Turn != w.Before.Turn+1 {
		return verdict.Failf(w.rule(), fmt.Sprintf("ok:true at turn %d", w.Before.Turn+1), fmt.Sprintf("%d %s", w.Status(), clip(w.Body())), "")
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

// succeedsWithoutTurn checks that the last action answered ok:true at the
// marked turn (the scenario's rule).
func (w *world) succeedsWithoutTurn() error {
	if w.last == nil || !w.last.OK || w.last.State.Turn != w.Before.Turn {
		return verdict.Failf(w.rule(), fmt.Sprintf("ok:true at turn %d", w.Before.Turn), w.last, "")
	}
	return nil
}

// refusedWithoutTurn checks that the last action answered ok:false at the
// marked turn, or 400 where the expectation allows it for a missing
// argument (the scenario's rule).
func (w *world) refusedWithoutTurn() error {
	if w.last == nil && w.Status() == http.StatusBadRequest {
		// The seed gives ok:false no status: a 400 refusal is as faithful
		// (the run is checked unchanged where it matters, and a state the
		// body shows must still be at the same turn).
		var r actionResponse
		if json.Unmarshal(w.Body(), &r) == nil && stateKeys(w.Body())["turn"] && r.State.Turn != w.Before.Turn {
			return verdict.Failf(w.rule(), fmt.Sprintf("ok:false at turn %d", w.Before.Turn), fmt.Sprintf("turn %d", r.State.Turn), "a 400 refusal that spent a turn")
		}
		return nil
	}
	if w.last == nil || w.last.OK || w.last.State.Turn != w.Before.Turn {
		return verdict.Failf(w.rule(), fmt.Sprintf("ok:false at turn %d", w.Before.Turn), fmt.Sprintf("%d %s", w.Status(), clip(w.Body())), "")
	}
	return nil
}

// startRunWithBody posts a raw body to /runs and adopts the run when one is
// created (PP-RUN-CREATE judges the created answer's shape).
func (w *world) startRunWithBody(ctx context.Context, raw string) error {
	resp, err := w.do(ctx, http.MethodPost, "/runs", w.me.Key, nil, []byte(raw))
	if err != nil {
		return err
	}
	w.me.runs++
	if created2xx(resp.Status) {
		var c created
		if err := resp.Decode("PP-RUN-CREATE", &c); err != nil {
			return err
		}
		return w.adopt(&c, resp.Body, treeOfResponse(resp))
	}
	return nil
}

// runIDForm is the seed's "run_<12hex>" (PP-RUN-CREATE): twelve hex
// digits, of either case since the seed names none; a 12-character ID of
// other letters (base 36, say) is not hex.
var runIDForm = regexp.MustCompile(`^run_[0-9a-fA-F]{12}$`)

// runStartedWithBudget checks that a run was created with a run_<12 hex>
// ID, narrative and available actions (PP-RUN-CREATE), at turn 0 with the
// given budget (the scenario's rule).
func (w *world) runStartedWithBudget(n int) error {
	if err := w.wantCreated(); err != nil {
		return err
	}
	c := w.first
	if !runIDForm.MatchString(c.RunID) || c.Narrative == "" || len(c.AvailableActions) == 0 {
		return verdict.Failf("PP-RUN-CREATE", "run_<12hex> with narrative and available_actions", clip(w.Body()), "")
	}
	if c.State.BudgetTurns != n || c.State.Turn != 0 {
		return verdict.Failf("PP-RUN-CREATE", fmt.Sprintf("budget %d at turn 0", n), fmt.Sprintf("budget %d at turn %d", c.State.BudgetTurns, c.State.Turn), "")
	}
	return nil
}

// freshRunWithBudget starts a run with a budget of n turns.
func (w *world) freshRunWithBudget(ctx context.Context, n int) error { return w.startRun(ctx, n, nil) }

// extendedBudget extends the budget by n turns, requires the extension
// taken (2xx) and learns the run's state from a status read: the seed gives
// extend no answer shape, so the model never takes the budget from the
// extension's answer (PP-RUN-EXTEND-LOGGED).
func (w *world) extendedBudget(ctx context.Context, n int) error {
	if err := w.extendBudget(ctx, n); err != nil {
		return err
	}
	if w.Status()/100 != 2 {
		return verdict.Failf(w.rule(), "the extension taken (2xx)", w.Status(), "%s", clip(w.Body()))
	}
	from := w.m.State.BudgetTurns
	s, err := w.fetchState(ctx)
	if err != nil {
		return err
	}
	w.m.State, w.m.ExtendedFrom = s, from
	return nil
}

// extendBudget marks the run and asks to extend its budget by n turns.
func (w *world) extendBudget(ctx context.Context, n int) error {
	w.mark()
	_, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/extend", w.me.Key, map[string]int{"turns": n}, nil)
	return err
}

// lookedAtCase looks at the case once, without marking the run.
func (w *world) lookedAtCase(ctx context.Context) error { return w.act(ctx, engine.ActLook, "") }

// checkStatus marks the run and sends the status action.
func (w *world) checkStatus(ctx context.Context) error {
	w.mark()
	return w.act(ctx, engine.ActStatus, "")
}

// logListsOneLook checks that the public log lists the look alone: the
// status action is not logged (the scenario's rule; PP-RUN-LOG for the
// log's shape).
func (w *world) logListsOneLook(ctx context.Context) error {
	l, err := w.getLog(ctx)
	if err != nil {
		return err
	}
	if !hasKey(w.Body(), "log") {
		return w.shapeGate("PP-RUN-LOG", "the kit's log[{action}]", clip(w.Body()), "the run log's shape")
	}
	for _, e := range l.Log {
		if e.Action == engine.ActStatus { // PP-STATUS: not logged
			return verdict.Failf(w.rule(), "one logged look", l.Log, "status must not be logged")
		}
	}
	if len(l.Log) != 1 || l.Log[0].Action != engine.ActLook {
		return w.shapeGate("PP-RUN-LOG", "one logged look", l.Log, "the full log of a run that only looked")
	}
	return nil
}

// fetchLog fetches the run's public log, which needs no key.
func (w *world) fetchLog(ctx context.Context) error {
	_, err := w.getLog(ctx)
	return err
}

// statusEndedOf names PP-STATE-STATUS-ENDED for a fired run shown "active"
// when that is the scenario's rule: a state.status of "active" at trust 0
// breaks both PP-SETTLE-FIRED and PP-STATE-STATUS-ENDED, and the status
// scenario, which misprints to get there, must name its own.
func statusEndedOf(rule string, err error) error {
	var f *verdict.Failure
	if rule == "PP-STATE-STATUS-ENDED" && errors.As(err, &f) && f.RuleID == "PP-SETTLE-FIRED" && f.Observed == engine.StatusActive {
		return verdict.Failf(rule, "a status other than active", f.Observed, "%s", f.Detail)
	}
	return err
}
