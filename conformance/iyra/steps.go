package iyra

import (
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/iyra"
)

// Steps registers every Iyra step on sc for one scenario.
func Steps(sc *suite.ScenarioContext, env *suite.Env) {
	w := &world{client: newClient(env), played: map[string][]iyra.Action{}}
	w.Bind(sc, env)
	w.actionsSteps(sc)
	w.discoverySteps(sc)
	w.sharedSteps(sc)
	w.identitySteps(sc)
	w.sessionsSteps(sc)
	w.inputSteps(sc)
	w.sitesSteps(sc)
	w.claimsSteps(sc)
	w.replaySteps(sc)
	w.factionsSteps(sc)
	w.endingsSteps(sc)
}
