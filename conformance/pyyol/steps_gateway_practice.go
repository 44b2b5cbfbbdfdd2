package pyyol

import (
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// gatewayPracticeSteps registers the steps of features/pyyol/gateway-practice.feature.
func (g *gwRun) gatewayPracticeSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent asks for (open|shuffled) prizes and (carry|split) ties$`), g.ask)
	sc.Step(pattern(`^the prizes came in card order$`), g.openOrder)
	sc.Step(pattern(`^the agent asks for seat (0|1)$`), g.askSeat)
}

func (g *gwRun) openOrder() error {
	if g.rules().FairnessMode != goofspiel.Open {
		return verdict.Skipf("the target did not honour the practice request for open prizes (PYYOL-REF-PRACTICE-RULES)")
	}
	for n := 0; n < g.rules().Cards; n++ {
		if r, ok := g.roundOf(n); ok && r.Prize != n+1 {
			return verdict.Failf("PYYOL-GOOF-OPEN", n+1, r.Prize, "the prize of round %d in open mode", n)
		}
	}
	return nil
}

func (g *gwRun) ask(fairness, tie string) error {
	g.practice = map[string]any{"fairness_mode": fairness, "tie_rule": tie}
	return nil
}

// askSeat asks for the practice match's seat (PYYOL-REF-PRACTICE-RULES),
// so a view told from the other seat's side shows: the views are judged
// from the seat initialize names, whichever it is.
func (g *gwRun) askSeat(seat int) error {
	g.practice = map[string]any{"seat": seat}
	return nil
}
