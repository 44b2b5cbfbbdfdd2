package phantompress

import (
	"context"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/suite"
)

// Steps registers the step definitions of one scenario.
func Steps(sc *suite.ScenarioContext, env *suite.Env) {
	w := newWorld(env)
	w.Bind(sc, env)
	sc.Before(func(ctx context.Context, _ *godog.Scenario) (context.Context, error) {
		return ctx, w.controlledLive()
	})
	sharedSteps(sc, w)
	apiSteps(sc, w)
	inputSteps(sc, w)
	casesSteps(sc, w)
	answersSteps(sc, w)
	hidingSteps(sc, w)
	lawSteps(sc, w)
	quotasSteps(sc, w)
	settlementSteps(sc, w)
	runsSteps(sc, w)
}
