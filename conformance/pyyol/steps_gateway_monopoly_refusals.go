package pyyol

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// gatewayMonopolyRefusalsSteps registers the steps of features/pyyol/gateway-monopoly.feature (its rules on refusals).
func (m *monoRun) gatewayMonopolyRefusalsSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent plays the Monopoly match answering its first turn with a made-up action$`), func(ctx context.Context) error {
		m.refuseFirst = true
		return m.play(ctx)
	})
	sc.Step(pattern(`^the refused answer took a safe action, changed nothing and the match went on$`), m.checkRefused)
}

// checkRefused: the made-up first answer was replaced by a safe legal
// action, the match went on, and it changed no money or holding: the next
// view shows the same players' cash and holdings unless events came
// between (PYYOL-MONO-FALLBACK, PYYOL-MONO-MOVE-ACTION).
func (m *monoRun) checkRefused() error {
	if m.end == nil || len(m.turns) < 2 {
		return verdict.Failf("PYYOL-MONO-FALLBACK", "the match going on to game_end", fmt.Sprintf("%d turns", len(m.turns)), "after a refused answer")
	}
	first, next := m.turns[0], m.turns[1]
	if len(first.after) > 0 || first.view.State == nil || next.view.State == nil {
		return nil // something happened between: nothing to compare
	}
	a, _ := json.Marshal(first.view.State.Players)
	b, _ := json.Marshal(next.view.State.Players)
	c, _ := json.Marshal(first.view.State.Holdings)
	d, _ := json.Marshal(next.view.State.Holdings)
	if string(a) != string(b) || string(c) != string(d) {
		return verdict.Failf("PYYOL-MONO-MOVE-ACTION", "players and holdings unchanged", "changed", "after the refused answer %q", "fly")
	}
	return nil
}
