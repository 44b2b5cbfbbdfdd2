package bounty

import (
	"context"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/spec"
)

// Steps registers every bounty step on sc for one scenario, played over
// HTTP.
func Steps(sc *suite.ScenarioContext, env *suite.Env) { steps(sc, env, false) }

// StepsOverMCP registers the same steps played through the MCP tools
// wherever a tool covers the call (--transport mcp).
func StepsOverMCP(sc *suite.ScenarioContext, env *suite.Env) { steps(sc, env, true) }

func steps(sc *suite.ScenarioContext, env *suite.Env, overMCP bool) {
	w := &world{client: &client{env: env, overMCP: overMCP, mcpAgents: map[string]bool{}}, held: map[string][]int{}, shareHex: map[int]string{}, names: map[int]string{}}
	w.Bind(sc, env)
	sc.Before(func(ctx context.Context, _ *godog.Scenario) (context.Context, error) {
		for _, id := range w.Tags {
			if spec.IDPattern.MatchString(id) && w.rule == "" {
				w.rule = id
			}
		}
		return ctx, nil
	})
	w.registrationSteps(sc)
	w.puzzlesSteps(sc)
	w.combineSteps(sc)
	w.combineNoticeSteps(sc)
	w.mcpSteps(sc)
	w.sharedSteps(sc)
	w.peersSteps(sc)
	w.policySteps(sc)
	w.inputSteps(sc)
}
