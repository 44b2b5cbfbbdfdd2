package forge

import (
	"context"

	"github.com/agentgames/conformance/conformance/suite"
)

// sharedSteps registers the steps several feature files use.
func (w *world) sharedSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^a newly registered agent$`), w.newAgent)
	sc.Step(pattern(`^two newly registered agents$`), w.twoAgents)
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

// solveOne clears the agent's current level, keeping the session it
// cleared for the checks that compare what came after.
func (w *world) solveOne(ctx context.Context) error {
	s, _, err := w.clear(ctx, w.me, 0)
	w.sess = s
	return err
}
