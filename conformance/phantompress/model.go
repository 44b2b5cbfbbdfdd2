package phantompress

import (
	"strings"
	"unicode/utf8"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// Model is the runner's picture of one run, synced only from what the
// target showed: the last state, the documents read and the testimonies
// taken in the current case, and every settlement revealed so far. It never
// sees a target's hidden truth; it predicts each action's outcome from the
// seed's rules applied to what it observed. Answers and rejections are
// counted from the model's own accepted predictions, so a target that shows
// neither (the seed defines no such state fields) is still checked.
type Model struct {
	State       engine.StateView
	Docs        map[string]engine.Document
	Testimonies map[string]engine.Testimony
	Cases       []engine.CaseView
	Settlements []engine.Settlement
	MaxTrust    int
	// Answers and Rejections of the current case, as the model counted them.
	Answers    map[string]engine.Answer
	Rejections map[string]int
	// Stood lists the questions whose recorded answer a later rejection
	// left standing (PP-ANSWER-REJECT: a rejected answer is not recorded).
	Stood map[string]bool
	// Seen are the bodies the target showed during the current case, kept
	// for the after-the-fact hiding check at publish (PP-HIDE-BEFORE-PUBLISH).
	Seen []seenBody
	// Said lists, per question, every verdict the agent submitted this case.
	Said map[string]map[engine.Verdict]bool
	// Shows lists the state keys the target's last answer held.
	Shows map[string]bool
	// Unsure is set when the target accepted an answer the model could not
	// book (a cited source it never saw in the kit's shape) this case.
	Unsure bool
	// ExtendedFrom is the budget the run had before the extension the
	// scenario made (0: none), so a run that still stops there is judged
	// under the extension's rule.
	ExtendedFrom int
	// Published counts the publishes the target accepted.
	Published int
	// Note receives soft findings (REFERENCE departures, and further
	// problems beside a failure); without it they wait in Pending.
	Note    func(error)
	Pending []error
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
	m.Answers = map[string]engine.Answer{}
	m.Rejections = map[string]int{}
	m.Stood = map[string]bool{}
	m.Seen = nil
	m.Said = map[string]map[engine.Verdict]bool{}
	m.Unsure = false
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
	// Alt400: a 400 answer is as valid as ok:false (an action missing its
	// required arg: the seed allows either reading).
	Alt400 bool
	// HedgeOnly: a refused assertion on a hedge-only question; the seed does
	// not say whether the refusal costs a turn, so an ok:true refusal that
	// spends one turn and records nothing is accepted too.
	HedgeOnly bool
	// AnyBacks: a predicted rejection where at least one cited source backs
	// the assertion (only the kit's all-sources choice rejects it).
	AnyBacks bool
	// Rule409Past names the rule a 409 breaks where 200 was predicted: a
	// turn past the budget an extension raised (PP-RUN-EXTEND-LOGGED), or
	// a turn still under the budget (PP-RUN-BUDGET-SPENT).
	Rule409Past string
}

func refused(rule string) Expect { return Expect{HTTP: 200, OK: false, Rule: rule} }

// needsArg lists the actions whose arg the seed marks required (必須).
var needsArg = map[string]bool{engine.ActRead: true, engine.ActInterview: true, engine.ActAnswer: true, engine.ActComment: true}

// Predict says what action with arg must do from the observed state; a
// turn the scenario's extension made room for is the extension's to give
// (PP-RUN-EXTEND-LOGGED: extending raises the budget), and any other
// turn-spending action refused 409 while turns are left under the budget
// breaks the budget's own bound (PP-RUN-BUDGET-SPENT: 409 once turns
// reach the budget, not before), whatever rule decides its outcome.
func (m *Model) Predict(action, arg string) Expect {
	e := m.predict(action, arg)
	switch {
	case e.HTTP != 200 || !engine.ConsumesTurn(action):
	case m.ExtendedFrom > 0 && m.State.Turn >= m.ExtendedFrom:
		e.Rule409Past = "PP-RUN-EXTEND-LOGGED"
	default:
		e.Rule409Past = "PP-RUN-BUDGET-SPENT"
	}
	return e
}

// predict is Predict before the extension's rule is named.
func (m *Model) predict(action, arg string) Expect {
	s := m.State
	switch {
	case action == engine.ActStatus:
		return Expect{HTTP: 200, OK: true, Rule: "PP-STATUS"}
	case s.Status != engine.StatusActive:
		return Expect{HTTP: 409, Rule409: "PP-ERR-409-FINISHED"}
	case engine.ConsumesTurn(action) && s.Turn >= s.BudgetTurns:
		return Expect{HTTP: 409, Rule409: "PP-RUN-BUDGET-SPENT"}
	case needsArg[action] && strings.TrimSpace(arg) == "":
		e := refused("PP-ACTION-ARG-REQUIRED")
		e.Alt400 = true
		return e
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
		return m.predictPublish()
	}
	switch n := utf8.RuneCountInString(arg); {
	case n > seedMaxCommentRunes:
		return refused("PP-COMMENT-LENGTH")
	case s.CommentsLeft <= 0 && m.commentsCounted():
		return refused("PP-COMMENT")
	case len(arg) > seedMaxCommentRunes:
		// <text max 500> names no unit: counting characters, not bytes, is
		// the kit's reading (PP-COMMENT-CHARS).
		return Expect{HTTP: 200, OK: true, Rule: "PP-COMMENT-CHARS"}
	case n == seedMaxCommentRunes:
		// A comment of exactly the limit is the length rule's own bound:
		// refusing it is a limit checked with < (PP-COMMENT-LENGTH).
		return Expect{HTTP: 200, OK: true, Rule: "PP-COMMENT-LENGTH"}
	}
	return Expect{HTTP: 200, OK: true, Rule: "PP-COMMENT"}
}

// predictPublish predicts a publish: refused until every question is
// answered, otherwise accepted (PP-AP-EXHAUSTED when the AP is spent).
func (m *Model) predictPublish() Expect {
	s := m.State
	for _, q := range s.Case.Questions {
		if _, ok := m.Answers[q.ID]; !ok {
			return refused("PP-PUBLISH-ALL-ANSWERED")
		}
	}
	rule := "PP-PUBLISH-ALL-ANSWERED"
	switch {
	case s.AP < seedAPRead:
		rule = "PP-AP-EXHAUSTED"
	case len(m.Stood) > 0:
		// Every question answered, one of them rejected since: a refusal
		// here is the rejection dropping the answer it had to leave alone.
		rule = "PP-ANSWER-REJECT"
	}
	return Expect{HTTP: 200, OK: true, Rule: rule, Turns: 1, Publish: true}
}

// commentsCounted reports whether the target shows the kit's comments_left
// (the seed only says 100 per run; the model cannot count what it cannot see
// of comments made before it joined, so it trusts the field when present).
func (m *Model) commentsCounted() bool { return m.Shows == nil || m.Shows["comments_left"] }

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
		return refused("PP-READ-ONCE")
	case m.State.AP < seedAPRead:
		return refused("PP-AP-INSUFFICIENT")
	}
	return Expect{HTTP: 200, OK: true, Rule: "PP-AP-COST", Turns: 1, APCost: seedAPRead}
}

