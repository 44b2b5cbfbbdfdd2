package phantompress

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// seenBody is one body a target showed before the current case was
// published, with the verdicts the agent itself had submitted by then (a
// target may echo those back; they are not leaks).
type seenBody struct {
	what string
	v    any
	said map[string]map[engine.Verdict]bool
}

// see keeps a pre-publish body for the hiding check at publish.
func (m *Model) see(what string, v any) {
	if v == nil {
		return
	}
	said := map[string]map[engine.Verdict]bool{}
	for q, vs := range m.Said {
		said[q] = map[engine.Verdict]bool{}
		for v := range vs {
			said[q][v] = true
		}
	}
	m.Seen = append(m.Seen, seenBody{what: what, v: v, said: said})
}

// noteSaid records a verdict the agent submitted for a question.
func (m *Model) noteSaid(arg string) {
	a, err := engine.ParseAnswer(arg)
	if err != nil {
		return
	}
	if m.Said[a.Question] == nil {
		m.Said[a.Question] = map[engine.Verdict]bool{}
	}
	m.Said[a.Question][a.Verdict] = true
}

// verdictOfWord reads a verdict in any spelling the grammar accepts.
func verdictOfWord(s string) (engine.Verdict, bool) {
	if len(engine.Fields(s)) != 1 {
		return "", false
	}
	a, err := engine.ParseAnswer("q " + strings.TrimSpace(s) + " 留保")
	return a.Verdict, err == nil
}

// witnessWords are the words that name a witness type.
var witnessWords = map[string][]string{
	"liar":   {"liar", "嘘つき", "虚言", "lying"},
	"honest": {"honest", "正直者", "truthful"},
}

// trapKeys are keys whose mere presence on a document tells a trap apart.
var trapKeys = map[string]bool{"trap": true, "traps": true, "tampered": true, "fabricated": true, "forged": true, "trap_type": true}

// trapWords are values that name a trap.
var trapWords = map[string][]string{
	"tampered":   {"tampered", "改竄", "改ざん"},
	"fabricated": {"fabricated", "捏造", "forged"},
}

// checkHidden compares, after the fact, everything the target showed during
// the case with what its publish revealed: no question-scoped field held a
// question's revealed verdict, no narrative paired a question with it, no
// witness object named its witness's type and no document object marked its
// trap (PP-HIDE-BEFORE-PUBLISH). The publish answer itself is never scanned.
func (m *Model) checkHidden(rv engine.Reveal) error {
	h := hider{rv: rv, caseNo: m.State.CaseNo, qs: map[string]bool{}, docs: map[string]bool{}, wit: map[string]string{}, trap: map[string]string{}}
	for _, q := range m.State.Case.Questions {
		h.qs[q.ID] = true
	}
	for _, d := range m.State.Case.Documents {
		h.docs[d.ID] = true
	}
	for _, w := range rv.Witnesses {
		h.wit[w.Witness] = w.Type
	}
	for _, t := range rv.Traps {
		h.trap[t.Document] = t.Trap
	}
	for _, b := range m.Seen {
		h.said = b.said
		if p := h.walk(b.v, "$", ""); p != "" {
			return verdict.Failf("PP-HIDE-BEFORE-PUBLISH", "no correct answer, trap or witness type before publish", p, "in %s", b.what)
		}
	}
	return nil
}

// hider walks one pre-publish body.
type hider struct {
	rv     engine.Reveal
	caseNo int
	qs     map[string]bool
	docs   map[string]bool
	wit    map[string]string
	trap   map[string]string
	said   map[string]map[engine.Verdict]bool
}

// leaksVerdict reports whether s spells question q's revealed verdict that
// the agent had not itself said.
func (h *hider) leaksVerdict(q, s string) bool {
	want, ok := h.rv.Answers[q]
	if !ok {
		return false
	}
	v, ok := verdictOfWord(s)
	return ok && v == want && !h.said[q][v]
}

