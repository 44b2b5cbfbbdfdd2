package engine

import (
	"errors"
	"fmt"
	"sort"
	"unicode/utf8"
)

// Limits and costs from the seed.
const (
	TurnLimit       = 200 // PP-RUN-TURN-LIMIT
	APRead          = 2   // PP-AP-COST
	APInterview     = 3   // PP-AP-COST
	MaxRejections   = 3   // PP-ANSWER-HEDGE-ONLY
	MaxComments     = 100 // PP-COMMENT
	MaxCommentRunes = 500 // PP-COMMENT-LENGTH, counted in characters (PP-COMMENT-CHARS)
)

// Run statuses. "active" is the seed client's running status.
const (
	StatusActive  = "active"
	StatusFired   = "fired"
	StatusVictory = "victory"
)

// Actions of the seed's action_list.
const (
	ActLook      = "look"
	ActRead      = "read"
	ActInterview = "interview"
	ActAnswer    = "answer"
	ActPublish   = "publish"
	ActStatus    = "status"
	ActComment   = "comment"
)

// Errors that are not game moves but refusals the server maps to 4xx.
var (
	ErrUnknownAction = errors.New("unknown action")
	ErrFinished      = errors.New("the run has ended")
	ErrBudgetSpent   = errors.New("the turn budget is spent; extend it to go on")
	ErrBadExtend     = errors.New("turns must be a positive integer")
	ErrTurnLimit     = fmt.Errorf("the turn budget cannot exceed the turn limit of %d", TurnLimit)
)

// KnownAction reports whether a is in the action list.
func KnownAction(a string) bool {
	switch a {
	case ActLook, ActRead, ActInterview, ActAnswer, ActPublish, ActStatus, ActComment:
		return true
	}
	return false
}

// ConsumesTurn reports whether a successful a spends a turn: status and
// comment never do (PP-STATUS, PP-COMMENT).
// look, read, interview, answer and publish spend a turn (PP-ACTION-TURN).
func ConsumesTurn(a string) bool { return a != ActStatus && a != ActComment }

// Run is one game in progress: the four cases, the trainee's resources and
// the current case's progress.
type Run struct {
	ID       string
	Seeded   bool
	Budget   int
	Turn     int
	Trust    int
	Points   int
	Status   string
	Cases    []*Case
	CaseIdx  int
	AP       int
	Cleared  int
	Comments int
	Outcomes []Settlement

	read        map[string]bool
	interviewed map[string]bool
	answers     map[string]Answer
	rejections  map[string]int
}

// NewRun starts a run over the generated cases with a turn budget.
func NewRun(id string, budget int, cases []*Case, seeded bool) *Run {
	r := &Run{ID: id, Seeded: seeded, Budget: budget, Trust: TrustInit, Status: StatusActive, Cases: cases}
	r.openCase(0)
	return r
}

// openCase starts case i with a fresh AP allowance: AP never carries over
// (PP-AP-NO-CARRY).
func (r *Run) openCase(i int) {
	r.CaseIdx = i
	r.AP = r.Cases[i].AP
	r.read = map[string]bool{}
	r.interviewed = map[string]bool{}
	r.answers = map[string]Answer{}
	r.rejections = map[string]int{}
}

// Case returns the current case.
func (r *Run) Case() *Case { return r.Cases[r.CaseIdx] }

// Finished reports whether the run has ended (fired or victory).
func (r *Run) Finished() bool { return r.Status != StatusActive }

// Score is the run's current score (PP-SCORE).
func (r *Run) Score() int { return Score(r.Points, r.Trust, r.Turn) }

// Event is one thing that happened during an action.
type Event struct {
	Type       string      `json:"type"`
	Turn       int         `json:"turn"`
	Text       string      `json:"text,omitempty"`
	Question   string      `json:"question,omitempty"`
	Rejections int         `json:"rejections,omitempty"`
	Document   *Document   `json:"document,omitempty"`
	Testimony  *Testimony  `json:"testimony,omitempty"`
	Answer     *Answer     `json:"answer,omitempty"`
	Case       *CaseView   `json:"case,omitempty"`
	Settlement *Settlement `json:"settlement,omitempty"`
}

// Result is the outcome of one action. OK false means an invalid move that
// changed nothing and spent no turn.
type Result struct {
	OK        bool
	Code      string
	Error     string
	Narrative string
	Events    []Event
}

// ok:false spends no turn and carries a code and an error (PP-ACTION-OK-FALSE, PP-REFUSAL-CODES).
func refuse(code, format string, args ...any) Result {
	msg := fmt.Sprintf(format, args...)
	return Result{OK: false, Code: code, Error: msg, Narrative: "デスク：「" + msg + "」", Events: []Event{}}
}

