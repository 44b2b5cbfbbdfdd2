package phantompress

import "github.com/agentgames/conformance/reference/phantompress/engine"

// The seed's settlement numbers, written here from the seed's own text
// rather than read from reference/phantompress/engine: the runner's oracle
// must not share the code under test, or a bug planted in the reference
// engine would move the expectation along with the answer. TestSeedTable
// holds the reference engine to the same numbers.
const (
	seedAssertRight  = 40   // PP-SETTLE-TABLE: assert+correct +40
	seedHedgeRight   = 15   // PP-SETTLE-TABLE: hedge+correct +15
	seedHedgeWrong   = -5   // PP-SETTLE-TABLE: hedge+wrong -5,
	seedHedgeTrust   = -3   // ... trust -3
	seedMisprint     = -20  // PP-SETTLE-TABLE: assert+wrong (misprint) -20,
	seedGhostTrust   = -4   // PP-SETTLE-GHOST: 真/偽 where the answer is 裏取り不能
	seedClearBonus   = 300  // PP-SETTLE-BONUS
	seedVictoryBonus = 1500 // PP-SETTLE-BONUS, PP-SETTLE-VICTORY
	seedTrustInit    = 100  // PP-TRUST-INIT
	seedTrustMax     = 100  // PP-TRUST-INIT
	seedFinalCase    = 4    // PP-SETTLE-VICTORY: publishing case #4
	seedTrustPerUnit = 5    // PP-SCORE: points + trust*5 - turns
)

// seedMisprintTrust is a misprint's trust: -(8 + caseNo*3) (PP-SETTLE-TABLE).
func seedMisprintTrust(caseNo int) int { return -(8 + caseNo*3) }

// seedScore is the run's score by the seed's formula (PP-SCORE).
func seedScore(points, trust, turns int) int { return points + trust*seedTrustPerUnit - turns }

// seedLine settles one answer by the seed's table (PP-SETTLE-TABLE,
// PP-SETTLE-GHOST).
func seedLine(g engine.Graded, caseNo int) engine.Line {
	l := engine.Line{Question: g.Question, Verdict: g.Verdict, Confidence: g.Confidence, Correct: g.Correct, Right: g.Verdict == g.Correct}
	switch {
	case l.Right && g.Confidence == engine.Assert:
		l.Points = seedAssertRight
	case l.Right:
		l.Points = seedHedgeRight
	case g.Confidence == engine.Hedge:
		l.Points, l.Trust = seedHedgeWrong, seedHedgeTrust
	default:
		l.Points, l.Trust = seedMisprint, seedMisprintTrust(caseNo)
	}
	if g.Verdict != engine.Unverifiable && g.Correct == engine.Unverifiable {
		l.Ghost = true
		l.Trust += seedGhostTrust
	}
	return l
}

// seedSettle settles a published case by the seed: trust kept within
// [0, 100], a case cleared (and case 4 won) only while trust stays above 0
// (PP-SETTLE-FIRED, PP-SETTLE-BONUS, PP-SETTLE-VICTORY).
func seedSettle(caseNo, trustBefore int, answers []engine.Graded) engine.Outcome {
	o := engine.Outcome{CaseNo: caseNo, Lines: []engine.Line{}}
	for _, g := range answers {
		l := seedLine(g, caseNo)
		o.Lines = append(o.Lines, l)
		o.AnswerPoints += l.Points
		o.TrustDelta += l.Trust
	}
	o.TrustAfter = min(max(trustBefore+o.TrustDelta, 0), seedTrustMax)
	o.Fired = o.TrustAfter == 0
	if !o.Fired {
		o.Cleared, o.ClearBonus = true, seedClearBonus
		if caseNo == seedFinalCase {
			o.Victory, o.VictoryBonus = true, seedVictoryBonus
		}
	}
	o.Points = o.AnswerPoints + o.ClearBonus + o.VictoryBonus
	return o
}

// The seed's costs and limits, held like the settlement numbers above.
const (
	seedAPRead          = 2   // PP-AP-COST: read -2 AP
	seedAPInterview     = 3   // PP-AP-COST: interview -3 AP
	seedTurnLimit       = 200 // PP-RUN-TURN-LIMIT
	seedMaxRejections   = 3   // PP-ANSWER-HEDGE-ONLY
	seedMaxComments     = 100 // PP-COMMENT
	seedMaxCommentRunes = 500 // PP-COMMENT-LENGTH
)

// seedCases is the seed's per_case table (PP-CASE-TABLE).
var seedCases = []engine.CaseSpec{
	{CaseNo: 1, AP: 10, Documents: 5, Witnesses: 2, Questions: 5},
	{CaseNo: 2, AP: 12, Documents: 7, Witnesses: 2, Questions: 6},
	{CaseNo: 3, AP: 14, Documents: 8, Witnesses: 3, Questions: 7},
	{CaseNo: 4, AP: 16, Documents: 10, Witnesses: 3, Questions: 8},
}

// seedSpecOf returns case n's row of the seed's table.
func seedSpecOf(n int) (engine.CaseSpec, bool) {
	for _, s := range seedCases {
		if s.CaseNo == n {
			return s, true
		}
	}
	return engine.CaseSpec{}, false
}
