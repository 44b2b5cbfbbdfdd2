package phantompress

import (
	"errors"
	"fmt"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// lawRule maps a branch of the law to the rule that branch implements.
var lawRule = map[string]string{
	"true-official": "PP-LAW-TRUE-OFFICIAL", "true-secondary": "PP-LAW-TRUE-SECONDARY",
	"false-official": "PP-LAW-FALSE", "false-secondary": "PP-LAW-FALSE",
	"unverifiable-both-backed": "PP-LAW-BOTH-BACKED",
}

func ruleOfBranch(b string) string {
	if r, ok := lawRule[b]; ok {
		return r
	}
	return "PP-LAW-UNVERIFIABLE"
}

// revealedSources is the material a reveal discloses, as the law sees it.
func revealedSources(rv engine.Reveal) []engine.Source {
	var out []engine.Source
	for _, d := range rv.Documents {
		out = append(out, d.Source())
	}
	for _, t := range rv.Testimonies {
		out = append(out, t.AsSource())
	}
	return out
}

// CheckCaseTable checks a case view against its per_case row (PP-CASE-TABLE).
func CheckCaseTable(cv engine.CaseView, ap int) error {
	s, ok := seedSpecOf(cv.CaseNo)
	if !ok {
		return verdict.Failf("PP-CASE-ORDER", "case 1-4", cv.CaseNo, "")
	}
	got := engine.CaseSpec{CaseNo: cv.CaseNo, AP: ap, Documents: len(cv.Documents), Witnesses: len(cv.Witnesses), Questions: len(cv.Questions)}
	if got != s {
		return verdict.Failf("PP-CASE-TABLE", s, got, "case %d at its opening", cv.CaseNo)
	}
	return nil
}

// checkPublish checks a publish: first what the seed fixes in the state
// fields every target shows (checkPublishInvariants), then, where the target
// reveals in the kit's event shape, the settlement table, the reveal and the
// law over it, using only the target's own reveal as the truth. Every
// problem found is kept; the most severe decides (judge). Where trust lands
// off the table's values (PP-SETTLE-TABLE, which cannot say which line is
// wrong) and the kit's settlement shows which rule a line breaks, that
// rule is named instead (a ghost answer charged the wrong trust is
// PP-SETTLE-GHOST).
func (m *Model) checkPublish(r *actionResponse) error {
	if err := m.checkPublishInvariants(r); err != nil {
		if st := settlementOf(r); st != nil && failedRule(err) == "PP-SETTLE-TABLE" {
			if exact := m.checkSettled(st, r); isMust(exact) && failedRule(exact) != "PP-SETTLE-TABLE" {
				return exact
			}
		}
		return err
	}
	st := settlementOf(r)
	if st == nil {
		// The settlement's shape is the kit's choice: a target that reveals
		// in another shape is held to the invariants above, and the exact
		// table is unchecked on it.
		m.note(verdict.Failf("PP-EVENTS", "a published event with the kit's settlement and reveal", r.Events,
			"unchecked on this target: the exact settlement lines, the reveal and the law (the invariants of trust, status, case and AP were checked)"))
		return nil
	}
	return judge(m.note, m.checkHidden(st.Reveal), m.checkReveal(st.Reveal), m.checkSettled(st, r))
}

// settlementOf is the settlement of a publish answer in the kit's event
// shape, nil when it has none.
func settlementOf(r *actionResponse) *engine.Settlement {
	var st *engine.Settlement
	for _, ev := range r.Events {
		if ev.Type == "published" && ev.Settlement != nil {
			st = ev.Settlement
		}
	}
	return st
}

// failedRule is the rule a failure names, "" for another error.
func failedRule(err error) string {
	var f *verdict.Failure
	if errors.As(err, &f) {
		return f.RuleID
	}
	return ""
}

// checkSettled compares the target's settlement and the state after it with
// the table applied to the booked answers and the revealed truth.
func (m *Model) checkSettled(st *engine.Settlement, r *actionResponse) error {
	before := m.State
	var graded []engine.Graded
	for _, q := range before.Case.Questions {
		a := m.Answers[q.ID]
		graded = append(graded, engine.Graded{Question: q.ID, Verdict: a.Verdict, Confidence: a.Confidence, Correct: st.Reveal.Answers[q.ID]})
	}
	want := seedSettle(before.CaseNo, before.Trust, graded)
	if err := checkNotFired(want, st.Outcome, r.State); err != nil {
		return err
	}
	return judge(m.note, append(checkLines(want, st.Outcome), m.checkAfterPublish(want, st.Outcome, r))...)
}

// checkReveal checks the reveal is complete and agrees with what was read
// and heard and with the law over the revealed material.
func (m *Model) checkReveal(rv engine.Reveal) error {
	c := m.State.Case
	for _, q := range c.Questions {
		if _, ok := rv.Answers[q.ID]; !ok {
			return verdict.Failf("PP-HIDE-REVEAL", "the correct answer of "+q.ID, rv.Answers, "")
		}
	}
	if len(rv.Witnesses) != len(c.Witnesses) {
		// The seed says when witness types may appear, not that they must.
		m.note(verdict.Failf("PP-HIDE-REVEAL-DETAIL", len(c.Witnesses), len(rv.Witnesses), "witness types revealed"))
	}
	return m.checkRevealedClaims(rv)
}

// checkRevealedClaims checks that the reveal's claims of every document read
// and testimony heard are the ones the agent saw (PP-HIDE-REVEAL), then
// re-derives the revealed answers from the revealed material.
func (m *Model) checkRevealedClaims(rv engine.Reveal) error {
	for id, d := range m.Docs {
		for _, rd := range rv.Documents {
			if rd.ID == id && !sameClaims(rd.Claims, d.Claims) {
				return verdict.Failf("PP-HIDE-REVEAL", d.Claims, rd.Claims, "revealed claims of %s differ from what was read", id)
			}
		}
	}
	for id, t := range m.Testimonies {
		for _, rt := range rv.Testimonies {
			if rt.Source == id && !sameClaims(rt.Claims, t.Claims) {
				return verdict.Failf("PP-HIDE-REVEAL", t.Claims, rt.Claims, "revealed claims of testimony %s differ from what was heard", id)
			}
		}
	}
	if len(rv.Documents) == 0 {
		return m.checkObservedLaw(rv)
	}
	src := revealedSources(rv)
	for _, s := range src {
		if s.Origin == "" && s.Kind != engine.KindOfficial {
			// Independence is judged by the kit's origin field (PP-LAW-INDEPENDENCE);
			// without it the law over secondaries cannot be re-derived.
			return m.checkObservedLaw(rv)
		}
	}
	for _, q := range m.State.Case.Questions {
		want := engine.Law(src, q.Claim)
		if rv.Answers[q.ID] == want {
			continue
		}
		if rule, why := diagnoseLaw(rv, src, q.Claim, rv.Answers[q.ID]); rule != "" {
			return verdict.Failf(rule, want, rv.Answers[q.ID], "%s (claim %s): %s", q.ID, q.Claim, why)
		}
		return verdict.Failf(ruleOfBranch(engine.Branch(src, q.Claim)), want, rv.Answers[q.ID],
			"%s (claim %s) over the revealed material", q.ID, q.Claim)
	}
	return nil
}

// diagnoseLaw names the clause of the law a wrong revealed answer breaks
// when one reading explains it better than the branch the claim falls in:
// secondaries of one origin counted as independent (this claim), a
// testimony not counted or a secondary kind counted as an official record
// (every answer of the case), or a fabrication taken as backing (this
// claim). It returns "" when none does.
func diagnoseLaw(rv engine.Reveal, src []engine.Source, claim string, got engine.Verdict) (rule, why string) {
	if engine.Law(ownOrigins(src), claim) == got {
		return "PP-LAW-INDEPENDENCE", "the target counts secondaries that share an origin as independent"
	}
	if explainsCase(rv, withoutKind(src, engine.KindTestimony)) {
		return "PP-LAW-TESTIMONY", "every revealed answer is the law's without the testimonies"
	}
	for _, kind := range []string{engine.KindArticle, engine.KindMemo, engine.KindLetter, engine.KindDiary} {
		// a kind read as official must decide some claim the law leaves
		// open: a case that only loses verdicts is the branch's failure
		if decidesOpenClaim(rv, src) && explainsCase(rv, asOfficial(src, kind)) {
			return "PP-LAW-DOC-KINDS", "every revealed answer is the law's with a " + kind + " read as an official record"
		}
	}
	if fabricatedOnly(weigh(rv, claim), rv) {
		return "PP-LAW-FABRICATED", "only fabricated documents back the claim"
	}
	return "", ""
}

// decidesOpenClaim reports whether the case reveals 真 or 偽 for a claim
// the law over src leaves 裏取り不能.
func decidesOpenClaim(rv engine.Reveal, src []engine.Source) bool {
	for _, q := range rv.Questions {
		if got := rv.Answers[q.ID]; got != engine.Unverifiable && engine.Law(src, q.Claim) == engine.Unverifiable {
			return true
		}
	}
	return false
}

// explainsCase reports whether the law over src gives every revealed answer
// of the case.
func explainsCase(rv engine.Reveal, src []engine.Source) bool {
	for _, q := range rv.Questions {
		if engine.Law(src, q.Claim) != rv.Answers[q.ID] {
			return false
		}
	}
	return true
}

// withoutKind leaves out the sources of kind.
func withoutKind(src []engine.Source, kind string) []engine.Source {
	var out []engine.Source
	for _, s := range src {
		if s.Kind != kind {
			out = append(out, s)
		}
	}
	return out
}

// asOfficial reads the sources of kind as official records.
func asOfficial(src []engine.Source, kind string) []engine.Source {
	out := make([]engine.Source, len(src))
	for i, s := range src {
		if s.Kind == kind {
			s.Kind = engine.KindOfficial
		}
		out[i] = s
	}
	return out
}

// ownOrigins gives every source an origin of its own: the law as a target
// would apply it that treats every secondary as independent.
func ownOrigins(src []engine.Source) []engine.Source {
	out := make([]engine.Source, len(src))
	for i, s := range src {
		s.Origin = s.ID
		out[i] = s
	}
	return out
}

// checkObservedLaw is the check left when a target reveals only answers: an
// official the agent read decides its claim.
func (m *Model) checkObservedLaw(rv engine.Reveal) error {
	for _, q := range m.State.Case.Questions {
		for _, d := range m.Docs {
			if d.Kind != engine.KindOfficial {
				continue
			}
			for _, c := range d.Claims {
				if c.Claim != q.Claim {
					continue
				}
				want := engine.True
				if c.Stance == engine.Contradicts {
					want = engine.False
				}
				if rv.Answers[q.ID] != want {
					return verdict.Failf("PP-LAW-TRUE-OFFICIAL", want, rv.Answers[q.ID], "%s: official %s", q.ID, d.ID)
				}
			}
		}
	}
	return nil
}

// sameClaims compares two claim lists as sets.
func sameClaims(a, b []engine.ClaimRef) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[engine.ClaimRef]int{}
	for _, c := range a {
		seen[c]++
	}
	for _, c := range b {
		if seen[c] == 0 {
			return false
		}
		seen[c]--
	}
	return true
}

