package phantompress

import (
	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// bonusSteps registers the step of settlement.feature that checks the
// final case's clear and victory bonuses.
func bonusSteps(sc *godog.ScenarioContext, w *world) {
	sc.Step(pattern(`^the final case added both the clear bonus and the victory bonus$`), w.finalCaseBonuses)
}

// finalCaseBonuses checks that case 4's settlement added both the clear and
// the victory bonus (PP-SETTLE-VICTORY; PP-SETTLE-BONUS when case 4 was
// never settled).
func (w *world) finalCaseBonuses() error {
	for _, s := range w.m.Settlements {
		if s.CaseNo == 4 {
			if s.ClearBonus != engine.BonusCaseClear || s.VictoryBonus != engine.BonusVictory {
				return verdict.Failf("PP-SETTLE-VICTORY", [2]int{engine.BonusCaseClear, engine.BonusVictory}, [2]int{s.ClearBonus, s.VictoryBonus}, "case 4")
			}
			return nil
		}
	}
	if _, err := w.lastSettlement(); err != nil {
		return err
	}
	return verdict.Failf("PP-SETTLE-BONUS", "a settlement of case 4", len(w.m.Settlements), "")
}
