package engine

// Settlement figures, as the seed's table gives them (PP-SETTLE-TABLE).
const (
	PointsAssertCorrect = 40
	PointsHedgeCorrect  = 15
	PointsHedgeWrong    = -5
	TrustHedgeWrong     = -3
	PointsMisprint      = -20
	TrustGhost          = -4
	BonusCaseClear      = 300
	BonusVictory        = 1500
	TrustInit           = 100
	TrustMax            = 100
	FinalCase           = 4
)

// MisprintTrust is the trust a wrong assertion costs in case caseNo:
// -(8 + caseNo*3).
func MisprintTrust(caseNo int) int { return -(8 + caseNo*3) }

// Line is the settlement of one answered question.
type Line struct {
	Question   string     `json:"question"`
	Verdict    Verdict    `json:"verdict"`
	Confidence Confidence `json:"confidence"`
	Correct    Verdict    `json:"correct"`
	Right      bool       `json:"right"`
	Ghost      bool       `json:"ghost"`
	Points     int        `json:"points"`
	Trust      int        `json:"trust"`
}

// Graded is an answer beside the correct verdict, the input of settlement.
type Graded struct {
	Question   string     `json:"question"`
	Verdict    Verdict    `json:"verdict"`
	Confidence Confidence `json:"confidence"`
	Correct    Verdict    `json:"correct"`
}

// Outcome is the settlement of a whole case at publish.
type Outcome struct {
	CaseNo       int    `json:"case_no"`
	Lines        []Line `json:"lines"`
	AnswerPoints int    `json:"answer_points"`
	ClearBonus   int    `json:"clear_bonus"`
	VictoryBonus int    `json:"victory_bonus"`
	Points       int    `json:"points"`
	TrustDelta   int    `json:"trust_delta"`
	TrustAfter   int    `json:"trust_after"`
	Cleared      bool   `json:"cleared"`
	Victory      bool   `json:"victory"`
	Fired        bool   `json:"fired"`
}

// SettleLine scores one answer against the correct verdict.
func SettleLine(g Graded, caseNo int) Line {
	l := Line{Question: g.Question, Verdict: g.Verdict, Confidence: g.Confidence, Correct: g.Correct,
		Right: g.Verdict == g.Correct}
	switch {
	case l.Right && g.Confidence == Assert:
		l.Points = PointsAssertCorrect
	case l.Right:
		l.Points = PointsHedgeCorrect
	case g.Confidence == Hedge:
		l.Points, l.Trust = PointsHedgeWrong, TrustHedgeWrong
	default: // misprint
		l.Points, l.Trust = PointsMisprint, MisprintTrust(caseNo)
	}
	// PP-SETTLE-GHOST: 真 or 偽 where the answer is 裏取り不能.
	if g.Verdict != Unverifiable && g.Correct == Unverifiable {
		l.Ghost = true
		l.Trust += TrustGhost
	}
	return l
}

// Settle scores a published case. Trust is clamped to [0, TrustMax]; a case
// is cleared (and, for the final case, won) only when trust stays above 0,
// since trust 0 fires the trainee (PP-SETTLE-FIRED).
func Settle(caseNo, trustBefore int, answers []Graded) Outcome {
	o := Outcome{CaseNo: caseNo, Lines: []Line{}}
	for _, g := range answers {
		l := SettleLine(g, caseNo)
		o.Lines = append(o.Lines, l)
		o.AnswerPoints += l.Points
		o.TrustDelta += l.Trust
	}
	o.TrustAfter = clamp(trustBefore+o.TrustDelta, 0, TrustMax)
	o.Fired = o.TrustAfter == 0
	if !o.Fired {
		o.Cleared = true
		o.ClearBonus = BonusCaseClear
		if caseNo == FinalCase {
			o.Victory = true
			o.VictoryBonus = BonusVictory
		}
	}
	o.Points = o.AnswerPoints + o.ClearBonus + o.VictoryBonus
	return o
}

// Score is the run's score: points + trust*5 - turns (PP-SCORE).
func Score(points, trust, turns int) int { return points + trust*5 - turns }

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
