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
