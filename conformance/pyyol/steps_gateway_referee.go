package pyyol

import (
	"github.com/agentgames/conformance/conformance/suite"
)

// gatewayRefereeSteps registers the Monopoly steps of
// features/pyyol/gateway-referee.feature (the shadow referee).
func (m *monoRun) gatewayRefereeSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the shadow referee agreed with every Monopoly money move, legal list and view$`), m.checkReferee)
}
