package pyyol

import (
	"context"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/suite"
)

// gatewaySteps registers every pyyol-gateway step on sc for one scenario:
// the gateway run (g) and the platform, Mafia, Monopoly and superseding
// runs built on it.
func gatewaySteps(sc *suite.ScenarioContext, env *suite.Env) {
	g := &gwRun{env: env}
	g.Bind(sc, env)
	g.sharedSteps(sc)
	g.gatewayPracticeSteps(sc)
	g.gatewayRuntimeSteps(sc)
	g.gatewayAuthSteps(sc)
	g.gatewayHeartbeatSteps(sc)
	g.gatewayFallbackSteps(sc)
	g.gatewayGoofspielSteps(sc)
	platformSteps(sc, g)
	mafiaSteps(sc, g)
	monopolySteps(sc, g)
	supersedeSteps(sc, g)
	g.Cleanup(func() {
		if g.ws != nil {
			g.ws.Close()
		}
	})
}

// supersedeSteps binds the steps of PYYOL-REF-SUPERSEDED.
func supersedeSteps(sc *suite.ScenarioContext, g *gwRun) {
	s := &superseding{g: g}
	s.gatewayRuntimeSteps(sc)
	sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
		if s.first != nil {
			s.first.Close()
		}
		return ctx, err
	})
}

// mafiaSteps binds the Mafia steps; the key and connection steps are the
// gateway's own (g).
func mafiaSteps(sc *suite.ScenarioContext, g *gwRun) {
	r := &mafiaRun{g: g}
	r.gatewayMafiaSteps(sc)
	r.gatewayRefereeSteps(sc)
}

// monopolySteps binds the Monopoly scenarios of gateway-monopoly.feature:
// the kit registers for a practice match, plays its seat from the legal
// list and referees every view and event it saw.
func monopolySteps(sc *suite.ScenarioContext, g *gwRun) {
	m := &monoRun{g: g}
	m.gatewayMonopolySteps(sc)
	m.gatewayMonopolyMoneySteps(sc)
	m.gatewayMonopolyTradesSteps(sc)
	m.gatewayMonopolyRefusalsSteps(sc)
	m.gatewayMonopolyEndingSteps(sc)
	m.gatewayRefereeSteps(sc)
}

// platformSteps registers the steps of the platform's manifest, stakes and
// ranked scenarios on a platform run (p) built on the gateway run (g).
func platformSteps(sc *suite.ScenarioContext, g *gwRun) {
	p := &platRun{g: g, Scenario: &g.Scenario}
	p.gatewayManifestSteps(sc)
	p.gatewayStakesSteps(sc)
	p.gatewayRankedSteps(sc)
	p.gatewayLimitsSteps(sc)
	p.Cleanup(func() {
		p.restoreTiers(context.Background())
		if p.endpoint != nil {
			p.endpoint.Close()
		}
	})
}

// pushSteps registers every pyyol-push step on sc for one scenario: the
// kit plays the platform (p) against the agent endpoint.
func pushSteps(sc *suite.ScenarioContext, env *suite.Env) {
	p := &pushRun{env: env}
	p.Bind(sc, env)
	p.sharedSteps(sc)
	p.pushEndpointSteps(sc)
	p.pushSecuritySteps(sc)
	p.pushLifecycleSteps(sc)
	p.pushSignatureSteps(sc)
	pushMafiaSteps(sc, p)
	pushMonopolySteps(sc, p)
}
