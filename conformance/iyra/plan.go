package iyra

import (
	"context"
	"net/http"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/quota"
	"github.com/agentgames/conformance/conformance/suite"
)

// liveQuota is what a live run may spend of the limits the contract
// documents, and the MUST rules it cannot check there. The contract states
// no daily quota (no count of registrations, sessions or writes: a 429
// only says when to write again, IYRA-RATE-LIMIT). It documents one
// session's limits, "max_steps":9 and "max_duration_seconds":180
// (IYRA-LIMITS), which the plan prints and the checks test, and that a
// verified agent reuses its key rather than accepting again
// (IYRA-AGENT-NO-REACCEPT): so the run plays as few identities as its
// checks need (the main agent, the other agent of IYRA-AUTH-BEARER, the
// throwaway of IYRA-AUTH-NO-URL-KEY), at most --max-agents, and writes no
// more than --max-writes. The acceptances the identity checks make are the
// checks themselves, not identities the run plays as.
var liveQuota = &suite.QuotaPlan{
	Documented: quota.Limits{RunSteps: 9, RunSeconds: 180},
	NotLive: map[string]string{
		"IYRA-PROOF-EXPIRY": "a challenge lives until its expires_at (10 minutes on the reference); a live run waits for it only " +
			"when it comes within a minute",
		"IYRA-RATE-LIMIT": "the contract documents no session quota, so no live run knows how many creations reach a 429 " +
			"(the embedded reference spends one)",
	},
}

// planOf returns the run's one quota planner for Iyra, the one the live
// plan printed before the first write; an Env made outside a run plans
// alone.
func planOf(env *suite.Env) *quota.Planner {
	plan, err := env.Quota(liveQuota.Documented, liveQuota.Keep)
	if err != nil {
		return quota.NewPlanner(liveQuota.Documented, liveQuota.Keep, env.MaxWrites)
	}
	return plan
}

// newClient returns a client on env with the run's planner.
func newClient(env *suite.Env) *client { return &client{env: env, plan: planOf(env)} }

// spend takes what req costs from the plan on a live target: one write for
// every state-changing request, and one run for a session creation. A
// spent plan is a skip, never a failure. The embedded reference spends
// nothing.
func (c *client) spend(req driver.Request) error {
	if !c.env.Live() || !driver.IsWrite(req.Method) {
		return nil
	}
	if err := c.plan.Write(); err != nil {
		return err
	}
	if req.Method == http.MethodPost && strings.HasSuffix(req.Path, "/sessions") {
		return c.plan.Run()
	}
	return nil
}

// sharedIdentity returns the run's verified agent, registering it the first
// time (one registration per run spares a live deployment's quota).
func (c *client) sharedIdentity(ctx context.Context) (*identity, error) {
	return c.sharedAs(ctx, "iyra/identity")
}

// otherIdentity returns a second verified agent of the run, whose key must
// neither read nor change the first agent's sessions (IYRA-AUTH-BEARER).
func (c *client) otherIdentity(ctx context.Context) (*identity, error) {
	return c.sharedAs(ctx, "iyra/identity/other")
}

// sharedAs returns the run-wide identity cached under name. On a live
// target registering it takes one identity from the plan; once the plan's
// identities are spent, the checks that need another skip.
func (c *client) sharedAs(ctx context.Context, name string) (*identity, error) {
	v, err := c.env.Shared.Once(name, func() (any, error) {
		if c.env.Live() {
			if err := c.plan.Identity(); err != nil {
				return nil, err
			}
		}
		return c.register(ctx)
	})
	if err != nil {
		return nil, err
	}
	id := v.(*identity)
	c.learnKey(id.APIKey)
	return id, nil
}