func (m *Model) predictInterview(arg string) Expect {
	w, t, ok := engine.ParseInterview(arg)
	if !ok {
		return refused("PP-INTERVIEW-GRAMMAR")
	}
	tv, ok := m.topic(w + ":" + t)
	switch {
	case !ok:
		return refused("PP-ACTION-OK-FALSE")
	case tv.Interviewed:
		return refused("PP-READ-ONCE")
	case m.State.AP < seedAPInterview:
		return refused("PP-AP-INSUFFICIENT")
	}
	return Expect{HTTP: 200, OK: true, Rule: "PP-AP-COST", Turns: 1, APCost: seedAPInterview}
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

// usesAlias reports whether an answer argument spells its verdict or
// confidence in English.
func usesAlias(arg string) bool {
	f := engine.Fields(arg)
	if len(f) < 3 {
		return false
	}
	return !strings.ContainsAny(f[1], "真偽裏") || (f[2] != string(engine.Assert) && f[2] != string(engine.Hedge))
}

// predictAnswer predicts an answer action: refusals of its grammar, its
// sources and hedge-only questions, a rejection when a cited source does not
// back the verdict, and otherwise the rule the accepted answer exercises.
func (m *Model) predictAnswer(arg string) Expect {
	a, err := engine.ParseAnswer(arg)
	if err != nil {
		return refused("PP-ANSWER-GRAMMAR")
	}
	q := m.questionByID(a.Question)
	if q == nil {
		// A well-formed answer to a question the case lacks is the seed's
		// malformed input of an unknown ID (存在しないID), not a grammar
		// fault: PP-ANSWER-MALFORMED.
		return refused("PP-ANSWER-MALFORMED")
	}
	cited, stop := m.citedSources(a.Sources)
	if stop != nil && stop.HTTP == 200 && !a.NeedsSource() {
		// The seed's malformed list is about assertions; that a hedge's or
		// an unverifiable assertion's sources must be acquired too is the
		// kit's reading (PP-ANSWER-BACKING).
		stop.Rule = "PP-ANSWER-BACKING"
	}
	if stop != nil {
		return *stop
	}
	switch {
	case a.Confidence == engine.Assert && m.Rejections[q.ID] >= seedMaxRejections:
		e := refused("PP-ANSWER-HEDGE-ONLY")
		e.HedgeOnly, e.Record = true, &a
		return e
	case a.NeedsSource() && len(cited) == 0:
		return refused("PP-ANSWER-MALFORMED")
	}
	if a.NeedsSource() {
		if backing := countBacking(cited, q.Claim, a.Verdict); backing < len(cited) {
			return Expect{HTTP: 200, OK: true, Rule: "PP-ANSWER-REJECT", Turns: 1, Rejected: true, Record: &a, AnyBacks: backing > 0}
		}
	}
	return Expect{HTTP: 200, OK: true, Rule: m.answerRule(arg, a, q.ID), Turns: 1, Record: &a}
}

// questionByID finds a question of the current case (the last one with
// that ID), or nil.
func (m *Model) questionByID(id string) *engine.Question {
	var q *engine.Question
	for i := range m.State.Case.Questions {
		if m.State.Case.Questions[i].ID == id {
			q = &m.State.Case.Questions[i]
		}
	}
	return q
}

// citedSources returns what the model saw of each cited source. A source
// the case lacks or the agent has not acquired stops the prediction with a
// refusal (PP-ANSWER-MALFORMED); one acquired but never shown to the model
// stops it with an unknown outcome.
func (m *Model) citedSources(ids []string) ([]engine.Source, *Expect) {
	var cited []engine.Source
	for _, id := range ids {
		h, isDoc := m.headline(id)
		t, isTopic := m.topic(id)
		switch {
		case !isDoc && !isTopic:
			e := refused("PP-ANSWER-MALFORMED")
			return nil, &e
		case isDoc && !h.Read, isTopic && !t.Interviewed:
			e := refused("PP-ANSWER-MALFORMED")
			return nil, &e
		}
		src, ok := m.observedSource(id)
		if !ok {
			// Acquired by the target's account but never shown to us.
			return nil, &Expect{HTTP: -1}
		}
		cited = append(cited, src)
	}
	return cited, nil
}

// countBacking counts the cited sources that back verdict v on claim.
func countBacking(cited []engine.Source, claim string, v engine.Verdict) int {
	backing := 0
	for _, s := range cited {
		if engine.Backs(s, claim, v) {
			backing++
		}
	}
	return backing
}

// answerRule names the rule an accepted answer exercises: the sources or
// their absence by confidence, overridden by aliases, separators (a comma,
// or two sources or more in whichever separator: a list split on spaces
// only is a separator slip too, PP-ANSWER-SEPARATORS), an overwrite or
// exhausted AP.
func (m *Model) answerRule(arg string, a engine.Answer, qID string) string {
	rule := "PP-ANSWER-HEDGE-NO-SOURCE"
	switch {
	case a.NeedsSource():
		rule = "PP-ANSWER-ASSERT-SOURCES"
	case a.Confidence == engine.Assert:
		rule = "PP-ANSWER-UNVERIFIABLE-NO-SOURCE"
	}
	_, had := m.Answers[qID]
	switch {
	case usesAlias(arg):
		rule = "PP-ANSWER-ALIASES"
	case strings.Contains(arg, ",") || len(engine.Fields(arg)) > 4: // two sources or more: their separator is read
		rule = "PP-ANSWER-SEPARATORS"
	case had:
		rule = "PP-ANSWER-OVERWRITE"
	case m.State.AP < seedAPRead && !a.NeedsSource():
		rule = "PP-AP-EXHAUSTED"
	}
	return rule
}

// Check compares the target's answer to the prediction and, when they agree,
// absorbs it. status is the HTTP status; r is nil unless it was 200.
func (m *Model) Check(action, arg string, e Expect, status int, r *actionResponse) error {
	if e.HTTP == -1 {
		m.Unsure = true
		if r != nil {
			m.bookShown(arg, r)
			m.absorb(r)
		}
		return nil
	}
	if (e.Alt400 || (e.HTTP == 200 && !e.OK)) && status == 400 {
		// The seed gives no status for ok:false; 400 (ボディ不正 /
		// バリデーション失敗) is as faithful a refusal as 200 ok:false, and
		// 200 is the kit's choice (PP-REFUSAL-CODES).
		if !e.Alt400 {
			m.note(verdict.Failf("PP-REFUSAL-CODES", "200 with ok:false", status, "%s %q refused", action, arg))
		}
		return nil
	}
	if status != e.HTTP {
		rule := e.Rule
		if e.HTTP == 409 || rule == "" {
			rule = e.Rule409
		}
		if status == 409 && e.Rule409Past != "" {
			rule = e.Rule409Past
		}
		return verdict.Failf(rule, e.HTTP, status, "%s %q from turn %d of %d, status %s", action, arg, m.State.Turn, m.State.BudgetTurns, m.State.Status)
	}
	if r == nil {
		return nil
	}
	if r.Narrative != "" && !hasJapanese(r.Narrative) {
		return verdict.Failf("PP-NARRATIVE-JA", "a Japanese narrative", r.Narrative, "%s %q", action, arg)
	}
	if e.HedgeOnly && r.OK {
		if err := m.checkHedgeOnlyTurn(e, r); err != nil {
			return err
		}
		m.absorb(r)
		return m.checkAvailable(r.AvailableActions)
	}
	if err := m.checkBasics(action, arg, e, r); err != nil {
		return err
	}
	if e.Publish {
		m.Published++
		if err := m.checkPublish(r); err != nil {
			return err
		}
	}
	m.learn(e)
	m.absorb(r)
	return m.checkAvailable(r.AvailableActions)
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
	m.Shows = r.has
}
