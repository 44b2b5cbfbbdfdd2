package engine

import (
	"fmt"
	"sort"
	"strings"
)

// Settlement is what publish reveals: the outcome of the case and the truth
// that was hidden until now (PP-HIDE-REVEAL).
type Settlement struct {
	Outcome
	Reveal Reveal `json:"reveal"`
}

// Reveal is the hidden truth of a case, disclosed at publish: the correct
// verdicts, the traps, the witness types, and every document and testimony
// of the case so the settlement can be re-derived by the law.
type Reveal struct {
	Answers     map[string]Verdict `json:"answers"`
	Questions   []Question         `json:"questions"`
	Traps       []Trap             `json:"traps"`
	Witnesses   []WitnessType      `json:"witnesses"`
	Documents   []Document         `json:"documents"`
	Testimonies []Testimony        `json:"testimonies"`
}

// Trap names a tampered or fabricated document.
type Trap struct {
	Document string `json:"document"`
	Trap     string `json:"trap"`
}

// WitnessType says whether a witness was honest or a liar.
type WitnessType struct {
	Witness string `json:"witness"`
	Type    string `json:"type"`
}

// RevealOf discloses the hidden truth of case c: the correct answers
// (PP-HIDE-REVEAL) and, the kit's choice, the traps and every witness's type
// (PP-HIDE-REVEAL-DETAIL).
func RevealOf(c *Case) Reveal {
	rv := Reveal{Answers: c.Truth(), Questions: c.Questions, Traps: []Trap{}, Witnesses: []WitnessType{},
		Documents: c.Documents, Testimonies: []Testimony{}}
	for id, t := range c.Traps {
		rv.Traps = append(rv.Traps, Trap{Document: id, Trap: t})
	}
	sort.Slice(rv.Traps, func(i, j int) bool { return rv.Traps[i].Document < rv.Traps[j].Document })
	for _, w := range c.Witnesses {
		rv.Witnesses = append(rv.Witnesses, WitnessType{Witness: w.ID, Type: w.Type})
		for _, t := range w.Topics {
			rv.Testimonies = append(rv.Testimonies, t.Testimony)
		}
	}
	return rv
}

// publish settles the current case: every question must be answered
// (PP-PUBLISH-ALL-ANSWERED).
// Publishing needs no AP (PP-AP-EXHAUSTED); the settlement clamps trust at 0 (PP-SETTLE-CLAMP),
// cleared cases earn their bonus (PP-SETTLE-BONUS, PP-SETTLE-VICTORY).
func (r *Run) publish() Result {
	if miss := r.unanswered(); len(miss) > 0 {
		return refuse("unanswered", "未回答の設問があります：%s", strings.Join(miss, ", "))
	}
	c := r.Case()
	truth := c.Truth()
	var graded []Graded
	for _, q := range c.Questions {
		a := r.answers[q.ID]
		graded = append(graded, Graded{Question: q.ID, Verdict: a.Verdict, Confidence: a.Confidence, Correct: truth[q.ID]})
	}
	o := Settle(c.No, r.Trust, graded)
	r.Trust = o.TrustAfter
	r.Points += o.Points
	t := r.tick()
	s := Settlement{Outcome: o, Reveal: RevealOf(c)}
	r.Outcomes = append(r.Outcomes, s)
	ev := []Event{{Type: "published", Turn: t, Settlement: &s}}
	narr := fmt.Sprintf("案件%d の紙面を発行した。得点 %+d、信用度 %+d（残り %d）。", c.No, o.Points, o.TrustDelta, r.Trust) + revealLine(s.Reveal)
	switch {
	case o.Fired:
		r.Status = StatusFired // PP-SETTLE-FIRED, PP-STATE-STATUS-ENDED
		ev = append(ev, Event{Type: "fired", Turn: t, Text: "信用度が尽きた。クビだ。"})
		narr += "信用度が尽き、編集長から解雇を言い渡された。"
	case o.Victory:
		r.Cleared++
		r.Status = StatusVictory // PP-SETTLE-VICTORY, PP-STATE-STATUS-ENDED
		ev = append(ev, Event{Type: "victory", Turn: t, Text: "4本の案件を刷り抜いた。本採用だ。"})
		narr += "4本の案件を刷り抜き、本採用が決まった！"
	default:
		r.Cleared++
		r.openCase(r.CaseIdx + 1) // PP-CASE-ORDER
		v := r.CaseView()
		ev = append(ev, Event{Type: "case_opened", Turn: t, Case: &v})
		narr += fmt.Sprintf("次は案件%d「%s」。", v.CaseNo, v.Title)
	}
	return Result{OK: true, Narrative: narr, Events: ev}
}

// revealLine tells the reveal in the publish narrative, so a client that
// prints only narratives (the seed's own) learns it too (PP-HIDE-REVEAL).
func revealLine(rv Reveal) string {
	var b strings.Builder
	b.WriteString("種明かし：")
	for _, q := range rv.Questions {
		fmt.Fprintf(&b, "%s=%s ", q.ID, rv.Answers[q.ID])
	}
	for _, t := range rv.Traps {
		fmt.Fprintf(&b, "罠 %s（%s） ", t.Document, map[string]string{"tampered": "改竄", "fabricated": "捏造"}[t.Trap])
	}
	for _, w := range rv.Witnesses {
		fmt.Fprintf(&b, "証人 %s は%s ", w.Witness, map[string]string{"liar": "嘘つき", "honest": "正直者"}[w.Type])
	}
	return strings.TrimSpace(b.String()) + "。"
}
