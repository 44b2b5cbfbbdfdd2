package pyyol

import (
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// gatewayMonopolyTradesSteps registers the steps of features/pyyol/gateway-monopoly.feature (its rules on trades).
func (m *monoRun) gatewayMonopolyTradesSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^every trade put to the agent was asked of it$`), m.checkTradeResponses)
}

// checkTradeResponses: a trade proposed to the agent is answered by the
// agent, in a trade_response view, before it is executed or rejected;
// and a trade_response view comes only with a trade proposed to it
// (PYYOL-MONO-PHASE-TRADE-RESPONSE). A trade_proposed that names no
// target leaves the second half undecided.
func (m *monoRun) checkTradeResponses() error {
	pending, unread := false, false
	return m.replay(func(e frame) error {
		t, _ := payload(e)["trade"].(map[string]any)
		switch e.Type {
		case "trade_proposed":
			target, ok := fieldInt(t, "target")
			unread = unread || !ok
			if ok && target == m.seat {
				pending = true
			}
		case "trade_executed", "trade_rejected":
			if pending {
				return verdict.Failf("PYYOL-MONO-PHASE-TRADE-RESPONSE", "the agent asked in trade_response", e.Type,
					"event %d settled a trade proposed to seat %d without its answer", e.Seq, m.seat)
			}
		}
		return nil
	}, func(i int, t *monoTurn) error {
		if t.view.Phase != "trade_response" {
			return nil
		}
		if !pending && !unread {
			return verdict.Failf("PYYOL-MONO-PHASE-TRADE-RESPONSE", "a trade proposed to the agent", "none", "turn view %d in trade_response", i)
		}
		pending = false
		return nil
	})
}