// checkNotFired blames PP-SETTLE-FIRED first when the target fired a
// trainee the table leaves trust to: the target agrees on the trust left
// (above 0) yet marks the case fired, withholds the clear, or ends the run.
// The missing clear bonus that follows is that rule's consequence, not a
// separate PP-SETTLE-BONUS fault.
func checkNotFired(want, got engine.Outcome, after engine.StateView) error {
	if want.Fired || got.TrustAfter != want.TrustAfter || want.TrustAfter <= 0 {
		return nil
	}
	ended := after.Status != engine.StatusActive && !want.Victory
	if got.Fired || (!got.Cleared && got.ClearBonus == 0) || ended { // PP-SETTLE-FIRED: クビは信用度0のときだけ
		return verdict.Failf("PP-SETTLE-FIRED", fmt.Sprintf("cleared, status active, trust %d left", want.TrustAfter),
			fmt.Sprintf("fired %v, cleared %v, status %s", got.Fired, got.Cleared, after.Status), "publishing case %d", want.CaseNo)
	}
	return nil
}

// ghostShareOff decides whom a ghost line's wrong trust is blamed on: its
// trust is the table's part (hedge -3, misprint -(8+caseNo*3)) plus the
// ghost's -4, and one number cannot tell which part is off. The rest of
// the settlement can: a wrong answer of the same confidence that is no
// ghost shows the table's part (right: the ghost's share is off,
// PP-SETTLE-GHOST; wrong: PP-SETTLE-TABLE), else a ghost line of the
// other confidence shows the ghost's share (right: the table's part is
// off). With neither, a misprint figure of the case number one off, or
// of the brackets misplaced, plus the ghost's -4 is the table's; anything
// else is the ghost's, as before.
func ghostShareOff(want, got engine.Outcome, line engine.Line) bool {
	trust := map[string]int{}
	for _, l := range got.Lines {
		trust[l.Question] = l.Trust
	}
	evidence := func(same, ghost bool) (bool, bool) {
		for _, w := range want.Lines {
			g, ok := trust[w.Question]
			if ok && !w.Right && w.Ghost == ghost && (w.Confidence == line.Confidence) == same {
				return true, g == w.Trust
			}
		}
		return false, false
	}
	if seen, right := evidence(true, false); seen {
		return right
	}
	if seen, right := evidence(false, true); seen {
		return !right
	}
	if line.Confidence == engine.Assert {
		// A misprint's figure taken at the case number one off (an index
		// for the number) with the ghost's -4 on top is the table's slip.
		for _, c := range []int{want.CaseNo - 1, want.CaseNo + 1} {
			if trust[line.Question] == seedMisprintTrust(c)+seedGhostTrust {
				return false
			}
		}
		// So is the misprint's -(8+caseNo×3) with its brackets misplaced,
		// -(8+caseNo)×3, beside the ghost's -4 (PP-SETTLE-TABLE).
		if trust[line.Question] == -(8+want.CaseNo)*3+seedGhostTrust {
			return false
		}
	}
	return true
}

