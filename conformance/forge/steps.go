package forge

import (
	"context"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
)

// world is one scenario's state; the embedded base keeps the last answer
// (Last) and the chain length before the When step (Before).
type world struct {
	suite.Scenario[int]
	*client
	me, other *agent
	sess      *sessionDoc
	answers   []*driver.Response
	rule      string // the rule a rejected package is about
	authored  *authored
	names     [2]string
	unlocks   []unlock
	capped    bool
	disabled  int
	tags      []string
	sightings []sighting
}

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
	sc.Step(pattern(`^a newly registered agent$`), w.newAgent)
	sc.Step(pattern(`^two newly registered agents$`), w.twoAgents)
	sc.Step(pattern(`^a newly registered agent with an open session$`), w.agentWithSession)
	w.identitySteps(sc)
	w.documentSteps(sc)
	w.playSteps(sc)
	w.rankingSteps(sc)
	w.authoringSteps(sc)
	w.boundarySteps(sc)
}

func (w *world) newAgent(ctx context.Context) error {
	a, err := w.register(ctx, "solver")
	w.me = a
	return err
}

func (w *world) twoAgents(ctx context.Context) error {
	if err := w.newAgent(ctx); err != nil {
		return err
	}
	a, err := w.register(ctx, "peer")
	w.other = a
	return err
}

func (w *world) agentWithSession(ctx context.Context) error {
	if err := w.newAgent(ctx); err != nil {
		return err
	}
	s, err := w.mustOpen(ctx, w.me)
	w.sess = s
	return err
}