// Act performs one action. Refusals that are not game moves come back as
// errors: ErrUnknownAction, ErrFinished and ErrBudgetSpent.
func (r *Run) Act(action, arg string) (Result, error) {
	switch {
	case !KnownAction(action):
		return Result{}, ErrUnknownAction
	case action == ActStatus:
		return Result{OK: true, Narrative: r.statusLine(), Events: []Event{}}, nil
	case r.Finished():
		return Result{}, ErrFinished // PP-ERR-409-FINISHED
	case ConsumesTurn(action) && r.Turn >= r.Budget:
		return Result{}, ErrBudgetSpent // PP-RUN-BUDGET-SPENT
	}
	switch action {
	case ActLook:
		return r.look(), nil
	case ActRead:
		return r.readDoc(arg), nil
	case ActInterview:
		return r.interview(arg), nil
	case ActAnswer:
		return r.answer(arg), nil
	case ActPublish:
		return r.publish(), nil
	}
	return r.comment(arg), nil
}

func (r *Run) statusLine() string {
	return fmt.Sprintf("案件%d／ターン%d（予算%d）／信用度%d／残AP %d／得点%d", r.Case().No, r.Turn, r.Budget, r.Trust, r.AP, r.Points)
}

// tick spends one turn and returns it.
func (r *Run) tick() int {
	r.Turn++
	return r.Turn
}

// look costs no AP (PP-AP-ZERO); narratives are Japanese (PP-NARRATIVE-JA).
func (r *Run) look() Result {
	t := r.tick()
	v := r.CaseView()
	return Result{OK: true, Narrative: fmt.Sprintf("デスクの校閲リスト：案件%d「%s」。%s 残AP %d。", v.CaseNo, v.Title, v.Brief, r.AP),
		Events: []Event{{Type: "look", Turn: t, Case: &v}}}
}

func (r *Run) document(id string) (Document, bool) {
	for _, d := range r.Case().Documents {
		if d.ID == id {
			return d, true
		}
	}
	return Document{}, false
}

// A read document comes back with its full text (PP-READ-TEXT) as a document
// event (PP-EVENTS); a second read is
// refused (PP-READ-ONCE), and so is one AP cannot pay for (PP-AP-INSUFFICIENT).
func (r *Run) readDoc(arg string) Result {
	f := Fields(arg)
	if len(f) != 1 {
		return refuse("missing_arg", "read には資料IDを1つ指定してください")
	}
	d, ok := r.document(f[0])
	switch {
	case !ok:
		return refuse("unknown_document", "資料 %s は存在しません", f[0])
	case r.read[d.ID]:
		return refuse("already_read", "資料 %s は既に読んでいます", d.ID)
	case r.AP < APRead:
		return refuse("no_ap", "AP が足りません（必要 %d、残り %d）", APRead, r.AP)
	}
	r.AP -= APRead
	r.read[d.ID] = true
	t := r.tick()
	return Result{OK: true, Narrative: fmt.Sprintf("%s（%s）を読んだ。%s", d.Title, d.ID, d.Text),
		Events: []Event{{Type: "document", Turn: t, Document: &d}}}
}

func (r *Run) topic(wid, tid string) (Witness, Topic, bool, bool) {
	for _, w := range r.Case().Witnesses {
		if w.ID != wid {
			continue
		}
		for _, t := range w.Topics {
			if t.ID == tid {
				return w, t, true, true
			}
		}
		return w, Topic{}, true, false
	}
	return Witness{}, Topic{}, false, false
}

// The argument is <証人ID> <トピックID> (PP-INTERVIEW-GRAMMAR).
func (r *Run) interview(arg string) Result {
	wid, tid, ok := ParseInterview(arg)
	if !ok {
		return refuse("missing_arg", "interview には「証人ID トピックID」を指定してください")
	}
	w, t, wok, tok := r.topic(wid, tid)
	src := wid + ":" + tid
	switch {
	case !wok:
		return refuse("unknown_witness", "証人 %s はいません", wid)
	case !tok:
		return refuse("unknown_topic", "証人 %s にトピック %s はありません", wid, tid)
	case r.interviewed[src]:
		return refuse("already_interviewed", "%s は取材済みです", src)
	case r.AP < APInterview:
		return refuse("no_ap", "AP が足りません（必要 %d、残り %d）", APInterview, r.AP)
	}
	r.AP -= APInterview
	r.interviewed[src] = true
	tm := t.Testimony
	turn := r.tick()
	return Result{OK: true, Narrative: fmt.Sprintf("%sに「%s」を尋ねた。「%s」", w.Name, t.Title, tm.Text),
		Events: []Event{{Type: "testimony", Turn: turn, Testimony: &tm}}}
}

