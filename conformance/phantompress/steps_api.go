package phantompress

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// apiSteps registers the steps of features/phantom-press/api.feature.
func apiSteps(sc *suite.ScenarioContext, w *world) {
	sc.Step(pattern(`^the server holds each action for a moment$`), w.holdActions)
	sc.Step(pattern(`^the agent sends two actions on the run at once$`), w.twoActionsAtOnce)
	sc.Step(pattern(`^the agent sends (\d+) looks on the run in parallel$`), w.sendParallelLooks)
	sc.Step(pattern(`^each is answered 200 or 409, and the turns spent equal the looks accepted$`), w.checkParallel)
	sc.Step(pattern(`^one succeeds, the other is refused with 409, and one turn was spent$`), w.oneOfTwoAccepted)
	sc.Step(pattern(`^the agent fetches the API document$`), w.fetchAPIDoc)
	sc.Step(pattern(`^the document names the game and lists its endpoints$`), w.docListsEndpoints)
	sc.Step(pattern(`^the registration answer carries agent_id, name and a flib_ key$`), w.registrationShape)
	sc.Step(pattern(`^the narrative is written in Japanese$`), w.narrativeJapanese)
	sc.Step(pattern(`^the agent sends an action without authorization$`), w.actWithoutAuth)
	sc.Step(pattern(`^the agent sends an action with an invalid key$`), w.actWithInvalidKey)
	sc.Step(pattern(`^the error body carries the code "([^"]*)" and a message$`), w.errorBodyCode)
	sc.Step(pattern(`^the error body carries an error string$`), w.errorString)
	sc.Step(pattern(`^another agent acts on the run$`), w.otherAgentActs)
	sc.Step(pattern(`^another agent (extends|hides|reviews) the run$`), w.otherAgentWrites)
	sc.Step(pattern(`^the agent acts on a run that does not exist$`), w.actOnMissingRun)
	sc.Step(pattern(`^the agent sends the unknown action "([^"]*)"$`), w.sendUnknownAction)
	sc.Step(pattern(`^the unknown action is refused with 400 or ok:false$`), w.unknownActionRefused)
	sc.Step(pattern(`^the agent posts (.+) to (\S+) without authorization$`), w.postWithoutAuth)
	sc.Step(pattern(`^the agent fetches (the API document|the run's log|the recent runs|the leaderboard) without a key$`), w.fetchWithoutKey)
	sc.Step(pattern(`^the request succeeds$`), w.requestSucceeds)
	sc.Step(pattern(`^a new agent registers with a name and an owner$`), w.registerWithOwner)
	sc.Step(pattern(`^the agent (reads the log of|extends|hides|reviews) a run that does not exist$`), w.missingRunWrite)
}

// holdActions makes the embedded reference hold the next action on the
// scenario's run until a concurrent request was refused (30 s at most),
// so two requests overlap.
func (w *world) holdActions() error {
	c, err := w.control()
	if err != nil {
		return err
	}
	// Ended by the second action's refusal, not by the clock; other
	// scenarios' runs are never held.
	if err := c.HoldNextAction(w.run, 30*time.Second); err != nil {
		return verdict.Errorf("holding the run's actions: %v", err)
	}
	return nil
}

// twoActionsAtOnce marks the run and sends two looks 30ms apart, keeping
// their statuses. The held first one (holdActions) lasts until the second
// is refused, so they overlap however slow the machine.
func (w *world) twoActionsAtOnce(ctx context.Context) error {
	w.mark()
	statuses := make([]int, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 30 * time.Millisecond)
			resp, err := w.env.HTTP.Do(ctx, driver.Request{Method: http.MethodPost, Path: "/runs/" + w.run + "/action",
				Header: map[string]string{"Authorization": "Bearer " + w.me.Key}, JSON: map[string]string{"action": "look"},
				Allow: []int{http.StatusConflict}})
			errs[i] = err
			if resp != nil {
				statuses[i] = resp.Status
			}
		}(i)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	w.reg = map[string]any{"statuses": statuses}
	return nil
}

// sendParallelLooks marks the run and sends n looks at the same moment (see
// parallelLooks).
func (w *world) sendParallelLooks(ctx context.Context, n int) error {
	w.mark()
	return w.parallelLooks(ctx, n)
}

// oneOfTwoAccepted checks that of two overlapping looks one got 200 and the
// other 409, and the run spent one turn (PP-ERR-409-CONCURRENT).
func (w *world) oneOfTwoAccepted(ctx context.Context) error {
	st := w.reg["statuses"].([]int)
	ok, conflict := 0, 0
	for _, s := range st {
		switch s {
		case http.StatusOK:
			ok++
		case http.StatusConflict:
			conflict++
		}
	}
	if ok != 1 || conflict != 1 {
		return verdict.Failf("PP-ERR-409-CONCURRENT", "one 200 and one 409", st, "two overlapping looks")
	}
	s, err := w.fetchState(ctx)
	if err != nil {
		return err
	}
	if s.Turn != w.snap.Turn+1 {
		return verdict.Failf("PP-ERR-409-CONCURRENT", w.snap.Turn+1, s.Turn, "turns after one accepted look")
	}
	return nil
}

