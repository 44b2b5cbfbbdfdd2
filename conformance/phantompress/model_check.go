package phantompress

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// checkHedgeOnlyTurn accepts a refused fourth assertion answered ok:true
// when it spent exactly one turn and recorded nothing (PP-ANSWER-HEDGE-ONLY).
func (m *Model) checkHedgeOnlyTurn(e Expect, r *actionResponse) error {
	before, after := m.State, r.State
	if after.Turn != before.Turn+1 {
		return verdict.Failf("PP-ANSWER-HEDGE-ONLY", "ok:false, or ok:true spending one turn", fmt.Sprintf("ok:true, turn %d -> %d", before.Turn, after.Turn), "an assertion on a hedge-only question")
	}
	if r.has["answers"] {
		if got, ok := after.Answers[e.Record0()]; ok && got.Confidence == engine.Assert {
			if prev, had := m.Answers[e.Record0()]; !had || prev.Confidence != engine.Assert {
				return verdict.Failf("PP-ANSWER-HEDGE-ONLY", "no assertion recorded", got, "an assertion on a hedge-only question")
			}
		}
	}
	return nil
}

// Record0 is the question an expectation is about, if any.
func (e Expect) Record0() string {
	if e.Record == nil {
		return ""
	}
	return e.Record.Question
}

// bookShown books the answer to arg's question as the target shows it,
// when the model could not predict the answer (a cited source it never saw
// in the kit's shape) but the target lists its recorded answers.
func (m *Model) bookShown(arg string, r *actionResponse) {
	a, err := engine.ParseAnswer(arg)
	if err != nil || !r.OK || !r.has["answers"] {
		return
	}
	if got, ok := r.State.Answers[a.Question]; ok {
		m.Answers[a.Question] = canon(got)
	}
}

// learn applies an accepted prediction to the model's own answer book.
func (m *Model) learn(e Expect) {
	if !e.OK || e.Record == nil {
		return
	}
	if e.Rejected {
		m.Rejections[e.Record.Question]++
		if _, ok := m.Answers[e.Record.Question]; ok {
			m.Stood[e.Record.Question] = true
		}
		return
	}
	m.Answers[e.Record.Question] = *e.Record
	delete(m.Stood, e.Record.Question)
}

// okRule names the rule an ok mismatch breaks.
func okRule(e Expect) string {
	if e.Rejected {
		if e.AnyBacks {
			return "PP-ANSWER-BACKING"
		}
		return "PP-ANSWER-REJECT"
	}
	return e.Rule
}

// refusalRule names the rule a refusal breaks when the model accepts the
// action: the rule that forbids the target's own refusal code where the
// code says why (an answer refused for AP, a source-free 裏取り不能
// assertion or hedge refused for want of a source, an assertion refused
// as hedge-only), else okRule.
func refusalRule(action, arg string, before engine.StateView, e Expect, r *actionResponse) string {
	if !e.OK || r.OK {
		return okRule(e)
	}
	switch {
	case r.Code == "no_ap" && action != engine.ActRead && action != engine.ActInterview:
		if before.AP < seedAPRead {
			return "PP-AP-EXHAUSTED" // 尽きても回答・発行は可能
		}
		return "PP-AP-ZERO"
	case action == engine.ActInterview && r.Code != "no_ap":
		// A well-formed "<witness> <topic>" of a topic not yet asked, within
		// AP, refused for any cause but AP: the grammar the seed fixes.
		return "PP-INTERVIEW-GRAMMAR"
	case r.Code == "hedge_only" && action == engine.ActAnswer:
		// The target locked the question to hedges where the seed does not
		// (fewer than 3 rejections on it in this case): the lock's own rule.
		return "PP-ANSWER-HEDGE-ONLY"
	case r.Code == "source_required" && action == engine.ActAnswer:
		a, err := engine.ParseAnswer(arg)
		switch {
		case err != nil:
		case a.Confidence == engine.Hedge:
			return "PP-ANSWER-HEDGE-NO-SOURCE"
		case a.Verdict == engine.Unverifiable && len(a.Sources) == 0:
			return "PP-ANSWER-UNVERIFIABLE-NO-SOURCE" // 『裏取り不能・断言』は出典不要
		case len(a.Sources) > 0:
			return "PP-ANSWER-ASSERT-SOURCES" // sources were given
		}
	}
	return okRule(e)
}

