package phantompress

import (
	"context"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// inputSteps registers the steps of features/phantom-press/input.feature.
func inputSteps(sc *suite.ScenarioContext, w *world) {
	sc.Step(pattern(`^the budget is still (\d+) turns$`), w.budgetIs)
}

// budgetIs is the step "the budget is still n turns": it checks the run's
// budget_turns (the scenario's rule) and keeps the fetched state.
func (w *world) budgetIs(ctx context.Context, n int) error {
	s, err := w.fetchState(ctx)
	if err != nil {
		return err
	}
	if s.BudgetTurns != n {
		return verdict.Failf(w.rule(), n, s.BudgetTurns, "budget_turns")
	}
	w.m.State = s
	return nil
}
