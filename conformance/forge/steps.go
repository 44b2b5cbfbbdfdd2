package forge

import (
	"context"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/suite"
)

// Steps registers every FORGE step on sc for one scenario.
func Steps(sc *godog.ScenarioContext, env *suite.Env) {
	w := &world{client: &client{env: env}}
	w.Bind(sc, env)
	sc.Before(func(ctx context.Context, s *godog.Scenario) (context.Context, error) {
		for _, t := range s.Tags {
			w.tags = append(w.tags, strings.TrimPrefix(t.Name, "@"))
		}
		return ctx, nil
	})
	w.sharedSteps(sc)
	w.playSteps(sc)
	w.playLimitsSteps(sc)
	w.playFrontierSteps(sc)
	w.rankingsSteps(sc)
	w.authoringSteps(sc)
	w.identitySteps(sc)
	w.documentsSteps(sc)
}
