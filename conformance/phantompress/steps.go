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
	sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
		w.failed = err != nil
		for _, f := range w.cleanup {
			f()
		}
		return ctx, nil
	})
	apiSteps(sc, w)
	runSteps(sc, w)
	caseSteps(sc, w)
	answerSteps(sc, w)
	settleSteps(sc, w)
	lawSteps(sc, w)
	quotaSteps(sc, w)
	moreSteps(sc, w)
	fireSteps(sc, w)
}

func (w *world) wantStatus(code int) error {
	if w.status != code {
		return verdict.Failf("", code, w.status, "body %s", clip(w.body))
	}
	return nil
}

// wantCreated accepts 200 or 201 for a creation: the seed names neither.
func (w *world) wantCreated() error {
	if !created2xx(w.status) {
		return verdict.Failf("", "200 or 201", w.status, "body %s", clip(w.body))
	}
	return nil
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

func apiSteps(sc *godog.ScenarioContext, w *world) {
	sc.Step(`^the agent fetches the API document$`, func(ctx context.Context) error {
		_, err := w.do(ctx, http.MethodGet, "", "", nil, nil)
		return err
	})
	sc.Step(`^the document names the game and lists its endpoints$`, func() error {
		var doc struct {
			Game      string           `json:"game"`
			Endpoints []map[string]any `json:"endpoints"`
		}
		if err := w.wantStatus(200); err != nil {
			return err
		}
		if err := json.Unmarshal(w.body, &doc); err != nil || !strings.Contains(doc.Game, "Phantom Press") || len(doc.Endpoints) < 10 {
			return verdict.Failf("PP-API-DOC", "the game's document with its 10 endpoints", clip(w.body), "")
		}
		return nil
	})
	sc.Step(`^a new agent registers with a name of (\d+) characters$`, func(ctx context.Context, n int) error {
		_, err := w.do(ctx, http.MethodPost, "/register", "", map[string]string{"name": strings.Repeat("a", n)}, nil)
		if err == nil && created2xx(w.status) {
			poolOf(w.env).regs++
			json.Unmarshal(w.body, &w.reg)
			if k, ok := w.reg["api_key"].(string); ok {
				w.env.HTTP.Secrets().Add(k)
			}
		}
		return err
	})
	sc.Step(`^the registration succeeds with an API key$`, func() error {
		if err := w.wantCreated(); err != nil {
			return err
		}
		if k, _ := w.reg["api_key"].(string); k == "" {
			return verdict.Failf("PP-REGISTER", "an api_key", clip(w.body), "")
		}
		return nil
	})
	sc.Step(`^the request is refused with status (\d+)$`, w.wantStatus)
	sc.Step(`^the registration answer carries agent_id, name and a flib_ key$`, func() error {
		k, _ := w.reg["api_key"].(string)
		id, _ := w.reg["agent_id"].(string)
		name, _ := w.reg["name"].(string)
		if w.status != http.StatusCreated || !strings.HasPrefix(k, "flib_") || id == "" || len(name) != 32 {
			return verdict.Failf("PP-REGISTER-RESPONSE", "201 {agent_id, name, api_key: flib_…}", fmt.Sprintf("%d %v", w.status, w.reg), "")
		}
		return nil
	})
	sc.Step(`^a registered agent$`, func(ctx context.Context) error {
		_, err := w.identity(ctx)
		return err
	})
	sc.Step(`^a fresh run$`, func(ctx context.Context) error { return w.startRun(ctx, defaultBudget, nil) })
	sc.Step(`^an active run$`, w.activeRun)
	sc.Step(`^the agent looks at the case$`, func(ctx context.Context) error {
		w.mark()
		return w.act(ctx, engine.ActLook, "")
	})
	sc.Step(`^the narrative is written in Japanese$`, func() error {
		if w.last == nil || !hasJapanese(w.last.Narrative) {
			return verdict.Failf("PP-NARRATIVE-JA", "Japanese narrative", w.last, "")
		}
		return nil
	})
	sc.Step(`^the agent reads a document$`, func(ctx context.Context) error {
		w.mark()
		w.doc = w.unreadDoc()
		if w.doc == "" {
			w.doc = "d1"
		}
		return w.act(ctx, engine.ActRead, w.doc)
	})
	sc.Step(`^the public log of the run can be fetched$`, func(ctx context.Context) error {
		l, err := w.getLog(ctx)
		if err != nil {
			return err
		}
		if l.RunID != w.run {
			return verdict.Failf("", w.run, l.RunID, "run_id of the log")
		}
		return nil
	})
	sc.Step(`^the agent sends an action without authorization$`, func(ctx context.Context) error {
		w.mark()
		_, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/action", "", map[string]string{"action": "look"}, nil)
		return err
	})
	sc.Step(`^the agent sends an action with an invalid key$`, func(ctx context.Context) error {
		w.mark()
		_, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/action", "flib_00000000000000000000000000000000", map[string]string{"action": "look"}, nil)
		return err
	})
	sc.Step(`^the error body carries the code "([^"]*)" and a message$`, func(code string) error {
		e := w.errBody()
		if e.Code != code || (e.Message == "" && e.Error == "") {
			return verdict.Failf("PP-ERROR-BODY", fmt.Sprintf("{code: %s, error or message}", code), clip(w.body), "status %d", w.status)
		}
		return nil
	})
	sc.Step(`^the agent sends the raw action body (.+)$`, func(ctx context.Context, raw string) error {
		w.mark()
		_, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/action", w.me.Key, nil, []byte(raw))
		return err
	})
	sc.Step(`^nothing about the run changed$`, func(ctx context.Context) error {
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
			return verdict.Failf("", fmt.Sprintf("turn %d AP %d trust %d answers %d", a.Turn, a.AP, a.Trust, len(a.Answers)),
				fmt.Sprintf("turn %d AP %d trust %d answers %d", b.Turn, b.AP, b.Trust, len(b.Answers)), "the run changed")
		}
		return nil
	})
	sc.Step(`^another agent acts on the run$`, func(ctx context.Context) error {
		w.mark()
		other, err := w.register(ctx, "pp-conformance-other")
		if err != nil {
			return err
		}
		poolOf(w.env).regs++
		_, err = w.do(ctx, http.MethodPost, "/runs/"+w.run+"/action", other.Key, map[string]string{"action": "look"}, nil)
		return err
	})
	sc.Step(`^the agent acts on a run that does not exist$`, func(ctx context.Context) error {
		_, err := w.do(ctx, http.MethodPost, "/runs/run_000000000000/action", w.me.Key, map[string]string{"action": "look"}, nil)
		return err
	})
	sc.Step(`^a run played through to the end$`, w.playedRun)
	sc.Step(`^the agent sends the unknown action "([^"]*)"$`, func(ctx context.Context, action string) error {
		w.mark()
		_, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/action", w.me.Key, map[string]string{"action": action}, nil)
		return err
	})
	sc.Step(`^the unknown action is refused with 400 or ok:false$`, func() error {
		var r actionResponse
		if w.status == http.StatusBadRequest || (w.status == http.StatusOK && json.Unmarshal(w.body, &r) == nil && !r.OK) {
			return nil
		}
		return verdict.Failf("PP-ACTION-OK-FALSE", "400, or ok:false", fmt.Sprintf("%d %s", w.status, clip(w.body)), "an action the seed does not list")
	})
	concurrencySteps(sc, w)
}