// walk searches a decoded body for hidden truth of the current case and
// returns the path and reason of the first leak, or "" when there is none.
// q is the question the enclosing objects speak of.
func (h *hider) walk(v any, path, q string) string {
	switch x := v.(type) {
	case map[string]any:
		return h.walkObject(x, path, q)
	case []any:
		for _, c := range x {
			if p := h.walk(c, path+"[]", q); p != "" {
				return p
			}
		}
	case string:
		return h.walkString(x, path, q)
	}
	return ""
}

// walkObject walks one JSON object of the current case: it tracks the
// question the object speaks of, checks the object itself, then its fields.
func (h *hider) walkObject(x map[string]any, path, q string) string {
	if n, ok := x["case_no"].(float64); ok && int(n) != h.caseNo {
		return "" // another case's material
	}
	id, _ := x["id"].(string)
	if qq, _ := x["question"].(string); h.qs[qq] {
		q = qq
	} else if h.qs[id] {
		q = id
	}
	if p := h.object(x, id, path); p != "" {
		return p
	}
	for k, c := range x {
		cq := q
		if h.qs[k] {
			cq = k
		}
		if k == "id" || k == "question" {
			continue
		}
		if p := h.walk(c, path+"."+k, cq); p != "" {
			return p
		}
	}
	return ""
}

// walkString checks one JSON string for the revealed answer of the question
// it speaks of, or a narration pairing any question with its answer.
func (h *hider) walkString(x, path, q string) string {
	if q != "" && h.leaksVerdict(q, x) {
		return fmt.Sprintf("%s = %q (the revealed answer of %s)", path, x, q)
	}
	if m, qq := h.narration(x); m != "" {
		return fmt.Sprintf("%s: %q pairs %s with its revealed answer", path, m, qq)
	}
	return ""
}

// narration finds, in one pass of narratedPattern, text pairing any
// question of the case with its revealed verdict, and that question. A
// string without a "q" names no question ID, so it skips the pattern.
func (h *hider) narration(s string) (text, q string) {
	if !strings.ContainsAny(s, "qQ") {
		return "", ""
	}
	for _, m := range narratedPattern.FindAllStringSubmatch(s, -1) {
		if h.qs[m[1]] && h.leaksVerdict(m[1], m[2]) {
			return m[0], m[1]
		}
	}
	return "", ""
}

// object checks a witness or document object for its revealed type or trap.
func (h *hider) object(x map[string]any, id, path string) string {
	if typ, ok := h.wit[id]; ok {
		for k, c := range x {
			lk := strings.ToLower(k)
			if lk == "type" || lk == "role" || lk == "liar" || lk == "honest" || lk == "witness_type" {
				return path + "." + k
			}
			if s, ok := c.(string); ok && k != "id" && containsAny(s, witnessWords[typ], typ) {
				return fmt.Sprintf("%s.%s = %q names the witness's type", path, k, s)
			}
		}
	}
	if h.docs[id] {
		for k, c := range x {
			if trapKeys[strings.ToLower(k)] {
				return path + "." + k
			}
			// A trap word is a leak as a field's whole value, and the
			// revealed trap's own (English) name anywhere in a field: the
			// story texts are Japanese and may speak of 改竄 themselves.
			if s, ok := c.(string); ok && h.trap[id] != "" && (equalsAny(s, trapWords[h.trap[id]], h.trap[id]) || containsAny(s, nil, h.trap[id])) {
				return fmt.Sprintf("%s.%s = %q names the trap", path, k, s)
			}
		}
	}
	return ""
}

func containsAny(s string, words []string, extra string) bool {
	ls := strings.ToLower(s)
	for _, w := range append(words, extra) {
		if len(w) >= 3 && strings.Contains(ls, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

func equalsAny(s string, words []string, extra string) bool {
	for _, w := range append(words, extra) {
		if w != "" && strings.EqualFold(strings.TrimSpace(s), w) {
			return true
		}
	}
	return false
}

// narratedPattern finds a question ID followed closely by a verdict word.
var narratedPattern = regexp.MustCompile(`(?i)\b(q[0-9a-z_-]*)\b[\s:：=＝はがをの「『（(]{0,3}(真|偽|裏取り不能|true|false|unverifiable)`)
