package pyyol

import (
	"context"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// gatewayRefereeSteps registers the Monopoly steps of
// features/pyyol/gateway-referee.feature (the shadow referee).
func (m *monoRun) gatewayRefereeSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the shadow referee agreed with every Monopoly money move, legal list and view$`), m.checkReferee)
	sc.Step(pattern(`^the agent plays the Monopoly match as a collector$`), func(ctx context.Context) error {
		m.style = styleCollector
		return m.play(ctx)
	})
}

// gatewayRefereeSteps registers the Mafia steps of
// features/pyyol/gateway-referee.feature: a match the runner steers
// (referee_mafia.go) and the checks of its outcomes.
func (r *mafiaRun) gatewayRefereeSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent plays a Mafia match as a (Doctor|Villager) steering the referee$`), func(ctx context.Context, role string) error {
		mm, err := r.g.playMafia(ctx, role, "referee")
		r.mm = mm
		if mm != nil && r.g.env != nil && r.g.env.HTTP != nil {
			r.g.env.HTTP.Recorder().Note(verdict.InfoPrefix + mafiaSteered(mm))
		}
		return err
	})
	sc.Step(pattern(`^every seat the agent protected survived its night$`), r.check(noFinding(checkMafiaGuard)))
}