// checkBasics checks ok, turn, AP, answers and rejections. What the answer
// must hold whatever the action did (its turn is state.turn, AP never below
// 0, trust within 100 and moved only by publish, the score formula) is
// checked before the prediction, so no departure from the kit's reading of
// the action hides it.
func (m *Model) checkBasics(action, arg string, e Expect, r *actionResponse) error {
	before, after := m.State, r.State
	switch {
	case r.Turn != after.Turn:
		return verdict.Failf("PP-ACTION-RESPONSE", after.Turn, r.Turn, "the response's turn differs from state.turn")
	case after.AP < 0:
		return verdict.Failf("PP-AP-INSUFFICIENT", "AP >= 0", after.AP, "AP after %s %q", action, arg)
	case !e.Publish && after.Trust != before.Trust:
		if action == engine.ActPublish && r.OK && !e.OK {
			// a publish the seed refuses was settled: the refusal's rule
			return verdict.Failf(e.Rule, "ok:false, trust unchanged", fmt.Sprintf("ok:true, trust %d -> %d", before.Trust, after.Trust), "publish %q", arg)
		}
		return verdict.Failf("PP-ACTION-OK-FALSE", before.Trust, after.Trust, "trust changed outside publish")
	case after.Trust > seedTrustMax:
		return verdict.Failf("PP-TRUST-INIT", "trust <= 100", after.Trust, "")
	}
	if err := m.checkPredicted(action, arg, e, r); err != nil {
		// A departure from one of the kit's readings is only noted when
		// the score formula, which binds whatever the action did, holds.
		return judge(m.note, err, checkScore(r))
	}
	if err := checkScore(r); err != nil {
		return err
	}
	if e.Publish {
		return nil
	}
	return m.checkAnswers(e, r)
}

// checkPredicted compares ok, the turn and the AP with the prediction.
func (m *Model) checkPredicted(action, arg string, e Expect, r *actionResponse) error {
	before, after := m.State, r.State
	switch {
	case r.OK != e.OK:
		return verdict.Failf(refusalRule(action, arg, before, e, r), fmt.Sprintf("ok:%v", e.OK), fmt.Sprintf("ok:%v (%s %s)", r.OK, r.Code, r.Error), "%s %q", action, arg)
	case !e.OK && after.Turn != before.Turn:
		return verdict.Failf("PP-ACTION-OK-FALSE", before.Turn, after.Turn, "ok:false %s %q spent a turn", action, arg)
	case e.OK && after.Turn != before.Turn+e.Turns:
		rule := e.Rule
		if e.Turns == 1 && rule != "PP-ANSWER-REJECT" {
			rule = "PP-ACTION-TURN"
		}
		return verdict.Failf(rule, before.Turn+e.Turns, after.Turn, "turn after %s %q", action, arg)
	case !e.Publish && after.AP != before.AP-e.APCost:
		rule := "PP-AP-COST"
		if e.APCost == 0 {
			rule = "PP-AP-ZERO" // look, answer, publish, status and comment cost none
		}
		if !e.OK {
			rule = "PP-ACTION-OK-FALSE"
		}
		return verdict.Failf(rule, before.AP-e.APCost, after.AP, "AP after %s %q", action, arg)
	}
	return nil
}

// checkScore checks a shown score against its formula (PP-SCORE).
func checkScore(r *actionResponse) error {
	s := r.State
	if r.has["score"] && r.has["points"] && s.Score != seedScore(s.Points, s.Trust, s.Turn) {
		return verdict.Failf("PP-SCORE", seedScore(s.Points, s.Trust, s.Turn), s.Score, "points %d, trust %d, turns %d", s.Points, s.Trust, s.Turn)
	}
	return nil
}

// canon spells an answer's verdict and confidence canonically, whatever
// alias a target stores them under.
func canon(a engine.Answer) engine.Answer {
	if p, err := engine.ParseAnswer("q " + string(a.Verdict) + " " + string(a.Confidence)); err == nil {
		a.Verdict, a.Confidence = p.Verdict, p.Confidence
	}
	return a
}

// checkAnswers compares the answers and rejection counts a target shows (the
// kit's state fields, when present) with the model's own book after e.
func (m *Model) checkAnswers(e Expect, r *actionResponse) error {
	after := r.State
	want := map[string]engine.Answer{}
	for k, v := range m.Answers {
		want[k] = v
	}
	rej := map[string]int{}
	for k, v := range m.Rejections {
		rej[k] = v
	}
	rule := "PP-ACTION-OK-FALSE"
	if e.OK && e.Record != nil {
		if e.Rejected {
			rej[e.Record.Question]++
			rule = okRule(e)
		} else {
			want[e.Record.Question] = *e.Record
			rule = acceptRule(e, r)
		}
	}
	if r.has["answers"] {
		for q, a := range want {
			got, ok := after.Answers[q]
			got = canon(got)
			if !ok || got.Verdict != a.Verdict || got.Confidence != a.Confidence || (got.Sources != nil && !sameSet(got.Sources, a.Sources)) {
				return verdict.Failf(rule, a, got, "answer of %s", q)
			}
		}
		if len(after.Answers) != len(want) {
			return verdict.Failf(rule, len(want), len(after.Answers), "number of recorded answers")
		}
	}
	if r.has["rejections"] {
		for q, n := range rej {
			if after.Rejections[q] != n {
				return verdict.Failf(okRule(e), n, after.Rejections[q], "rejections of %s", q)
			}
		}
	}
	return nil
}

