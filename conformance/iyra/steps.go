package iyra

import (
	"context"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/iyra"
)

// Steps registers every Iyra step on sc for one scenario.
func Steps(sc *godog.ScenarioContext, env *suite.Env) {
	w := &world{client: newClient(env), played: map[string][]iyra.Action{}}
	w.Bind(sc, env)
	sc.Before(func(ctx context.Context, s *godog.Scenario) (context.Context, error) {
		for _, t := range s.Tags {
			w.tags = append(w.tags, strings.TrimPrefix(t.Name, "@"))
		}
		return ctx, nil
	})
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
