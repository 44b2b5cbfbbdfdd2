package pyyol

import (
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
)

// fallbackOf is the card the fallback bids in round n (the seat's lowest,
// PYYOL-GOOF-FALLBACK-LOWEST), from that round's view; 0 when the agent saw
// no view of it.
func (g *gwRun) fallbackOf(n int) int {
	for _, t := range g.turns {
		if t.View != nil && t.View.Round == n && len(t.View.LegalActions) > 0 {
			return slices.Min(t.View.LegalActions)
		}
	}
	return 0
}

// timedOut judges the rounds the agent answered but the gateway settled
// by the fallback. The docs bound a turn by "a timeout" of no fixed length
// (PYYOL-REF-TURN-TIMEOUT), and a gateway whose deadline passed before the
// answer arrived (serve --faults' late_turn does it on purpose) is right
// to play the fallback: such a round decides nothing. When every answered
// round went so, nothing was checked.
func (g *gwRun) timedOut(settled int) error {
	if settled > 0 && settled == len(g.answered) {
		return verdict.Skipf("the gateway settled all %d answered turns with the fallback before the answers counted (its timeout, which the docs leave open, passed first)", settled)
	}
	return nil
}
