package pyyol

import (
	"slices"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// gatewayFallbackSteps registers the steps of features/pyyol/gateway-fallback.feature.
func (g *gwRun) gatewayFallbackSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^round 0 of the agent's seat took its lowest card$`), g.fellBack)
}

func (g *gwRun) fellBack() error {
	if len(g.turns) == 0 || g.turns[0].View == nil {
		return verdict.Errorf("no round-0 turn was seen")
	}
	v := g.turns[0].View
	low := slices.Min(v.LegalActions)
	r, ok := g.roundOf(0)
	if !ok {
		return verdict.Failf(g.round0Rule(), "round_revealed for round 0", "none", "the round never resolved")
	}
	switch got := r.Cards[g.seat]; {
	case got == low:
		return nil
	case got == g.stray:
		// The card the agent sent in a way that must not count.
		return verdict.Failf(g.round0Rule(), low, got, "round 0's card for seat %d: the response must not have counted", g.seat)
	default:
		return verdict.Failf("PYYOL-GOOF-FALLBACK-LOWEST", low, got, "round 0's fallback card for seat %d", g.seat)
	}
}
