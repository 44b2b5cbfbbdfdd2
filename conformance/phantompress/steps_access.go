package phantompress

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
)

// accessSteps registers the steps of api.feature that check who may call
// what: posts without authorization, public reads without a key, and a
// registration with an owner.
func accessSteps(sc *godog.ScenarioContext, w *world) {
	sc.Step(pattern(`^the agent posts (.+) to (\S+) without authorization$`), w.postWithoutAuth)
	sc.Step(pattern(`^the agent fetches (the API document|the run's log|the recent runs|the leaderboard) without a key$`), w.fetchWithoutKey)
	sc.Step(pattern(`^the request succeeds$`), w.requestSucceeds)
	sc.Step(pattern(`^a new agent registers with a name and an owner$`), w.registerWithOwner)
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
