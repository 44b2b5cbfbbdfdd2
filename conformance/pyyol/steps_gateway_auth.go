package pyyol

import (
	"context"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// gatewayAuthSteps registers the steps of features/pyyol/gateway-auth.feature.
func (g *gwRun) gatewayAuthSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent connects and registers with its dashboard JWT$`), g.registerJWT)
	sc.Step(pattern(`^the gateway registered the agent the key names$`), g.registeredAsKey)
}

// registerJWT registers a fresh socket with the dashboard JWT the mint
// gave in place of the agent key.
func (g *gwRun) registerJWT(ctx context.Context) error {
	if g.dashboard == "" {
		return verdict.Skipf("the target gave no dashboard JWT with the agent key (PYYOL-REF-DASHBOARD-JWT)")
	}
	f, err := g.register(ctx, g.dashboard)
	if err != nil {
		return err
	}
	g.jwtAnswer = &f
	return nil
}

// registeredAsKey: the register answer is registered, as the agent the
// key names (PYYOL-WS-DASHBOARD-JWT).
func (g *gwRun) registeredAsKey() error {
	if g.jwtAnswer == nil {
		return verdict.Errorf("no register answer was read")
	}
	f := *g.jwtAnswer
	if f.T != "registered" || f.AgentID != g.agentID {
		return verdict.Failf("PYYOL-WS-DASHBOARD-JWT", `{"t":"registered","agent_id":"`+g.agentID+`"}`, string(f.wire),
			"the answer to a register whose token is the owner's dashboard JWT")
	}
	return nil
}
