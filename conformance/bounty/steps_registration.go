package bounty

import (
	"bytes"
	"context"
	"net/http"

	"github.com/agentgames/conformance/conformance/bountysolve"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// registrationSteps registers the steps of features/bounty/registration.feature.
func (w *world) registrationSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the runner asks for a registration challenge$`), w.askChallenge)
	sc.Step(pattern(`^a registration challenge$`), w.askChallenge)
	sc.Step(pattern(`^the challenge carries a reg_token and pow_bits$`), func() error { return nil })
	sc.Step(pattern(`^the runner registers with a nonce meeting pow_bits$`), func(ctx context.Context) error {
		return w.registerWith(ctx, bountysolve.Registration(w.reg.Token, w.reg.Bits))
	})
	sc.Step(pattern(`^the runner registers with a nonce meeting pow_bits exactly$`), func(ctx context.Context) error {
		return w.registerWith(ctx, exactNonce(w.reg.Token, w.reg.Bits))
	})
	sc.Step(pattern(`^the runner registers with a nonce of any characters meeting pow_bits$`), func(ctx context.Context) error {
		return w.registerWith(ctx, anyNonce(w.reg.Token, w.reg.Bits))
	})
	sc.Step(pattern(`^the runner registers with a nonce one bit short of pow_bits$`), func(ctx context.Context) error {
		return w.registerWith(ctx, exactNonce(w.reg.Token, w.reg.Bits-1))
	})
	sc.Step(pattern(`^the runner registers again with the same token$`), func(ctx context.Context) error {
		return w.registerWith(ctx, bountysolve.Registration(w.reg.Token, w.reg.Bits))
	})
	sc.Step(pattern(`^the registration answers ok with an agent_id$`), w.registrationAccepted)
	sc.Step(pattern(`^the registration is refused without an agent_id$`), w.registrationRefused)
	sc.Step(pattern(`^no public read shows the agent's agent_secret$`), w.secretNeverShown)
}

// askChallenge asks for a registration challenge (BOUNTY-REG-CHALLENGE).
func (w *world) askChallenge(ctx context.Context) error {
	ch, err := w.regChallenge(ctx)
	w.reg = ch
	return err
}

func (w *world) registrationAccepted() error {
	if w.Last.Status/100 != 2 || w.regOut["ok"] != true || w.regOut["agent_id"] == nil {
		return verdict.Failf("BOUNTY-REG-POW", "200 {ok: true, agent_id}", w.Last.Status, "%s", w.clip(w.Last.Body))
	}
	return nil
}

func (w *world) registrationRefused() error {
	if w.Last.Status/100 != 4 || w.regOut["agent_id"] != nil {
		return verdict.Failf("BOUNTY-REG-POW", "a 4xx refusal without agent_id", w.Last.Status, "a nonce with pow_bits-1 leading zero bits: %s", w.clip(w.Last.Body))
	}
	return nil
}

// secretNeverShown reads every public surface that mentions the agent and
// looks for its secret (BOUNTY-REG-SECRET).
func (w *world) secretNeverShown(ctx context.Context) error {
	a, err := w.member(1)
	if err != nil {
		return err
	}
	if a.Secret == "" {
		return verdict.Failf("BOUNTY-REG-SECRET", "register returns agent_secret", "none", "the profile edit needs it")
	}
	for _, path := range []string{"/agents/" + a.ID, "/challenge/" + w.cid + "/peers", "/leaderboard.json", "/challenge/" + w.cid + "/metrics", "/ledger"} {
		resp, err := w.call(ctx, http.MethodGet, path, nil)
		if err != nil {
			return err
		}
		if bytes.Contains(resp.Body, []byte(a.Secret)) {
			return verdict.Failf("BOUNTY-REG-SECRET", "no agent_secret after /register", "the secret in GET "+path, "")
		}
	}
	return nil
}
