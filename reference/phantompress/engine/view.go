package engine

import (
	"sort"
	"strings"
)

// StateView is the PublicStateView: everything an agent may see of a run.
// It never holds correct answers, trap locations or witness types
// (PP-HIDE-BEFORE-PUBLISH, PP-STATE-VIEW, PP-STATE-CLIENT-FIELDS).
type StateView struct {
	RunID        string            `json:"run_id"`
	Status       string            `json:"status"`
	CaseNo       int               `json:"case_no"`
	Turn         int               `json:"turn"`
	BudgetTurns  int               `json:"budget_turns"`
	TurnLimit    int               `json:"turn_limit"`
	Trust        int               `json:"trust"`
	AP           int               `json:"ap"`
	Points       int               `json:"points"`
	Score        int               `json:"score"`
	CasesCleared int               `json:"cases_cleared"`
	Seeded       bool              `json:"seeded"`
	CommentsLeft int               `json:"comments_left"`
	Case         CaseView          `json:"case"`
	Answers      map[string]Answer `json:"answers"`
	Rejections   map[string]int    `json:"rejections"`
	HedgeOnly    []string          `json:"hedge_only"`
	Acquired     []string          `json:"acquired"`
}

// CaseView is the public face of a case: the checklist, the document
// headlines and the witness topics.
type CaseView struct {
	CaseNo    int           `json:"case_no"`
	Title     string        `json:"title"`
	Brief     string        `json:"brief"`
	APMax     int           `json:"ap_max"`
	Questions []Question    `json:"questions"`
	Documents []Headline    `json:"documents"`
	Witnesses []WitnessView `json:"witnesses"`
}

// Headline is a document as listed before reading: no origin, no claims.
type Headline struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Title string `json:"title"`
	Read  bool   `json:"read"`
}

// WitnessView is a witness as listed: name and topics, never the type.
type WitnessView struct {
	ID     string      `json:"id"`
	Name   string      `json:"name"`
	Topics []TopicView `json:"topics"`
}

// TopicView is a topic as listed, with its interview source ID.
type TopicView struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Source      string `json:"source"`
	Interviewed bool   `json:"interviewed"`
}

// CaseView returns the public view of the current case.
func (r *Run) CaseView() CaseView {
	c := r.Case()
	// Every list is allocated once at its final size: a view is built
	// twice for each answer (the state and a look's event).
	v := CaseView{CaseNo: c.No, Title: c.Title, Brief: c.Brief, APMax: c.AP, Questions: c.Questions,
		Documents: make([]Headline, 0, len(c.Documents)), Witnesses: make([]WitnessView, 0, len(c.Witnesses))}
	for _, d := range c.Documents {
		v.Documents = append(v.Documents, Headline{ID: d.ID, Kind: d.Kind, Title: d.Title, Read: r.read[d.ID]})
	}
	for _, w := range c.Witnesses {
		wv := WitnessView{ID: w.ID, Name: w.Name, Topics: make([]TopicView, 0, len(w.Topics))}
		for _, t := range w.Topics {
			src := sourceID(w, t)
			wv.Topics = append(wv.Topics, TopicView{ID: t.ID, Title: t.Title, Source: src, Interviewed: r.interviewed[src]})
		}
		v.Witnesses = append(v.Witnesses, wv)
	}
	return v
}

// sourceID is a topic's interview source, witness:topic: the one its
// testimony carries when it is that (Generate builds it so), instead of
// a new string for every view.
func sourceID(w Witness, t Topic) string {
	if src := t.Testimony.Source; len(src) == len(w.ID)+1+len(t.ID) && strings.HasPrefix(src, w.ID) && src[len(w.ID)] == ':' && strings.HasSuffix(src, t.ID) {
		return src
	}
	return w.ID + ":" + t.ID
}

// allAnswered reports whether every question of the current case has an
// answer, as an empty unanswered() would, without building the list.
func (r *Run) allAnswered() bool {
	for _, q := range r.Case().Questions {
		if _, ok := r.answers[q.ID]; !ok {
			return false
		}
	}
	return true
}

// State returns the PublicStateView of the run.
func (r *Run) State() StateView {
	s := StateView{RunID: r.ID, Status: r.Status, CaseNo: r.Case().No, Turn: r.Turn, BudgetTurns: r.Budget,
		TurnLimit: TurnLimit, Trust: r.Trust, AP: r.AP, Points: r.Points, Score: r.Score(),
		CasesCleared: r.Cleared, Seeded: r.Seeded, CommentsLeft: MaxComments - r.Comments,
		Case: r.CaseView(), Answers: map[string]Answer{}, Rejections: map[string]int{},
		HedgeOnly: []string{}, Acquired: []string{}}
	for q, a := range r.answers {
		s.Answers[q] = a
	}
	for q, n := range r.rejections {
		s.Rejections[q] = n
		if n >= MaxRejections {
			s.HedgeOnly = append(s.HedgeOnly, q)
		}
	}
	for id := range r.read {
		s.Acquired = append(s.Acquired, id)
	}
	for id := range r.interviewed {
		s.Acquired = append(s.Acquired, id)
	}
	sort.Strings(s.HedgeOnly)
	sort.Strings(s.Acquired)
	return s
}

// Available lists the actions valid now (PP-AVAILABLE-ACTIONS), every one of
// them, status and comment included (PP-AVAILABLE-ACTIONS-COMPLETE): an action is
// listed only when it can succeed.
func (r *Run) Available() []string {
	if r.Finished() {
		return []string{ActStatus}
	}
	var out []string
	if r.Turn < r.Budget {
		out = append(out, ActLook)
		if r.AP >= APRead && len(r.read) < len(r.Case().Documents) {
			out = append(out, ActRead)
		}
		if r.AP >= APInterview && len(r.interviewed) < r.topicCount() {
			out = append(out, ActInterview)
		}
		out = append(out, ActAnswer)
		if r.allAnswered() {
			out = append(out, ActPublish)
		}
	}
	out = append(out, ActStatus)
	if r.Comments < MaxComments {
		out = append(out, ActComment)
	}
	return out
}

func (r *Run) topicCount() int {
	n := 0
	for _, w := range r.Case().Witnesses {
		n += len(w.Topics)
	}
	return n
}
