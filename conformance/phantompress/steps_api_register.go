package phantompress

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// registerSteps registers the registration steps of api.feature, which
// quotas.feature shares (PP-REGISTER); sharedSteps calls it.
func registerSteps(sc *suite.ScenarioContext, w *world) {
	sc.Step(pattern(`^a new agent registers with a name of (\d+) characters$`), w.registerNameOf)
	sc.Step(pattern(`^the registration succeeds with an API key$`), w.registrationSucceeds)
	sc.Step(pattern(`^another agent registers with the same name$`), w.registerTakenName)
	sc.Step(pattern(`^the second registration is refused or answers a key of its own$`), w.takenNameOwnKey)
}

// registerNameOf registers a new agent whose name has n characters, keeping
// its answer and redacting the API key it gets.
func (w *world) registerNameOf(ctx context.Context, n int) error {
	w.regName = agentName(n)
	return w.registerName(ctx, w.regName)
}

// registerName registers an agent named name, keeping the answer in reg.
func (w *world) registerName(ctx context.Context, name string) error {
	w.reg = nil
	_, err := w.do(ctx, http.MethodPost, "/register", "", map[string]string{"name": name}, nil)
	if err == nil && created2xx(w.Status()) {
		poolOf(w.env).regs++
		json.Unmarshal(w.Body(), &w.reg)
		if k, ok := w.reg["api_key"].(string); ok {
			w.env.HTTP.Secrets().Add(k)
		}
	}
	return err
}

// registerTakenName registers a second agent under the scenario's name,
// keeping the first registration's key.
func (w *world) registerTakenName(ctx context.Context) error {
	w.firstKey, _ = w.reg["api_key"].(string)
	if w.firstKey == "" {
		return verdict.Skipf("the first registration gave no key")
	}
	return w.registerName(ctx, w.regName)
}

// takenNameOwnKey checks a second registration under a taken name: the
// seed does not say names are unique, so it may be refused, but a key it
// answers is the new agent's own, never the first agent's secret
// (PP-REGISTER: registration issues the registrant an API key).
func (w *world) takenNameOwnKey() error {
	if !created2xx(w.Status()) {
		return nil
	}
	if k, _ := w.reg["api_key"].(string); k == "" || k == w.firstKey {
		return verdict.Failf("PP-REGISTER", "a key of the new agent's own, or a refusal", "the first agent's key again", "registering a taken name")
	}
	return nil
}

// agentName is a name of n characters no earlier run sent: a Japanese
// character (the seed's 1-32 are characters, so its 3 bytes count once)
// and random letters and digits. A target may refuse a taken name.
func agentName(n int) string {
	if n <= 0 {
		return ""
	}
	const alnum = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := []rune{rune(0x4e00 + rand.IntN(0x5000))}
	for len(b) < n {
		b = append(b, rune(alnum[rand.IntN(len(alnum))]))
	}
	return string(b)
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
