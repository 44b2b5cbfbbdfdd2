package shareexchange

import (
	"context"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/spec"
)

// Steps registers every share-exchange step on sc for one scenario.
func Steps(sc *suite.ScenarioContext, env *suite.Env) {
	w := &world{env: env, hex: map[string]map[int]string{}}
	w.Bind(sc, env)
	sc.Before(func(ctx context.Context, _ *godog.Scenario) (context.Context, error) {
		for _, id := range w.Tags {
			if spec.IDPattern.MatchString(id) && w.rule == "" {
				w.rule = id
			}
		}
		return ctx, nil
	})
	w.pullSteps(sc)
	w.offerSteps(sc)
	w.sharedSteps(sc)
	w.inputSteps(sc)
}