// ghostChargedOnUnverifiable tells a wrong 裏取り不能 answer charged the
// ghost's -4 on top of its table figure: the seed's ghost is a 真 or 偽
// given where the answer is 裏取り不能, never the other way round, so the
// extra 4 is the ghost rule read backwards (PP-SETTLE-GHOST), not a wrong
// table row.
func ghostChargedOnUnverifiable(want, got engine.Line) bool {
	return !want.Ghost && !want.Right && want.Verdict == engine.Unverifiable &&
		got.Points == want.Points && got.Trust == want.Trust+seedGhostTrust
}

// checkLines compares the target's settlement with the table's and returns
// every difference it finds, each under its own rule.
func checkLines(want, got engine.Outcome) []error {
	var errs []error
	byQ := map[string]engine.Line{}
	for _, l := range got.Lines {
		byQ[l.Question] = l
	}
	for _, w := range want.Lines {
		g, ok := byQ[w.Question]
		switch {
		case !ok:
			errs = append(errs, verdict.Failf("PP-SETTLE-TABLE", w, "no line", "settlement of %s", w.Question))
		case w.Ghost != g.Ghost || (w.Trust != g.Trust && w.Points == g.Points && w.Ghost && ghostShareOff(want, got, w)) || ghostChargedOnUnverifiable(w, g):
			errs = append(errs, verdict.Failf("PP-SETTLE-GHOST", w, g, "settlement of %s", w.Question))
		case w.Points != g.Points || w.Trust != g.Trust || w.Right != g.Right:
			errs = append(errs, verdict.Failf("PP-SETTLE-TABLE", w, g, "settlement of %s", w.Question))
		}
	}
	if want.AnswerPoints != got.AnswerPoints || want.TrustDelta != got.TrustDelta {
		errs = append(errs, verdict.Failf("PP-SETTLE-TABLE", [2]int{want.AnswerPoints, want.TrustDelta}, [2]int{got.AnswerPoints, got.TrustDelta}, "answer points and trust delta"))
	}
	if want.Fired && (got.ClearBonus != 0 || got.Cleared || got.TrustAfter != 0) {
		errs = append(errs, verdict.Failf("PP-SETTLE-CLAMP", "trust 0, no clear bonus", got, "a fired case"))
	}
	clear := want.ClearBonus
	if want.Victory && want.ClearBonus != got.ClearBonus {
		// Whether case #4 earns the clear bonus beside VICTORY is the kit's
		// reading; the rest of the bonuses are the seed's.
		errs = append(errs, verdict.Failf("PP-SETTLE-VICTORY", want.ClearBonus, got.ClearBonus, "clear bonus of the final case"))
		clear = got.ClearBonus
	}
	if !want.Fired && (clear != got.ClearBonus || want.VictoryBonus != got.VictoryBonus || want.AnswerPoints+clear+want.VictoryBonus != got.Points) {
		errs = append(errs, verdict.Failf("PP-SETTLE-BONUS", [3]int{want.ClearBonus, want.VictoryBonus, want.Points}, [3]int{got.ClearBonus, got.VictoryBonus, got.Points}, "clear bonus, victory bonus, case points"))
	}
	return errs
}

