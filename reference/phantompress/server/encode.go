package server

import (
	"strconv"

	"github.com/agentgames/conformance/reference/phantompress/engine"
	"github.com/agentgames/conformance/reference/skeleton"
)

// The action answer is every write's answer, and encoding it through
// reflection (the case view, twice over for a look, and its text rune by
// rune) was most of a write's own cost. appendAction writes the bytes
// writeJSON's encoder writes for an ActionResponse (HTML characters not
// escaped, one trailing newline), field by field; the rarer parts of an
// event (a document, testimony, answer or settlement) and the answers
// map still go through encoding/json. TestActionEncodingMatchesEncodingJSON
// holds it to that (PP-ACTION-RESPONSE, PP-OPENAPI).

// appendAction appends out as JSON and a newline; cases (nil: none)
// remembers the run's case view already encoded.
func appendAction(b []byte, out ActionResponse, cases *caseCache) []byte {
	b = appendBool(append(b, '{'), "ok", out.OK, false)
	b = appendInt(b, "turn", out.Turn)
	b = appendString(b, "narrative", out.Narrative)
	b = appendState(append(b, `,"state":`...), out.State, cases)
	b = append(b, `,"events":`...)
	if out.Events == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, e := range out.Events {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendEvent(b, e, cases)
		}
		b = append(b, ']')
	}
	b = appendStrings(b, "available_actions", out.AvailableActions)
	if out.Code != "" {
		b = appendString(b, "code", out.Code)
	}
	if out.Error != "" {
		b = appendString(b, "error", out.Error)
	}
	return append(b, "}\n"...)
}

// appendState appends the PublicStateView (PP-STATE-VIEW).
func appendState(b []byte, s engine.StateView, cases *caseCache) []byte {
	b = append(b, `{"run_id":`...)
	b = skeleton.AppendJSONString(b, s.RunID)
	b = appendString(b, "status", s.Status)
	b = appendInt(b, "case_no", s.CaseNo)
	b = appendInt(b, "turn", s.Turn)
	b = appendInt(b, "budget_turns", s.BudgetTurns)
	b = appendInt(b, "turn_limit", s.TurnLimit)
	b = appendInt(b, "trust", s.Trust)
	b = appendInt(b, "ap", s.AP)
	b = appendInt(b, "points", s.Points)
	b = appendInt(b, "score", s.Score)
	b = appendInt(b, "cases_cleared", s.CasesCleared)
	b = appendBool(b, "seeded", s.Seeded, true)
	b = appendInt(b, "comments_left", s.CommentsLeft)
	b = cases.append(append(b, `,"case":`...), s.Case)
	b = appendMap(append(b, `,"answers":`...), s.Answers == nil, len(s.Answers), s.Answers)
	b = appendMap(append(b, `,"rejections":`...), s.Rejections == nil, len(s.Rejections), s.Rejections)
	b = appendStrings(b, "hedge_only", s.HedgeOnly)
	b = appendStrings(b, "acquired", s.Acquired)
	return append(b, '}')
}

// appendMap appends a map: null when nil, {} when empty, and otherwise
// encoding/json's rendering (its keys sorted).
func appendMap(b []byte, isNil bool, n int, m any) []byte {
	switch {
	case isNil:
		return append(b, "null"...)
	case n == 0:
		return append(b, "{}"...)
	}
	return append(b, skeleton.MarshalJSON(m)...)
}

// appendEvent appends one event; its empty fields are left out as their
// omitempty tags say.
func appendEvent(b []byte, e engine.Event, cases *caseCache) []byte {
	b = append(b, `{"type":`...)
	b = skeleton.AppendJSONString(b, e.Type)
	b = appendInt(b, "turn", e.Turn)
	if e.Text != "" {
		b = appendString(b, "text", e.Text)
	}
	if e.Question != "" {
		b = appendString(b, "question", e.Question)
	}
	if e.Rejections != 0 {
		b = appendInt(b, "rejections", e.Rejections)
	}
	if e.Document != nil {
		b = append(append(b, `,"document":`...), skeleton.MarshalJSON(e.Document)...)
	}
	if e.Testimony != nil {
		b = append(append(b, `,"testimony":`...), skeleton.MarshalJSON(e.Testimony)...)
	}
	if e.Answer != nil {
		b = append(append(b, `,"answer":`...), skeleton.MarshalJSON(e.Answer)...)
	}
	if e.Case != nil {
		b = cases.append(append(b, `,"case":`...), *e.Case)
	}
	if e.Settlement != nil {
		b = append(append(b, `,"settlement":`...), skeleton.MarshalJSON(e.Settlement)...)
	}
	return append(b, '}')
}

