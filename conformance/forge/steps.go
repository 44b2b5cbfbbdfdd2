package forge

import (
	"github.com/agentgames/conformance/conformance/suite"
)

// Steps registers every FORGE step on sc for one scenario.
func Steps(sc *suite.ScenarioContext, env *suite.Env) {
	w := &world{client: &client{env: env}}
	w.Bind(sc, env)
	w.sharedSteps(sc)
	w.playSteps(sc)
	w.playLimitsSteps(sc)
	w.playFrontierSteps(sc)
	w.playOracleSteps(sc)
	w.rankingsSteps(sc)
	w.authoringSteps(sc)
	w.authoringPrivateSteps(sc)
	w.authoringBoundsSteps(sc)
	w.identitySteps(sc)
	w.documentsSteps(sc)
}
