package phantompress

import (
	"context"
	"fmt"
	"net/http"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// settlementSteps registers the steps of features/phantom-press/settlement.feature.
func settlementSteps(sc *suite.ScenarioContext, w *world) {
	sc.Step(pattern(`^the final case added both the clear bonus and the victory bonus$`), w.finalCaseBonuses)
	sc.Step(pattern(`^the agent has answered every question with "([^"]*)"$`), w.answerAllWith)
	sc.Step(pattern(`^the agent has answered every question but one$`), w.answerAllButOne)
	sc.Step(pattern(`^the agent has hedged against every official record it read$`), w.hedgeAgainstOfficials)
	sc.Step(pattern(`^the publish cost at least 3 trust for every hedge against an official record$`), w.costPerWrongHedge)
	sc.Step(pattern(`^two fresh runs with one custom seed$`), w.twoSeededRuns)
	sc.Step(pattern(`^the agent answers the second run, case by case, so that a publish leaves trust between 1 and 10$`), w.landLowTrust)
	sc.Step(pattern(`^that run is still active, and its status says so$`), w.stillActiveLowTrust)
	sc.Step(pattern(`^the settlement matches the table for the revealed answers$`), w.settlementMatches)
	sc.Step(pattern(`^the agent has asserted what it read and hedged the rest$`), w.assertReadHedgeRest)
	sc.Step(pattern(`^every ghost answer cost 4 more trust$`), w.ghostCost)
	sc.Step(pattern(`^every asserted ghost cost its misprint and 4 more trust$`), w.assertedGhostCost)
	sc.Step(pattern(`^every cleared case added 300 and the final case 1500 more, and the run was won$`), w.bonusesAndVictory)
	sc.Step(pattern(`^the trust is 100$`), w.trustIs100)
	sc.Step(pattern(`^the trust never exceeded 100$`), w.trustNeverAbove100)
	sc.Step(pattern(`^the run ended with status "([^"]*)"$`), w.endedWithStatus)
	sc.Step(pattern(`^further actions are refused with status 409$`), w.furtherActionsConflict)
	sc.Step(pattern(`^the last settlement left trust at 0 with no clear bonus$`), w.settlementClamped)
	sc.Step(pattern(`^the score is points \+ trust\*5 - turns$`), w.scoreFormula)
}

// finalCaseBonuses checks that case 4's settlement added both the clear and
// the victory bonus (PP-SETTLE-VICTORY; PP-SETTLE-BONUS when case 4 was
// never settled).
func (w *world) finalCaseBonuses() error {
	for _, s := range w.m.Settlements {
		if s.CaseNo == 4 {
			if s.ClearBonus != seedClearBonus || s.VictoryBonus != seedVictoryBonus {
				return verdict.Failf("PP-SETTLE-VICTORY", [2]int{seedClearBonus, seedVictoryBonus}, [2]int{s.ClearBonus, s.VictoryBonus}, "case 4")
			}
			return nil
		}
	}
	if _, err := w.lastSettlement(); err != nil {
		return err
	}
	return verdict.Failf("PP-SETTLE-BONUS", "a settlement of case 4", len(w.m.Settlements), "")
}

// answerAllWith answers every question of the case with the given verdict
// and confidence.
func (w *world) answerAllWith(ctx context.Context, rest string) error {
	return w.answerAll(ctx, rest, 0)
}

// answerAllButOne hedges every question of the case but one.
func (w *world) answerAllButOne(ctx context.Context) error {
	return w.answerAll(ctx, "裏取り不能 留保", 1)
}

// hedgeAgainstOfficials hedges the opposite of what an official record the
// agent read says on every question it decides, and 裏取り不能 elsewhere;
// it skips when no official read decides any question.
func (w *world) hedgeAgainstOfficials(ctx context.Context) error {
	w.against = 0
	for _, q := range w.m.State.Case.Questions {
		arg := q.ID + " 裏取り不能 留保"
		if known := w.m.possibleTruths(q.Claim); len(known) == 1 {
			wrong := engine.True
			if known[0] == engine.True {
				wrong = engine.False
			}
			arg = fmt.Sprintf("%s %s 留保", q.ID, wrong)
			w.against++
		}
		if err := w.act(ctx, engine.ActAnswer, arg); err != nil {
			return err
		}
	}
	if w.against == 0 {
		return verdict.Skipf("no official record the agent could afford decides a question of case %d", w.m.State.CaseNo)
	}
	return nil
}

// costPerWrongHedge checks the publish took at least the wrong hedge's 3
// trust for every hedge against an official record (PP-SETTLE-TABLE: hedge
// + wrong -5, trust -3; PP-LAW-TRUE-OFFICIAL and PP-LAW-FALSE fix which
// hedges are wrong), read in the state's trust field alone.
func (w *world) costPerWrongHedge() error {
	if w.last == nil {
		return verdict.Errorf("no publish answer")
	}
	want := w.Before.Trust + w.against*seedHedgeTrust
	if got := w.last.State.Trust; got > want {
		return verdict.Failf("PP-SETTLE-TABLE", fmt.Sprintf("trust at most %d", want), got,
			"%d hedges against official records, trust %d before the publish", w.against, w.Before.Trust)
	}
	return nil
}

// twoSeededRuns starts a scout run and a target run with one custom seed;
// it skips when their first cases differ.
func (w *world) twoSeededRuns(ctx context.Context) error {
	seed := fmt.Sprintf("pp-fire10-%d", w.env.Seed%1000000)
	if err := w.startRun(ctx, defaultBudget, &seed); err != nil {
		return err
	}
	w.fire.scout = side{w.run, w.m, w.me}
	if err := w.startRun(ctx, defaultBudget, &seed); err != nil {
		return err
	}
	w.fire.target = side{w.run, w.m, w.me}
	if !sameQuestions(w.fire.scout.m.State.Case, w.fire.target.m.State.Case) {
		return verdict.Skipf("the target gave two runs with one custom seed different cases (PP-RUN-SEED-REPLAY is the kit's choice)")
	}
	return nil
}

// landLowTrust plays the scout through each case to learn its revealed
// answers, then answers the target's same case to leave trust between 1 and
// 10 after the publish (the model fails PP-SETTLE-FIRED if the target fires
// early); it skips when no case lands there.
func (w *world) landLowTrust(ctx context.Context) error {
	for w.fire.target.m.State.Status == engine.StatusActive {
		w.use(w.fire.scout)
		if !sameQuestions(w.fire.scout.m.State.Case, w.fire.target.m.State.Case) {
			return verdict.Skipf("the two runs of one custom seed diverged at case %d", w.fire.target.m.State.CaseNo)
		}
		caseNo := w.m.State.CaseNo
		if err := w.answerAll(ctx, "裏取り不能 留保", 0); err != nil {
			return err
		}
		if err := w.act(ctx, engine.ActPublish, ""); err != nil {
			return err
		}
		n := len(w.m.Settlements)
		if n == 0 || len(w.m.Settlements[n-1].Reveal.Answers) == 0 {
			return verdict.Skipf("the target's reveal does not disclose the answers of case %d", caseNo)
		}
		truth := w.m.Settlements[n-1].Reveal.Answers
		w.use(w.fire.target)
		for _, arg := range planLow(w.m.State.Case.Questions, truth, caseNo, w.m.State.Trust) {
			if err := w.act(ctx, engine.ActAnswer, arg); err != nil {
				return err
			}
		}
		// The model fails PP-SETTLE-FIRED if the target ends the run
		// with trust left (checkAfterPublish).
		if err := w.act(ctx, engine.ActPublish, ""); err != nil {
			return err
		}
		if t := w.m.State.Trust; t >= 1 && t <= 10 {
			w.fire.landed = true
			return nil
		}
	}
	return verdict.Skipf("the target's cases never left trust between 1 and 10 (status %s, trust %d)", w.fire.target.m.State.Status, w.fire.target.m.State.Trust)
}

// stillActiveLowTrust checks that the target run, with trust between 1 and
// 10, is still active: only trust 0 fires the trainee (PP-SETTLE-FIRED).
func (w *world) stillActiveLowTrust(ctx context.Context) error {
	if !w.fire.landed {
		return verdict.Errorf("no publish left trust between 1 and 10")
	}
	s, err := w.fetchState(ctx)
	if err != nil {
		return err
	}
	if s.Status != engine.StatusActive || s.Trust < 1 || s.Trust > 10 {
		return verdict.Failf("PP-SETTLE-FIRED", fmt.Sprintf("status active with trust %d", w.m.State.Trust), fmt.Sprintf("status %s, trust %d", s.Status, s.Trust),
			"only trust 0 fires the trainee")
	}
	return nil
}

// settlementMatches checks that a settlement exists (PP-HIDE-REVEAL): the
// model already checked every figure when the publish came back, so this
// step only makes the scenario's claim explicit.
func (w *world) settlementMatches() error {
	_, err := w.lastSettlement()
	return err
}

// assertReadHedgeRest answers every question: asserted, citing a source
// read, where one backs it, hedged as 裏取り不能 otherwise.
func (w *world) assertReadHedgeRest(ctx context.Context) error {
	for _, q := range w.m.State.Case.Questions {
		arg := q.ID + " 裏取り不能 留保"
		if id, st := w.backing(q.Claim, false); id != "" {
			arg = fmt.Sprintf("%s %s 断言 %s", q.ID, verdictOf(st, false), id)
		}
		if err := w.act(ctx, engine.ActAnswer, arg); err != nil {
			return err
		}
	}
	return nil
}

// ghostCost checks that every 裏取り不能 question of the last
// settlement was a ghost costing the wrong hedge's trust plus the ghost's
// (PP-SETTLE-GHOST); it skips when the case has none.
func (w *world) ghostCost() error {
	st, err := w.lastSettlement()
	if err != nil {
		return err
	}
	ghosts := 0
	for _, l := range st.Lines {
		if l.Correct == engine.Unverifiable {
			ghosts++
			if !l.Ghost || l.Trust != seedHedgeTrust+seedGhostTrust {
				return verdict.Failf("PP-SETTLE-GHOST", "ghost, trust -7", l, "")
			}
		}
	}
	if ghosts == 0 {
		return verdict.Skipf("case 1 of this run has no 裏取り不能 question")
	}
	return nil
}

// assertedGhostCost checks that every 真 or 偽 asserted on a question
// revealed 裏取り不能 was a ghost costing the misprint's trust of its case
// and the ghost's 4 on top (PP-SETTLE-GHOST: "adds trust-4" to the row
// above it, the misprint's as well as the wrong hedge's); it skips when the
// case has none, as when every assertion was backed by an official record.
func (w *world) assertedGhostCost() error {
	st, err := w.lastSettlement()
	if err != nil {
		return err
	}
	ghosts := 0
	for _, l := range st.Lines {
		if l.Correct == engine.Unverifiable && l.Confidence == engine.Assert && l.Verdict != engine.Unverifiable {
			ghosts++
			if want := seedMisprintTrust(st.CaseNo) + seedGhostTrust; !l.Ghost || l.Trust != want {
				return verdict.Failf("PP-SETTLE-GHOST", fmt.Sprintf("ghost, trust %d", want), l, "case %d", st.CaseNo)
			}
		}
	}
	if ghosts == 0 {
		return verdict.Skipf("no assertion of this case was on a 裏取り不能 question")
	}
	return nil
}

// bonusesAndVictory checks that four cases were published, the run was won,
// and each case added the clear bonus with the victory bonus on the last
// (PP-SETTLE-BONUS).
func (w *world) bonusesAndVictory() error {
	if _, err := w.lastSettlement(); err != nil && w.m.State.Status == engine.StatusVictory {
		return err // no settlement in the kit's shape: the bonuses are unchecked
	}
	if len(w.m.Settlements) != 4 || w.m.State.Status != engine.StatusVictory {
		return verdict.Failf("PP-SETTLE-BONUS", "four published cases and victory", fmt.Sprintf("%d, %s", len(w.m.Settlements), w.m.State.Status), "")
	}
	for _, s := range w.m.Settlements {
		want, clear := 0, seedClearBonus
		if s.CaseNo == 4 {
			want, clear = seedVictoryBonus, s.ClearBonus // case 4's clear bonus is PP-SETTLE-VICTORY's
		}
		if s.ClearBonus != clear || s.VictoryBonus != want {
			return verdict.Failf("PP-SETTLE-BONUS", [2]int{300, want}, [2]int{s.ClearBonus, s.VictoryBonus}, "case %d", s.CaseNo)
		}
	}
	return nil
}

// trustIs100 checks that a run was created with the initial trust
// (PP-TRUST-INIT).
func (w *world) trustIs100() error {
	if err := w.wantCreated(); err != nil {
		return err
	}
	if w.m.State.Trust != seedTrustInit {
		return verdict.Failf("PP-TRUST-INIT", 100, w.m.State.Trust, "trust of a new run")
	}
	return nil
}

// trustNeverAbove100 checks that the trust the model saw never exceeded its
// maximum (PP-TRUST-INIT).
func (w *world) trustNeverAbove100() error {
	if w.m.MaxTrust > seedTrustMax {
		return verdict.Failf("PP-TRUST-INIT", "<= 100", w.m.MaxTrust, "")
	}
	return nil
}

// endedWithStatus checks that the run ended (PP-STATE-STATUS-ENDED); a
// name other than the kit's for the ended status (PP-STATE-VIEW) is noted
// and the scenario goes on to its MUST steps.
func (w *world) endedWithStatus(status string) error {
	switch got := w.m.State.Status; {
	case got == engine.StatusActive:
		return verdict.Failf("PP-STATE-STATUS-ENDED", status, got, "the run should have ended")
	case got != status:
		w.noteFinding(verdict.Failf("PP-STATE-VIEW", status, got, "the kit's name of an ended status"))
	}
	return nil
}

// furtherActionsConflict sends a look and checks that it is refused with
// 409 (the scenario's rule).
func (w *world) furtherActionsConflict(ctx context.Context) error {
	if err := w.act(ctx, engine.ActLook, ""); err != nil {
		return err
	}
	return w.wantStatus(http.StatusConflict)
}

// settlementClamped checks that the last settlement clamped trust at 0,
// fired the trainee and paid no clear bonus (PP-SETTLE-CLAMP).
func (w *world) settlementClamped() error {
	st, err := w.lastSettlement()
	if err != nil {
		return err
	}
	if st.TrustAfter != 0 || st.ClearBonus != 0 || !st.Fired || w.m.State.Trust != 0 {
		return verdict.Failf("PP-SETTLE-CLAMP", "trust 0, fired, no clear bonus", st.Outcome, "")
	}
	return nil
}

// scoreFormula checks that a shown score is points + 5×trust − turns
// (PP-SCORE); it skips when the target shows no score.
func (w *world) scoreFormula() error {
	if !w.m.Shows["score"] {
		return verdict.Skipf("the target shows no score in its state (the seed defines none)")
	}
	s := w.m.State
	if s.Score != s.Points+5*s.Trust-s.Turn {
		return verdict.Failf("PP-SCORE", s.Points+5*s.Trust-s.Turn, s.Score, "")
	}
	return nil
}