// caseCache is a run's last case view and its JSON. A run's answers
// repeat one view (in the state, and again in a look's event) until a
// read, an interview or the next case changes it, so it is encoded once
// per change. It is used under the run's busy lock.
type caseCache struct {
	view engine.CaseView
	json []byte
}

// append appends v's JSON, encoding it only when it is not the view
// remembered; a nil cache encodes every time.
func (c *caseCache) append(b []byte, v engine.CaseView) []byte {
	if c == nil {
		return appendCase(b, v)
	}
	if c.json == nil || !sameCase(c.view, v) {
		c.view, c.json = v, appendCase(c.json[:0], v)
	}
	return append(b, c.json...)
}

// sameCase reports whether a and b encode alike: the same fields and
// lists, nil where the other is nil.
func sameCase(a, b engine.CaseView) bool {
	return a.CaseNo == b.CaseNo && a.Title == b.Title && a.Brief == b.Brief && a.APMax == b.APMax &&
		sameList(a.Questions, b.Questions, func(x, y engine.Question) bool { return x == y }) &&
		sameList(a.Documents, b.Documents, func(x, y engine.Headline) bool { return x == y }) &&
		sameList(a.Witnesses, b.Witnesses, func(x, y engine.WitnessView) bool {
			return x.ID == y.ID && x.Name == y.Name && sameList(x.Topics, y.Topics, func(s, t engine.TopicView) bool { return s == t })
		})
}

// sameList reports whether two lists are both nil or hold equal elements.
func sameList[T any](a, b []T, eq func(T, T) bool) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if !eq(a[i], b[i]) {
			return false
		}
	}
	return true
}

// appendCase appends the public case view: checklist, headlines and
// witness topics, the case part of the state view (PP-STATE-VIEW).
func appendCase(b []byte, c engine.CaseView) []byte {
	b = append(b, `{"case_no":`...)
	b = strconv.AppendInt(b, int64(c.CaseNo), 10)
	b = appendString(b, "title", c.Title)
	b = appendString(b, "brief", c.Brief)
	b = appendInt(b, "ap_max", c.APMax)
	b = appendList(b, "questions", c.Questions, func(b []byte, q engine.Question) []byte {
		b = append(b, `{"id":`...)
		b = skeleton.AppendJSONString(b, q.ID)
		b = appendString(b, "claim", q.Claim)
		return append(appendString(b, "text", q.Text), '}')
	})
	b = appendList(b, "documents", c.Documents, func(b []byte, d engine.Headline) []byte {
		b = append(b, `{"id":`...)
		b = skeleton.AppendJSONString(b, d.ID)
		b = appendString(b, "kind", d.Kind)
		b = appendString(b, "title", d.Title)
		return append(appendBool(b, "read", d.Read, true), '}')
	})
	b = appendList(b, "witnesses", c.Witnesses, func(b []byte, w engine.WitnessView) []byte {
		b = append(b, `{"id":`...)
		b = skeleton.AppendJSONString(b, w.ID)
		b = appendString(b, "name", w.Name)
		return append(appendList(b, "topics", w.Topics, appendTopic), '}')
	})
	return append(b, '}')
}

// appendTopic appends one witness topic with its interview source.
func appendTopic(b []byte, t engine.TopicView) []byte {
	b = append(b, `{"id":`...)
	b = skeleton.AppendJSONString(b, t.ID)
	b = appendString(b, "title", t.Title)
	b = appendString(b, "source", t.Source)
	return append(appendBool(b, "interviewed", t.Interviewed, true), '}')
}

// appendList appends a member holding an array, each element by one;
// a nil slice is null, as encoding/json writes it.
func appendList[T any](b []byte, name string, xs []T, one func([]byte, T) []byte) []byte {
	b = append(append(append(b, ',', '"'), name...), `":`...)
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = one(b, x)
	}
	return append(b, ']')
}

// appendStrings appends a member holding an array of strings.
func appendStrings(b []byte, name string, vs []string) []byte {
	return appendList(b, name, vs, skeleton.AppendJSONString)
}

// appendString appends a string member after a comma.
func appendString(b []byte, name, v string) []byte {
	b = append(append(append(b, ',', '"'), name...), `":`...)
	return skeleton.AppendJSONString(b, v)
}

// appendInt appends a number member after a comma.
func appendInt(b []byte, name string, v int) []byte {
	b = append(append(append(b, ',', '"'), name...), `":`...)
	return strconv.AppendInt(b, int64(v), 10)
}

// appendBool appends a true/false member, after a comma unless first.
func appendBool(b []byte, name string, v, comma bool) []byte {
	if comma {
		b = append(b, ',')
	}
	b = append(append(append(b, '"'), name...), `":`...)
	return strconv.AppendBool(b, v)
}