// checkAfterPublish checks the run's state after a publish.
func (m *Model) checkAfterPublish(want, got engine.Outcome, r *actionResponse) error {
	before, after := m.State, r.State
	switch {
	case after.Trust != want.TrustAfter:
		rule := "PP-SETTLE-TABLE"
		if want.Fired {
			rule = "PP-SETTLE-CLAMP"
		}
		return verdict.Failf(rule, want.TrustAfter, after.Trust, "trust after publishing case %d", before.CaseNo)
	case r.has["points"] && after.Points != before.Points+got.Points:
		return verdict.Failf("PP-SETTLE-BONUS", before.Points+want.Points, after.Points, "points after publishing case %d", before.CaseNo)
	case want.Fired && after.Status == engine.StatusActive:
		return verdict.Failf("PP-SETTLE-FIRED", engine.StatusFired, after.Status, "trust reached 0")
	case want.Victory && after.Status == engine.StatusActive:
		return verdict.Failf("PP-STATE-STATUS-ENDED", engine.StatusVictory, after.Status, "case 4 published")
	case (want.Fired && after.Status != engine.StatusFired) || (want.Victory && after.Status != engine.StatusVictory):
		// Only leaving "active" is the seed's; the names are the kit's.
		m.note(verdict.Failf("PP-STATE-VIEW", map[bool]string{true: engine.StatusFired, false: engine.StatusVictory}[want.Fired], after.Status, "the kit's name of an ended status"))
		return nil
	case !want.Fired && !want.Victory && after.Status != engine.StatusActive:
		return verdict.Failf("PP-SETTLE-FIRED", engine.StatusActive, after.Status, "trust %d left", after.Trust)
	}
	if after.Status != engine.StatusActive {
		return nil
	}
	if after.CaseNo != before.CaseNo+1 {
		return verdict.Failf("PP-CASE-ORDER", before.CaseNo+1, after.CaseNo, "case after publishing case %d", before.CaseNo)
	}
	spec, _ := seedSpecOf(after.CaseNo)
	if after.AP != spec.AP {
		return verdict.Failf(openingAPRule(before.AP, after.AP, spec.AP), spec.AP, after.AP, "AP at the opening of case %d (%d AP were left)", after.CaseNo, before.AP)
	}
	if r.has["answers"] && len(after.Answers) != 0 {
		return verdict.Failf("PP-CASE-ORDER", "no answers in a new case", after.Answers, "")
	}
	if !r.has["case"] {
		return nil // the case's public face is the kit's shape (PP-STATE-VIEW)
	}
	return CheckCaseTable(after.Case, after.AP)
}
