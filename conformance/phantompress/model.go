package phantompress

import (
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// Model is the runner's picture of one run, synced only from what the
// target showed: the last state, the documents read and the testimonies
// taken in the current case, and every settlement revealed so far. It never
// sees a target's hidden truth; it predicts each action's outcome from the
// seed's rules applied to what it observed.
type Model struct {
	State       engine.StateView
	Docs        map[string]engine.Document
	Testimonies map[string]engine.Testimony
	Cases       []engine.CaseView
	Settlements []engine.Settlement
	MaxTrust    int
}

// NewModel starts a model from a run's first state.
func NewModel(s engine.StateView) *Model {
	m := &Model{State: s, MaxTrust: s.Trust}
	m.resetCase()
	m.Cases = append(m.Cases, s.Case)
	return m
}

func (m *Model) resetCase() {
	m.Docs = map[string]engine.Document{}
	m.Testimonies = map[string]engine.Testimony{}
}

// Expect is what the model predicts for one action.
type Expect struct {
	HTTP     int    // 200, or 409 for a finished run / spent budget
	Rule409  string // the rule a wrong 409 answer breaks
	OK       bool
	Rule     string // the rule deciding ok
	Turns    int    // turns spent
	APCost   int
	Rejected bool
	Record   *engine.Answer
	Publish  bool
}

func refused(rule string) Expect { return Expect{HTTP: 200, OK: false, Rule: rule} }

// Predict says what action with arg must do from the observed state.
func (m *Model) Predict(action, arg string) Expect {
	s := m.State
	switch {
	case action == engine.ActStatus:
		return Expect{HTTP: 200, OK: true, Rule: "PP-STATUS"}
	case s.Status != engine.StatusActive:
		return Expect{HTTP: 409, Rule409: "PP-ERR-409-FINISHED"}
	case engine.ConsumesTurn(action) && s.Turn >= s.BudgetTurns:
		return Expect{HTTP: 409, Rule409: "PP-RUN-BUDGET-SPENT"}
	}
	switch action {
	case engine.ActLook:
		return Expect{HTTP: 200, OK: true, Rule: "PP-ACTION-TURN", Turns: 1}
	case engine.ActRead:
		return m.predictRead(arg)
	case engine.ActInterview:
		return m.predictInterview(arg)
	case engine.ActAnswer:
		return m.predictAnswer(arg)
	case engine.ActPublish:
		for _, q := range s.Case.Questions {
			if _, ok := s.Answers[q.ID]; !ok {
				return refused("PP-PUBLISH-ALL-ANSWERED")
			}
		}
		return Expect{HTTP: 200, OK: true, Rule: "PP-PUBLISH-ALL-ANSWERED", Turns: 1, Publish: true}
	}
	switch n := utf8.RuneCountInString(arg); {
	case n == 0:
		return refused("PP-ACTION-OK-FALSE")
	case n > engine.MaxCommentRunes:
		return refused("PP-COMMENT-LENGTH")
	case s.CommentsLeft <= 0:
		return refused("PP-COMMENT")
	}
	return Expect{HTTP: 200, OK: true, Rule: "PP-COMMENT"}
}

func (m *Model) headline(id string) (engine.Headline, bool) {
	for _, d := range m.State.Case.Documents {
		if d.ID == id {
			return d, true
		}
	}
	return engine.Headline{}, false
}

func (m *Model) topic(src string) (engine.TopicView, bool) {
	for _, w := range m.State.Case.Witnesses {
		for _, t := range w.Topics {
			if t.Source == src {
				return t, true
			}
		}
	}
	return engine.TopicView{}, false
}

func (m *Model) predictRead(arg string) Expect {
	f := engine.Fields(arg)
	if len(f) != 1 {
		return refused("PP-ACTION-OK-FALSE")
	}
	h, ok := m.headline(f[0])
	switch {
	case !ok:
		return refused("PP-ACTION-OK-FALSE")
	case h.Read:
		return refused("PP-AP-INSUFFICIENT")
	case m.State.AP < engine.APRead:
		return refused("PP-AP-INSUFFICIENT")
	}
	return Expect{HTTP: 200, OK: true, Rule: "PP-AP-COST", Turns: 1, APCost: engine.APRead}
}

func (m *Model) predictInterview(arg string) Expect {
	w, t, ok := engine.ParseInterview(arg)
	if !ok {
		return refused("PP-ACTION-OK-FALSE")
	}
	tv, ok := m.topic(w + ":" + t)
	switch {
	case !ok:
		return refused("PP-ACTION-OK-FALSE")
	case tv.Interviewed:
		return refused("PP-AP-INSUFFICIENT")
	case m.State.AP < engine.APInterview:
		return refused("PP-AP-INSUFFICIENT")
	}
	return Expect{HTTP: 200, OK: true, Rule: "PP-AP-COST", Turns: 1, APCost: engine.APInterview}
}

// observedSource returns what the model saw of an acquired source.
func (m *Model) observedSource(id string) (engine.Source, bool) {
	if d, ok := m.Docs[id]; ok {
		return d.Source(), true
	}
	if t, ok := m.Testimonies[id]; ok {
		return t.AsSource(), true
	}
	return engine.Source{}, false
}

func (m *Model) predictAnswer(arg string) Expect {
	a, err := engine.ParseAnswer(arg)
	if err != nil {
		return refused("PP-ANSWER-GRAMMAR")
	}
	var q *engine.Question
	for i := range m.State.Case.Questions {
		if m.State.Case.Questions[i].ID == a.Question {
			q = &m.State.Case.Questions[i]
		}
	}
	if q == nil {
		return refused("PP-ANSWER-GRAMMAR")
	}
	var cited []engine.Source
	for _, id := range a.Sources {
		h, isDoc := m.headline(id)
		t, isTopic := m.topic(id)
		switch {
		case !isDoc && !isTopic:
			return refused("PP-ANSWER-MALFORMED")
		case isDoc && !h.Read, isTopic && !t.Interviewed:
			return refused("PP-ANSWER-MALFORMED")
		}
		src, ok := m.observedSource(id)
		if !ok {
			// Acquired by the target's account but never shown to us.
			return Expect{HTTP: -1}
		}
		cited = append(cited, src)
	}
	switch {
	case a.Confidence == engine.Assert && m.State.Rejections[q.ID] >= engine.MaxRejections:
		return refused("PP-ANSWER-HEDGE-ONLY")
	case a.NeedsSource() && len(cited) == 0:
		return refused("PP-ANSWER-MALFORMED")
	}
	if a.NeedsSource() {
		for _, s := range cited {
			if !engine.Backs(s, q.Claim, a.Verdict) {
				return Expect{HTTP: 200, OK: true, Rule: "PP-ANSWER-REJECT", Turns: 1, Rejected: true, Record: &a}
			}
		}
		return Expect{HTTP: 200, OK: true, Rule: "PP-ANSWER-ASSERT-SOURCES", Turns: 1, Record: &a}
	}
	rule := "PP-ANSWER-HEDGE-NO-SOURCE"
	if a.Confidence == engine.Assert {
		rule = "PP-ANSWER-UNVERIFIABLE-NO-SOURCE"
	}
	return Expect{HTTP: 200, OK: true, Rule: rule, Turns: 1, Record: &a}
}

// Check compares the target's answer to the prediction and, when they agree,
// absorbs it. status is the HTTP status; r is nil unless it was 200.
func (m *Model) Check(action, arg string, e Expect, status int, r *actionResponse) error {
	if e.HTTP == -1 {
		if r != nil {
			m.absorb(r)
		}
		return nil
	}
	if status != e.HTTP {
		rule := e.Rule409
		if rule == "" {
			rule = "PP-RUN-BUDGET-SPENT"
			if m.State.Status != engine.StatusActive {
				rule = "PP-ERR-409-FINISHED"
			}
		}
		return verdict.Failf(rule, e.HTTP, status, "%s %q from turn %d of %d, status %s", action, arg, m.State.Turn, m.State.BudgetTurns, m.State.Status)
	}
	if r == nil {
		return nil
	}
	if err := m.checkBasics(action, arg, e, r); err != nil {
		return err
	}
	if e.Publish {
		if err := m.checkPublish(r); err != nil {
			return err
		}
	}
	m.absorb(r)
	return m.checkAvailable(r.AvailableActions)
}

// checkBasics checks ok, turn, AP, answers and rejections.
func (m *Model) checkBasics(action, arg string, e Expect, r *actionResponse) error {
	before, after := m.State, r.State
	switch {
	case r.OK != e.OK:
		rule := e.Rule
		if e.Rejected || (e.Record != nil && e.Record.NeedsSource()) {
			rule = "PP-ANSWER-BACKING"
			if e.Rejected {
				rule = "PP-ANSWER-REJECT"
			}
		}
		return verdict.Failf(rule, fmt.Sprintf("ok:%v", e.OK), fmt.Sprintf("ok:%v (%s %s)", r.OK, r.Code, r.Error), "%s %q", action, arg)
	case r.Turn != after.Turn:
		return verdict.Failf("PP-ACTION-TURN", after.Turn, r.Turn, "the response's turn differs from state.turn")
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
		if !e.OK {
			rule = "PP-ACTION-OK-FALSE"
		}
		return verdict.Failf(rule, before.AP-e.APCost, after.AP, "AP after %s %q", action, arg)
	case !e.Publish && after.Trust != before.Trust:
		return verdict.Failf("PP-ACTION-OK-FALSE", before.Trust, after.Trust, "trust changed outside publish")
	case after.Trust > engine.TrustMax:
		return verdict.Failf("PP-TRUST-INIT", "trust <= 100", after.Trust, "")
	case after.Score != engine.Score(after.Points, after.Trust, after.Turn):
		return verdict.Failf("PP-SCORE", engine.Score(after.Points, after.Trust, after.Turn), after.Score,
			"points %d, trust %d, turns %d", after.Points, after.Trust, after.Turn)
	}
	if e.Publish {
		return nil
	}
	return m.checkAnswers(e, r)
}

// checkAnswers checks the recorded answers and the rejection counts.
func (m *Model) checkAnswers(e Expect, r *actionResponse) error {
	before, after := m.State, r.State
	want := map[string]engine.Answer{}
	for k, v := range before.Answers {
		want[k] = v
	}
	rej := map[string]int{}
	for k, v := range before.Rejections {
		rej[k] = v
	}
	rule := "PP-ACTION-OK-FALSE"
	if e.OK && e.Record != nil {
		rule = e.Rule
		if e.Rejected {
			rej[e.Record.Question]++
		} else {
			want[e.Record.Question] = *e.Record
			rule = "PP-ANSWER-OVERWRITE"
		}
	}
	for q, a := range want {
		got, ok := after.Answers[q]
		if !ok || got.Verdict != a.Verdict || got.Confidence != a.Confidence || !sameSet(got.Sources, a.Sources) {
			return verdict.Failf(rule, a, got, "answer of %s", q)
		}
	}
	if len(after.Answers) != len(want) {
		return verdict.Failf(rule, len(want), len(after.Answers), "number of recorded answers")
	}
	for q, n := range rej {
		if after.Rejections[q] != n {
			return verdict.Failf("PP-ANSWER-REJECT", n, after.Rejections[q], "rejections of %s", q)
		}
	}
	return nil
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

// absorb learns the documents, testimonies and settlements r shows.
func (m *Model) absorb(r *actionResponse) {
	for _, ev := range r.Events {
		switch {
		case ev.Document != nil:
			m.Docs[ev.Document.ID] = *ev.Document
		case ev.Testimony != nil:
			m.Testimonies[ev.Testimony.Source] = *ev.Testimony
		case ev.Settlement != nil:
			m.Settlements = append(m.Settlements, *ev.Settlement)
		}
	}
	if r.State.Case.CaseNo != m.State.Case.CaseNo {
		m.resetCase()
		m.Cases = append(m.Cases, r.State.Case)
	}
	if r.State.Trust > m.MaxTrust {
		m.MaxTrust = r.State.Trust
	}
	m.State = r.State
}

// Expected lists the actions valid in s, as the model judges them.
func Expected(s engine.StateView) []string {
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
		if unread && s.AP >= engine.APRead {
			out = append(out, engine.ActRead)
		}
		if unheard && s.AP >= engine.APInterview {
			out = append(out, engine.ActInterview)
		}
		out = append(out, engine.ActAnswer)
		if len(s.Answers) == len(s.Case.Questions) {
			out = append(out, engine.ActPublish)
		}
	}
	out = append(out, engine.ActStatus)
	if s.CommentsLeft > 0 {
		out = append(out, engine.ActComment)
	}
	return out
}

func (m *Model) checkAvailable(got []string) error {
	want := Expected(m.State)
	if !sameSet(want, got) {
		return verdict.Failf("PP-AVAILABLE-ACTIONS", want, got, "turn %d, AP %d, %d/%d answered", m.State.Turn, m.State.AP,
			len(m.State.Answers), len(m.State.Case.Questions))
	}
	return nil
}