// acceptRule names the rule an answer the model records breaks when the
// target rejected it instead (an answer_rejected event for its question):
// a 裏取り不能 assertion needs no backing, so its rejection is blamed there
// rather than on PP-ANSWER-OVERWRITE when the question held an answer.
func acceptRule(e Expect, r *actionResponse) string {
	a := e.Record
	for _, ev := range r.Events {
		if ev.Type == "answer_rejected" && ev.Question == a.Question &&
			a.Verdict == engine.Unverifiable && a.Confidence == engine.Assert {
			return "PP-ANSWER-UNVERIFIABLE-NO-SOURCE"
		}
	}
	return e.Rule
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x := append([]string(nil), a...)
	y := append([]string(nil), b...)
	sort.Strings(x)
	sort.Strings(y)
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// Expected lists the actions valid now, as the model judges them.
func (m *Model) Expected() []string {
	s := m.State
	if s.Status != engine.StatusActive {
		return []string{engine.ActStatus}
	}
	var out []string
	if s.Turn < s.BudgetTurns {
		out = append(out, engine.ActLook)
		unread, unheard := false, false
		for _, d := range s.Case.Documents {
			unread = unread || !d.Read
		}
		for _, w := range s.Case.Witnesses {
			for _, t := range w.Topics {
				unheard = unheard || !t.Interviewed
			}
		}
		if unread && s.AP >= seedAPRead {
			out = append(out, engine.ActRead)
		}
		if unheard && s.AP >= seedAPInterview {
			out = append(out, engine.ActInterview)
		}
		out = append(out, engine.ActAnswer)
		if len(m.Answers) == len(s.Case.Questions) {
			out = append(out, engine.ActPublish)
		}
	}
	out = append(out, engine.ActStatus)
	if s.CommentsLeft > 0 || !m.commentsCounted() {
		out = append(out, engine.ActComment)
	}
	return out
}

// actionNames reduces available_actions entries to their action names: a
// target may list "read <資料ID>" templates where the kit lists "read".
func actionNames(list []string) []string {
	var out []string
	for _, a := range list {
		if f := strings.Fields(a); len(f) > 0 {
			out = append(out, f[0])
		}
	}
	return out
}

// checkAvailable checks available_actions: it must never list an action
// the current situation refuses (PP-AVAILABLE-ACTIONS). Leaving a valid
// action out, or listing the meta-actions status and comment, is the
// kit's reading of "lists what is valid" (PP-AVAILABLE-ACTIONS-COMPLETE).
func (m *Model) checkAvailable(list []string) error {
	got, want := actionNames(list), m.Expected()
	if m.State.Status != engine.StatusActive && len(got) == 0 {
		return nil // nothing is valid on a finished run but status, which a target may leave unlisted
	}
	allowed := append(append([]string(nil), want...), m.mayAlsoList()...)
	for _, a := range got {
		if !contains(allowed, a) {
			return verdict.Failf("PP-AVAILABLE-ACTIONS", want, list, "%s is listed but refused now: turn %d, AP %d, %d/%d answered", a, m.State.Turn, m.State.AP,
				len(m.Answers), len(m.State.Case.Questions))
		}
	}
	if !sameSet(want, got) {
		m.note(verdict.Failf("PP-AVAILABLE-ACTIONS-COMPLETE", want, list, "turn %d, AP %d, %d/%d answered", m.State.Turn, m.State.AP,
			len(m.Answers), len(m.State.Case.Questions)))
	}
	return nil
}

// mayAlsoList names the actions a faithful target may list beyond the
// model's own: reading or interviewing again where AP allows (re-reading is
// the kit's choice, PP-READ-ONCE), and publishing when the model could not
// book every answer the target recorded.
func (m *Model) mayAlsoList() []string {
	s := m.State
	if s.Status != engine.StatusActive || s.Turn >= s.BudgetTurns {
		return nil
	}
	var out []string
	if s.AP >= seedAPRead && len(s.Case.Documents) > 0 {
		out = append(out, engine.ActRead)
	}
	if s.AP >= seedAPInterview && len(s.Case.Witnesses) > 0 {
		out = append(out, engine.ActInterview)
	}
	if m.Unsure {
		out = append(out, engine.ActPublish)
	}
	return out
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// stateKeys lists the keys the target's state object holds, so checks of
// the kit's optional state fields run only where a target shows them.
func stateKeys(body []byte) map[string]bool {
	return stateKeysOf(treeOf(body))
}

// stateKeysOf is stateKeys of an answer already decoded as generic JSON
// (a response's driver.Response.Tree).
func stateKeysOf(v any) map[string]bool {
	out := map[string]bool{}
	top, _ := v.(map[string]any)
	state, _ := top["state"].(map[string]any)
	for k := range state {
		out[k] = true
	}
	return out
}

// treeOf is body decoded as generic JSON, nil when it is not JSON.
func treeOf(body []byte) any {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return nil
	}
	return v
}

// treeOfResponse is resp's body as generic JSON, decoded once per
// response and shared with the schema check: read it, never change it.
func treeOfResponse(resp *driver.Response) any {
	v, err := resp.Tree()
	if err != nil {
		return nil
	}
	return v
}
