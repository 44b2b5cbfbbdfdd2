package phantompress

import (
	"context"
	"fmt"
	"net/http"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// lastSettlement returns the last settlement the target revealed in the
// kit's shape. A target that published in another shape was held to the
// publish invariants when the publish came back (checkPublishInvariants);
// what only the exact settlement shows is unchecked on it.
func (w *world) lastSettlement() (*engine.Settlement, error) {
	if len(w.m.Settlements) == 0 && w.m.Published > 0 {
		return nil, verdict.Skipf("unchecked: the target's publish answers carry no settlement in the kit's event shape (PP-EVENTS); trust, status, case and AP were checked at each publish")
	}
	if len(w.m.Settlements) == 0 {
		return nil, verdict.Failf("PP-HIDE-REVEAL", "a settlement", "none", "")
	}
	return &w.m.Settlements[len(w.m.Settlements)-1], nil
}

// settleSteps registers the steps of publishing's settlement, trust, score
// and the reveal. The model already checked every figure when the publish
// came back; these steps make the scenario's claim explicit.
func settleSteps(sc *godog.ScenarioContext, w *world) {
	sc.Step(pattern(`^the settlement matches the table for the revealed answers$`), w.settlementMatches)
	sc.Step(pattern(`^the agent has read every document it can afford$`), w.readAffordable)
	sc.Step(pattern(`^the agent has asserted what it read and hedged the rest$`), w.assertReadHedgeRest)
	sc.Step(pattern(`^every ghost answer cost 4 more trust$`), w.ghostCost)
	sc.Step(pattern(`^every cleared case added 300 and the final case 1500 more, and the run was won$`), w.bonusesAndVictory)
	sc.Step(pattern(`^the trust is 100$`), w.trustIs100)
	sc.Step(pattern(`^the trust never exceeded 100$`), w.trustNeverAbove100)
	sc.Step(pattern(`^the agent misprints until it is fired$`), w.misprintUntilFired)
	sc.Step(pattern(`^the run ended with status "([^"]*)"$`), w.endedWithStatus)
	sc.Step(pattern(`^the state's status is no longer "active"$`), w.noLongerActive)
	sc.Step(pattern(`^further actions are refused with status 409$`), w.furtherActionsConflict)
	sc.Step(pattern(`^the last settlement left trust at 0 with no clear bonus$`), w.settlementClamped)
	sc.Step(pattern(`^the score is points \+ trust\*5 - turns$`), w.scoreFormula)
	sc.Step(pattern(`^nothing shown before the publish held a revealed answer, trap or witness type$`), w.nothingLeaked)
	sc.Step(pattern(`^the agent has looked at the case and interviewed a witness$`), w.lookedAndInterviewed)
	sc.Step(pattern(`^the agent fetches the public log of the run$`), w.fetchLog)
	sc.Step(pattern(`^the settlement reveals every question's answer$`), w.revealAnswers)
	sc.Step(pattern(`^the settlement reveals the traps and every witness's type$`), w.revealDetail)
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
			if !l.Ghost || l.Trust != engine.TrustHedgeWrong+engine.TrustGhost {
				return verdict.Failf("PP-SETTLE-GHOST", "ghost, trust -7", l, "")
			}
		}
	}
	if ghosts == 0 {
		return verdict.Skipf("case 1 of this run has no 裏取り不能 question")
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
		want, clear := 0, engine.BonusCaseClear
		if s.CaseNo == 4 {
			want, clear = engine.BonusVictory, s.ClearBonus // case 4's clear bonus is PP-SETTLE-VICTORY's
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
	if w.m.State.Trust != engine.TrustInit {
		return verdict.Failf("PP-TRUST-INIT", 100, w.m.State.Trust, "trust of a new run")
	}
	return nil
}

// trustNeverAbove100 checks that the trust the model saw never exceeded its
// maximum (PP-TRUST-INIT).
func (w *world) trustNeverAbove100() error {
	if w.m.MaxTrust > engine.TrustMax {
		return verdict.Failf("PP-TRUST-INIT", "<= 100", w.m.MaxTrust, "")
	}
	return nil
}

// endedWithStatus checks that the run ended (PP-STATE-STATUS-ENDED) with
// the kit's name of the given status (PP-STATE-VIEW).
func (w *world) endedWithStatus(status string) error {
	switch got := w.m.State.Status; {
	case got == engine.StatusActive:
		return verdict.Failf("PP-STATE-STATUS-ENDED", status, got, "the run should have ended")
	case got != status:
		return verdict.Failf("PP-STATE-VIEW", status, got, "the kit's name of an ended status")
	}
	return nil
}

// noLongerActive checks that the run's status is no longer active
// (PP-STATE-STATUS-ENDED).
func (w *world) noLongerActive() error {
	if got := w.m.State.Status; got == engine.StatusActive {
		return verdict.Failf("PP-STATE-STATUS-ENDED", "a status other than active", got, "after case %d, trust %d", w.m.State.CaseNo, w.m.State.Trust)
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

// nothingLeaked checks that a publish came back with its revealed answers
// (PP-HIDE-REVEAL): the model compared every earlier body of the case with
// the reveal then (Model.checkHidden).
func (w *world) nothingLeaked() error {
	// The model compared every body of the case with the reveal when the
	// publish came back (Model.checkHidden); here it must have had both.
	last, err := w.lastSettlement()
	if err != nil {
		return err
	}
	st := *last
	if len(st.Reveal.Answers) == 0 {
		return verdict.Failf("PP-HIDE-REVEAL", "the revealed answers", st.Reveal, "")
	}
	return nil
}

// lookedAndInterviewed looks at the case and interviews a witness not heard
// yet.
func (w *world) lookedAndInterviewed(ctx context.Context) error {
	if err := w.act(ctx, engine.ActLook, ""); err != nil {
		return err
	}
	return w.act(ctx, engine.ActInterview, w.unheardTopic())
}

// fetchLog fetches the run's public log, which needs no key.
func (w *world) fetchLog(ctx context.Context) error {
	_, err := w.getLog(ctx)
	return err
}

// revealAnswers checks that the last settlement reveals the answer of
// every question of case 1 (PP-HIDE-REVEAL).
func (w *world) revealAnswers() error {
	st, err := w.lastSettlement()
	if err != nil {
		return err
	}
	if len(st.Reveal.Answers) != len(w.m.Cases[0].Questions) {
		return verdict.Failf("PP-HIDE-REVEAL", "the correct answer of every question of case 1", st.Reveal.Answers, "")
	}
	return nil
}

// revealDetail checks that the last settlement reveals the traps and the
// type of every witness of case 1 (PP-HIDE-REVEAL-DETAIL, the kit's choice:
// the seed says when they may appear, not that they must).
func (w *world) revealDetail() error {
	st, err := w.lastSettlement()
	if err != nil {
		return err
	}
	if rv := st.Reveal; len(rv.Witnesses) != len(w.m.Cases[0].Witnesses) || rv.Traps == nil {
		return verdict.Failf("PP-HIDE-REVEAL-DETAIL", "the traps and every witness's type of case 1", rv, "")
	}
	return nil
}