// checkParallel checks parallel looks (PP-ERR-409-CONCURRENT): each was
// accepted or refused with 409, at least one was accepted, the accepted
// ones were numbered one turn apart, and the run spent exactly one turn per
// accepted look: no lost or doubled update.
func (w *world) checkParallel(ctx context.Context) error {
	statuses, turns := w.reg["statuses"].([]int), w.reg["turns"].([]int)
	seen := map[int]bool{}
	accepted := 0
	for i, st := range statuses {
		switch st {
		case http.StatusOK:
			accepted++
			t := turns[i]
			if t <= w.snap.Turn || t > w.snap.Turn+len(statuses) || seen[t] {
				return verdict.Failf("PP-ERR-409-CONCURRENT", fmt.Sprintf("distinct turns after %d", w.snap.Turn), turns, "turns of the accepted looks (statuses %v)", statuses)
			}
			seen[t] = true
		case http.StatusConflict:
		default:
			return verdict.Failf("PP-ERR-409-CONCURRENT", "200 or 409", statuses, "parallel looks on one run")
		}
	}
	if accepted == 0 {
		return verdict.Failf("PP-ERR-409-CONCURRENT", "at least one look accepted", statuses, "parallel looks on one run")
	}
	s, err := w.fetchState(ctx)
	if err != nil {
		return err
	}
	if s.Turn != w.snap.Turn+accepted {
		return verdict.Failf("PP-ERR-409-CONCURRENT", w.snap.Turn+accepted, s.Turn, "turn after %d accepted of %d parallel looks (statuses %v)", accepted, len(statuses), statuses)
	}
	return nil
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

// registrationShape checks that a registration answered 201 with agent_id,
// the name it was sent and a flib_ API key (PP-REGISTER-RESPONSE).
func (w *world) registrationShape() error {
	k, _ := w.reg["api_key"].(string)
	id, _ := w.reg["agent_id"].(string)
	name, _ := w.reg["name"].(string)
	if w.Status() != http.StatusCreated || !strings.HasPrefix(k, "flib_") || id == "" || name != w.regName {
		return verdict.Failf("PP-REGISTER-RESPONSE", "201 {agent_id, name, api_key: flib_…}", fmt.Sprintf("%d %v", w.Status(), w.reg), "")
	}
	return nil
}

// narrativeJapanese checks that the last action's narrative holds Japanese
// text (PP-NARRATIVE-JA).
func (w *world) narrativeJapanese() error {
	if w.last == nil || !hasJapanese(w.last.Narrative) {
		return verdict.Failf("PP-NARRATIVE-JA", "Japanese narrative", w.last, "")
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

// postWithoutAuth marks the run and posts a raw body to an endpoint (":id"
// standing for the run) with no Authorization header.
func (w *world) postWithoutAuth(ctx context.Context, body, endpoint string) error {
	w.mark()
	_, err := w.do(ctx, http.MethodPost, strings.Replace(endpoint, ":id", w.run, 1), "", nil, []byte(body))
	return err
}

// fetchWithoutKey fetches one of the public endpoints with no key.
func (w *world) fetchWithoutKey(ctx context.Context, what string) error {
	path := map[string]string{"the API document": "", "the run's log": "/runs/" + w.run, "the recent runs": "/runs?recent=5", "the leaderboard": "/leaderboard"}[what]
	_, err := w.do(ctx, http.MethodGet, path, "", nil, nil)
	return err
}

// requestSucceeds checks that the request was answered 200 (the scenario's
// rule).
func (w *world) requestSucceeds() error {
	if w.Status() != http.StatusOK {
		return verdict.Failf(w.rule(), 200, w.Status(), "%s", clip(w.Body()))
	}
	return nil
}

// registerWithOwner registers a new agent with a name and an owner, keeping
// its answer and redacting the API key it gets.
func (w *world) registerWithOwner(ctx context.Context) error {
	_, err := w.do(ctx, http.MethodPost, "/register", "", map[string]string{"name": "pp-owned", "owner": "conformance"}, nil)
	if err == nil && created2xx(w.Status()) {
		poolOf(w.env).regs++
		w.reg = map[string]any{}
		json.Unmarshal(w.Body(), &w.reg)
		if key, ok := w.reg["api_key"].(string); ok {
			w.env.HTTP.Secrets().Add(key)
		}
	}
	return err
}

// missingRunWrite sends a log read or an owner write to a run that does not
// exist (PP-ERR-404: every endpoint of a run).
func (w *world) missingRunWrite(ctx context.Context, what string) error {
	const missing = "/runs/run_000000000000"
	var err error
	switch what {
	case "reads the log of":
		_, err = w.do(ctx, http.MethodGet, missing, "", nil, nil)
	case "extends":
		_, err = w.do(ctx, http.MethodPost, missing+"/extend", w.me.Key, map[string]int{"turns": 1}, nil)
	case "hides":
		_, err = w.do(ctx, http.MethodPost, missing+"/visibility", w.me.Key, map[string]string{"visibility": "hidden"}, nil)
	default:
		_, err = w.do(ctx, http.MethodPost, missing+"/review", w.me.Key, map[string]string{"text": "存在しない run への書評"}, nil)
	}
	return err
}