// acquiredSource returns the law's view of a source ID the trainee has read
// or interviewed; known reports whether the ID exists in the case at all.
func (r *Run) acquiredSource(id string) (src Source, known, acquired bool) {
	if d, ok := r.document(id); ok {
		return d.Source(), true, r.read[id]
	}
	wid, tid, ok := ParseInterview(id)
	if !ok || len(Fields(id)) != 1 {
		return Source{}, false, false
	}
	if _, t, _, tok := r.topic(wid, tid); tok {
		return t.Testimony.AsSource(), true, r.interviewed[wid+":"+tid]
	}
	return Source{}, false, false
}

func (r *Run) question(id string) (Question, bool) {
	for _, q := range r.Case().Questions {
		if q.ID == id {
			return q, true
		}
	}
	return Question{}, false
}

func (r *Run) answer(arg string) Result {
	a, err := ParseAnswer(arg) // PP-ANSWER-GRAMMAR
	if err != nil {
		return refuse("bad_answer", "%v", err)
	}
	q, ok := r.question(a.Question)
	if !ok {
		return refuse("unknown_question", "設問 %s はありません", a.Question)
	}
	var cited []Source
	for _, id := range a.Sources {
		src, known, acquired := r.acquiredSource(id)
		switch {
		case !known:
			return refuse("unknown_source", "出典 %s は存在しません", id) // PP-ANSWER-MALFORMED
		case !acquired:
			return refuse("source_not_acquired", "出典 %s はまだ入手していません", id) // PP-ANSWER-MALFORMED
		}
		cited = append(cited, src)
	}
	switch {
	case a.Confidence == Assert && r.rejections[q.ID] >= MaxRejections:
		return refuse("hedge_only", "設問 %s は突き返しが %d 回に達したため、留保のみ受け付けます", q.ID, MaxRejections) // PP-ANSWER-HEDGE-ONLY
	case a.NeedsSource() && len(cited) == 0:
		return refuse("source_required", "断言には出典が必要です") // PP-ANSWER-ASSERT-SOURCES
	}
	if a.NeedsSource() {
		for _, s := range cited {
			if !Backs(s, q.Claim, a.Verdict) {
				return r.reject(q, s.ID) // PP-ANSWER-REJECT
			}
		}
	}
	r.answers[q.ID] = a // PP-ANSWER-OVERWRITE
	t := r.tick()
	return Result{OK: true, Narrative: fmt.Sprintf("設問 %s に「%s・%s」と回答した（発行まで上書き可）。", q.ID, a.Verdict, a.Confidence),
		Events: []Event{{Type: "answer_recorded", Turn: t, Question: q.ID, Answer: &a}}}
}

// reject spends a turn on an assertion whose source does not back it; the
// answer is not recorded.
func (r *Run) reject(q Question, src string) Result {
	r.rejections[q.ID]++
	n := r.rejections[q.ID]
	t := r.tick()
	msg := fmt.Sprintf("デスク：「出典 %s は設問 %s の断言の裏付けにならない。突き返す（%d/%d）」", src, q.ID, n, MaxRejections)
	return Result{OK: true, Code: "rejected", Narrative: msg,
		Events: []Event{{Type: "answer_rejected", Turn: t, Question: q.ID, Rejections: n, Text: src}}}
}

// At most 500 characters (PP-COMMENT-LENGTH); no AP (PP-AP-ZERO).
func (r *Run) comment(arg string) Result {
	switch n := utf8.RuneCountInString(arg); {
	case n == 0:
		return refuse("missing_arg", "comment には本文が必要です")
	case n > MaxCommentRunes:
		return refuse("comment_too_long", "comment は %d 字までです（%d 字）", MaxCommentRunes, n)
	case r.Comments >= MaxComments:
		return refuse("comment_limit", "comment は1つの run で %d 回までです", MaxComments)
	}
	r.Comments++
	return Result{OK: true, Narrative: "日記に書き留めた。", Events: []Event{{Type: "comment", Turn: r.Turn, Text: arg}}}
}

// Extend raises the turn budget by n, never past the turn limit.
func (r *Run) Extend(n int) error {
	switch {
	case r.Finished():
		return ErrFinished
	case n < 1:
		return ErrBadExtend
	case n > TurnLimit-r.Budget: // never r.Budget+n: a huge n must not overflow past the check
		return ErrTurnLimit
	}
	r.Budget += n
	return nil
}

// unanswered lists the questions without a recorded answer.
func (r *Run) unanswered() []string {
	var out []string
	for _, q := range r.Case().Questions {
		if _, ok := r.answers[q.ID]; !ok {
			out = append(out, q.ID)
		}
	}
	sort.Strings(out)
	return out
}
