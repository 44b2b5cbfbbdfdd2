package phantompress

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// defaultBudget is the budget of a fresh run: enough to play all four cases.
const defaultBudget = 150

// Steps registers the step definitions of one scenario.
func Steps(sc *godog.ScenarioContext, env *suite.Env) {
	w := newWorld(env)
	w.Bind(sc, env)
	sc.Before(func(ctx context.Context, s *godog.Scenario) (context.Context, error) {
		for _, t := range s.Tags {
			w.tags = append(w.tags, strings.TrimPrefix(t.Name, "@"))
		}
		return ctx, w.controlledLive()
	})
	apiSteps(sc, w)
	runSteps(sc, w)
	caseSteps(sc, w)
	answerSteps(sc, w)
	settleSteps(sc, w)
	lawSteps(sc, w)
	quotaSteps(sc, w)
	backingSteps(sc, w)
	accessSteps(sc, w)
	clientFieldSteps(sc, w)
	bonusSteps(sc, w)
	fireSteps(sc, w)
	fallbackSteps(sc, w)
	runLogSteps(sc, w)
}

// rule names the rule a generic step (a status, a refusal, an unchanged
// run) checks: the scenario's first catalogued rule tag.
func (w *world) rule() string {
	for _, t := range w.tags {
		if _, ok := catalogue().Rule(t); ok {
			return t
		}
	}
	return "untagged scenario"
}

func (w *world) wantStatus(code int) error {
	if w.Status() != code {
		return verdict.Failf(w.rule(), code, w.Status(), "body %s", clip(w.Body()))
	}
	return nil
}

