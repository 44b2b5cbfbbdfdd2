package phantompress

import (
	"fmt"
	"sort"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// verdicts are the three correct answers a question can have.
var verdicts = []engine.Verdict{engine.True, engine.False, engine.Unverifiable}

// confidences are the two confidences an answer can carry.
var confidences = []engine.Confidence{engine.Assert, engine.Hedge}

// lineTrusts lists the trust changes the settlement table allows for one
// question: its booked answer against every possible correct verdict (or
// the one an official record the agent read decides), or every answer at
// all when the model could not book the one the target recorded.
func lineTrusts(a engine.Answer, booked bool, caseNo int, known []engine.Verdict) map[int]bool {
	out := map[int]bool{}
	for _, correct := range known {
		if booked {
			out[seedLine(engine.Graded{Verdict: a.Verdict, Confidence: a.Confidence, Correct: correct}, caseNo).Trust] = true
			continue
		}
		for _, v := range verdicts {
			for _, c := range confidences {
				out[seedLine(engine.Graded{Verdict: v, Confidence: c, Correct: correct}, caseNo).Trust] = true
			}
		}
	}
	return out
}

// allowedTrustDeltas sums the per-question trust changes into every total
// the table allows for the case the model holds.
func (m *Model) allowedTrustDeltas() map[int]bool {
	sums := map[int]bool{0: true}
	for _, q := range m.State.Case.Questions {
		a, booked := m.Answers[q.ID]
		next := map[int]bool{}
		for d := range lineTrusts(a, booked, m.State.CaseNo, m.possibleTruths(q.Claim)) {
			for s := range sums {
				next[s+d] = true
			}
		}
		sums = next
	}
	return sums
}

// possibleTruths lists the correct verdicts claim may have: the one the
// official records the agent read decide when they agree (an official
// supporting a claim makes it TRUE, one contradicting it FALSE:
// PP-LAW-TRUE-OFFICIAL, PP-LAW-FALSE), else all three.
func (m *Model) possibleTruths(claim string) []engine.Verdict {
	decided := map[engine.Verdict]bool{}
	for _, d := range m.Docs {
		if d.Kind != engine.KindOfficial {
			continue
		}
		for _, c := range d.Claims {
			switch {
			case c.Claim != claim:
			case c.Stance == engine.Supports:
				decided[engine.True] = true
			case c.Stance == engine.Contradicts:
				decided[engine.False] = true
			}
		}
	}
	if len(decided) == 1 {
		for v := range decided {
			return []engine.Verdict{v}
		}
	}
	return verdicts
}

// allowedTrustAfter lists the trust values a publish may leave: before plus
// an allowed total, where anything at or below 0 may also read as 0 (the
// clamp is the kit's reading, PP-SETTLE-CLAMP).
func (m *Model) allowedTrustAfter(before int) []int {
	set := map[int]bool{}
	for d := range m.allowedTrustDeltas() {
		t := before + d
		set[t] = true
		if t <= 0 {
			set[0] = true
		}
	}
	out := make([]int, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Ints(out)
	return out
}

// checkPublishInvariants checks what the seed fixes about a publish in the
// state fields its own client reads (case_no, trust, ap, status), whatever
// shape the target gives its events: trust never exceeds its max of 100
// (PP-TRUST-INIT, named first: a trust past the max breaks it whatever the
// table allows), trust never rises and lands on a value
// the settlement table allows (PP-SETTLE-TABLE), trust 0 fires the trainee
// and ends the run while trust left never does (PP-SETTLE-FIRED), publishing
// case #4 ends the run (PP-STATE-STATUS-ENDED), the next case is the next
// number (PP-CASE-ORDER) and opens with its own row's AP (PP-AP-NO-CARRY).
func (m *Model) checkPublishInvariants(r *actionResponse) error {
	before, after := m.State, r.State
	if after.Trust > seedTrustInit { // PP-TRUST-INIT: "init":100,"max":100
		return verdict.Failf("PP-TRUST-INIT", fmt.Sprintf("trust at most %d", seedTrustInit), after.Trust, "after publishing case %d", before.CaseNo)
	}
	if len(before.Case.Questions) > 0 {
		allowed := m.allowedTrustAfter(before.Trust)
		if after.Trust > before.Trust || !containsInt(allowed, after.Trust) { // PP-SETTLE-TABLE: 信用度は表の通りにしか動かない
			return verdict.Failf("PP-SETTLE-TABLE", fmt.Sprintf("trust after publishing case %d: one of %v", before.CaseNo, allowed), after.Trust,
				"trust %d before; the answers booked settle only to these values", before.Trust)
		}
	}
	fired := after.Trust <= 0
	switch {
	case fired && after.Status == engine.StatusActive: // PP-SETTLE-FIRED: 信用度0 = クビ（run終了）
		return verdict.Failf("PP-SETTLE-FIRED", "the run ends at trust 0", after.Status, "trust %d after publishing case %d", after.Trust, before.CaseNo)
	case !fired && before.CaseNo < 4 && after.Status != engine.StatusActive:
		return verdict.Failf("PP-SETTLE-FIRED", engine.StatusActive, after.Status, "trust %d left after publishing case %d", after.Trust, before.CaseNo)
	case !fired && before.CaseNo >= 4 && after.Status == engine.StatusActive: // PP-STATE-STATUS-ENDED: #4発行完了で終了
		return verdict.Failf("PP-STATE-STATUS-ENDED", "a status other than active", after.Status, "case 4 published")
	case after.Status != engine.StatusActive:
		return nil
	case after.CaseNo != before.CaseNo+1: // PP-CASE-ORDER: 案件#1〜#4を順に
		return verdict.Failf("PP-CASE-ORDER", before.CaseNo+1, after.CaseNo, "case after publishing case %d", before.CaseNo)
	}
	if spec, ok := seedSpecOf(after.CaseNo); ok && after.AP != spec.AP { // PP-AP-NO-CARRY: 案件ごと、持ち越しなし
		return verdict.Failf(openingAPRule(before.AP, after.AP, spec.AP), spec.AP, after.AP, "AP at the opening of case %d (%d AP were left)", after.CaseNo, before.AP)
	}
	return nil
}

// openingAPRule names the rule a new case's wrong AP breaks: the leftover
// carried over (PP-AP-NO-CARRY) when the AP grew by what was left, or else
// the case's row of the table (PP-CASE-TABLE).
func openingAPRule(left, opened, row int) string {
	if left > 0 && opened == row+left {
		return "PP-AP-NO-CARRY"
	}
	if opened != row && left == 0 {
		return "PP-CASE-TABLE"
	}
	if opened > row {
		return "PP-AP-NO-CARRY"
	}
	return "PP-CASE-TABLE"
}

func containsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
