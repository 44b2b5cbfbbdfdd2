package pyyol

import (
	"context"
	"strconv"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// gatewayRefereeSteps registers the Monopoly steps of
// features/pyyol/gateway-referee.feature (the shadow referee).
func (m *monoRun) gatewayRefereeSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the shadow referee agreed with every Monopoly money move, legal list and view$`), m.checkReferee)
	// A collector plays until a seat owes rent on a utility of an owner
	// holding both (PYYOL-MONO-RENT's 10x reading; a flat 4x shows only
	// there) and on a railroad of an owner holding three or more (where
	// $25 a railroad parts from the doubling table): on a seeded run most
	// tables reach both in the first matches.
	sc.Step(pattern(`^the agent plays up to (\d+) Monopoly matches as a collector until a seat owes rent with both utilities and with three railroads held$`), func(ctx context.Context, n string) error {
		tries, _ := strconv.Atoi(n)
		return m.playUntil(ctx, styleCollector, tries, func() bool {
			return m.ref != nil && (m.ref.err != nil || m.ref.reached[stateBothUtilities] && m.ref.reached[stateThreeRailroads])
		})
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