// wantCreated accepts 200 or 201 for a creation: the seed names neither.
func (w *world) wantCreated() error {
	if !created2xx(w.Status()) {
		return verdict.Failf(w.rule(), "200 or 201", w.Status(), "body %s", clip(w.Body()))
	}
	return nil
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// apiSteps registers the steps of the API document, registration, the
// basic actions and the refusals of bad requests.
func apiSteps(sc *godog.ScenarioContext, w *world) {
	sc.Step(pattern(`^the agent fetches the API document$`), w.fetchAPIDoc)
	sc.Step(pattern(`^the document names the game and lists its endpoints$`), w.docListsEndpoints)
	sc.Step(pattern(`^a new agent registers with a name of (\d+) characters$`), w.registerNameOf)
	sc.Step(pattern(`^the registration succeeds with an API key$`), w.registrationSucceeds)
	sc.Step(pattern(`^the request is refused with status (\d+)$`), w.wantStatus)
	sc.Step(pattern(`^the registration answer carries agent_id, name and a flib_ key$`), w.registrationShape)
	sc.Step(pattern(`^a registered agent$`), w.registeredAgent)
	sc.Step(pattern(`^a fresh run$`), w.freshRun)
	sc.Step(pattern(`^an active run$`), w.activeRun)
	sc.Step(pattern(`^the agent looks at the case$`), w.lookAtCase)
	sc.Step(pattern(`^the narrative is written in Japanese$`), w.narrativeJapanese)
	sc.Step(pattern(`^the agent reads a document$`), w.readADocument)
	sc.Step(pattern(`^the public log of the run can be fetched$`), w.logFetchable)
	sc.Step(pattern(`^the agent sends an action without authorization$`), w.actWithoutAuth)
	sc.Step(pattern(`^the agent sends an action with an invalid key$`), w.actWithInvalidKey)
	sc.Step(pattern(`^the error body carries the code "([^"]*)" and a message$`), w.errorBodyCode)
	sc.Step(pattern(`^the error body carries an error string$`), w.errorString)
	sc.Step(pattern(`^the agent sends the raw action body (.+)$`), w.sendRawAction)
	sc.Step(pattern(`^nothing about the run changed$`), w.runUnchanged)
	sc.Step(pattern(`^another agent acts on the run$`), w.otherAgentActs)
	sc.Step(pattern(`^another agent (extends|hides|reviews) the run$`), w.otherAgentWrites)
	sc.Step(pattern(`^the agent acts on a run that does not exist$`), w.actOnMissingRun)
	sc.Step(pattern(`^a run played through to the end$`), w.playedRun)
	sc.Step(pattern(`^the agent sends the unknown action "([^"]*)"$`), w.sendUnknownAction)
	sc.Step(pattern(`^the unknown action is refused with 400 or ok:false$`), w.unknownActionRefused)
	concurrencySteps(sc, w)
}

// fetchAPIDoc fetches the API document at the base path, which needs no
// key.
func (w *world) fetchAPIDoc(ctx context.Context) error {
	_, err := w.do(ctx, http.MethodGet, "", "", nil, nil)
	return err
}

// docListsEndpoints checks that the API document names Phantom Press and
// lists at least its 10 endpoints (PP-API-DOC).
func (w *world) docListsEndpoints() error {
	var doc struct {
		Game      string           `json:"game"`
		Endpoints []map[string]any `json:"endpoints"`
	}
	if err := w.wantStatus(200); err != nil {
		return err
	}
	if err := json.Unmarshal(w.Body(), &doc); err != nil || !strings.Contains(doc.Game, "Phantom Press") || len(doc.Endpoints) < 10 {
		return verdict.Failf("PP-API-DOC", "the game's document with its 10 endpoints", clip(w.Body()), "")
	}
	return nil
}

// registerNameOf registers a new agent whose name has n characters, keeping
// its answer and redacting the API key it gets.
func (w *world) registerNameOf(ctx context.Context, n int) error {
	_, err := w.do(ctx, http.MethodPost, "/register", "", map[string]string{"name": strings.Repeat("a", n)}, nil)
	if err == nil && created2xx(w.Status()) {
		poolOf(w.env).regs++
		json.Unmarshal(w.Body(), &w.reg)
		if k, ok := w.reg["api_key"].(string); ok {
			w.env.HTTP.Secrets().Add(k)
		}
	}
	return err
}

// registrationSucceeds checks that a registration was created and answered
// an api_key (PP-REGISTER).
func (w *world) registrationSucceeds() error {
	if err := w.wantCreated(); err != nil {
		return err
	}
	if k, _ := w.reg["api_key"].(string); k == "" {
		return verdict.Failf("PP-REGISTER", "an api_key", clip(w.Body()), "")
	}
	return nil
}

// registrationShape checks that a registration answered 201 with agent_id,
// the 32-character name and a flib_ API key (PP-REGISTER-RESPONSE).
func (w *world) registrationShape() error {
	k, _ := w.reg["api_key"].(string)
	id, _ := w.reg["agent_id"].(string)
	name, _ := w.reg["name"].(string)
	if w.Status() != http.StatusCreated || !strings.HasPrefix(k, "flib_") || id == "" || len(name) != 32 {
		return verdict.Failf("PP-REGISTER-RESPONSE", "201 {agent_id, name, api_key: flib_…}", fmt.Sprintf("%d %v", w.Status(), w.reg), "")
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

// narrativeJapanese checks that the last action's narrative holds Japanese
// text (PP-NARRATIVE-JA).
func (w *world) narrativeJapanese() error {
	if w.last == nil || !hasJapanese(w.last.Narrative) {
		return verdict.Failf("PP-NARRATIVE-JA", "Japanese narrative", w.last, "")
	}
	return nil
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

// actWithoutAuth marks the run and sends a look with no Authorization
// header.
func (w *world) actWithoutAuth(ctx context.Context) error {
	w.mark()
	_, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/action", "", map[string]string{"action": "look"}, nil)
	return err
}

// actWithInvalidKey marks the run and sends a look with a well-formed API
// key no agent holds.
func (w *world) actWithInvalidKey(ctx context.Context) error {
	w.mark()
	_, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/action", "flib_00000000000000000000000000000000", map[string]string{"action": "look"}, nil)
	return err
}

// errorBodyCode checks that an error answer's body holds the given code and
// a human error or message (PP-ERROR-BODY).
func (w *world) errorBodyCode(code string) error {
	e := w.errBody()
	if e.Code != code || (e.Message == "" && e.Error == "") {
		return verdict.Failf("PP-ERROR-BODY", fmt.Sprintf("{code: %s, error or message}", code), clip(w.Body()), "status %d", w.Status())
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

// otherAgentActs marks the run and has a second, freshly registered agent
// send a look on it.
// otherAgentWrites sends an owner write (extend, visibility, review) to the
// run with another agent's key (PP-ERR-403: every owner endpoint).
func (w *world) otherAgentWrites(ctx context.Context, what string) error {
	w.mark()
	other, err := w.register(ctx, "pp-conformance-other")
	if err != nil {
		return err
	}
	poolOf(w.env).regs++
	path, body := map[string]string{"extends": "extend", "hides": "visibility", "reviews": "review"}[what], any(nil)
	switch what {
	case "extends":
		body = map[string]int{"turns": 1}
	case "hides":
		body = map[string]string{"visibility": "hidden"}
	default:
		body = map[string]string{"text": "他人の run への書評"}
	}
	_, err = w.do(ctx, http.MethodPost, "/runs/"+w.run+"/"+path, other.Key, body, nil)
	return err
}

func (w *world) otherAgentActs(ctx context.Context) error {
	w.mark()
	other, err := w.register(ctx, "pp-conformance-other")
	if err != nil {
		return err
	}
	poolOf(w.env).regs++
	_, err = w.do(ctx, http.MethodPost, "/runs/"+w.run+"/action", other.Key, map[string]string{"action": "look"}, nil)
	return err
}

// actOnMissingRun sends a look on a well-formed run ID that names no run.
func (w *world) actOnMissingRun(ctx context.Context) error {
	_, err := w.do(ctx, http.MethodPost, "/runs/run_000000000000/action", w.me.Key, map[string]string{"action": "look"}, nil)
	return err
}

// sendUnknownAction marks the run and sends an action the seed does not
// list.
func (w *world) sendUnknownAction(ctx context.Context, action string) error {
	w.mark()
	_, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/action", w.me.Key, map[string]string{"action": action}, nil)
	return err
}

// unknownActionRefused checks that an unlisted action was answered 400, or
// 200 with ok:false (PP-ACTION-OK-FALSE).
func (w *world) unknownActionRefused() error {
	var r actionResponse
	if w.Status() == http.StatusBadRequest || (w.Status() == http.StatusOK && json.Unmarshal(w.Body(), &r) == nil && !r.OK) {
		return nil
	}
	return verdict.Failf("PP-ACTION-OK-FALSE", "400, or ok:false", fmt.Sprintf("%d %s", w.Status(), clip(w.Body())), "an action the seed does not list")
}

// errorString checks a refusal carries a non-empty error string, the field
// the seed's own client prints (PP-ERROR-STRING).
func (w *world) errorString() error {
	if e := w.errBody(); e.Error == "" {
		return verdict.Failf("PP-ERROR-STRING", "a non-empty error string", clip(w.Body()), "status %d", w.Status())
	}
	return nil
}
