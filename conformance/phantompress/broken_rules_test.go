package phantompress

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	pp "github.com/agentgames/conformance/reference/phantompress/server"
)

// TestEveryRuleBrokenAloneIsCaught runs one broken target per MUST rule
// the older tables leave out: each breaks one behaviour the seed fixes,
// and the live run restricted to that rule must fail naming it.
func TestEveryRuleBrokenAloneIsCaught(t *testing.T) {
	t.Parallel()
	harness.Test(t, Protocol, ruleCases())
}

// ruleCases are the broken targets of TestEveryRuleBrokenAloneIsCaught.
var ruleCases = tamperTable("one broken rule each", func() []harness.Case {
	var out []harness.Case
	for _, part := range [][]harness.Case{accountCases(), runCases(), actionCases(), answerCases(), caseCases(), settleCases(), brokenLawCases()} {
		out = append(out, part...)
	}
	return out
})

// accountCases break the API document, registration and the public reads.
func accountCases() []harness.Case {
	return []harness.Case{
		{Name: "the API document lists no endpoints", Rule: "PP-API-DOC", Target: answersTo(http.MethodGet, "/api", func(_ *http.Request, _ *int, m map[string]any) {
			delete(m, "endpoints")
		})},
		{Name: "a 33-character name is cut to 32 and registered", Rule: "PP-REGISTER", Target: bodyEdit(http.MethodPost, "/register", func(m map[string]any) {
			if n, ok := m["name"].(string); ok && len([]rune(n)) > 32 {
				m["name"] = string([]rune(n)[:32])
			}
		})},
		{Name: "an owner is refused", Rule: "PP-REGISTER-OWNER", Target: answersTo(http.MethodPost, "/register", func(r *http.Request, st *int, m map[string]any) {
			if _, ok := m["owner"]; ok {
				*st = http.StatusBadRequest
				replaceWith(m, map[string]any{"code": "invalid_body", "error": "owner is not accepted"})
			}
		})},
		{Name: "the leaderboard needs a key", Rule: "PP-AUTH-FREE", Target: harness.Wrap(ppRef(), nil, func(r *http.Request, st *int, m map[string]any) {
			if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/leaderboard") && r.Header.Get("Authorization") == "" {
				*st = http.StatusUnauthorized
				replaceWith(m, map[string]any{"code": "unauthorized", "error": "a key is required"})
			}
		})},
		{Name: "writes without a key act as the last agent", Rule: "PP-ERR-401", Target: keylessWrites()},
		{Name: "an agent's best run ranked once per run", Rule: "PP-LEADERBOARD", Target: rowPerRun()},
		{Name: "the recent runs leave out the newest", Rule: "PP-RECENT", Target: answersTo(http.MethodGet, "/runs", func(_ *http.Request, _ *int, m map[string]any) {
			if runs, ok := m["runs"].([]any); ok && len(runs) > 0 {
				m["runs"] = runs[1:]
			}
		})},
	}
}

// runCases break run creation, budgets, visibility and reviews.
func runCases() []harness.Case {
	return []harness.Case{
		{Name: "a run without a valid budget gets 10 turns", Rule: "PP-RUN-BUDGET-REQUIRED", Target: bodyEdit(http.MethodPost, "/runs", func(m map[string]any) {
			if b, ok := m["budget_turns"].(float64); !ok || b != float64(int(b)) || b < 1 || b > 200 {
				m["budget_turns"] = 10
			}
		})},
		{Name: "a new run without narrative", Rule: "PP-RUN-CREATE", Target: answersTo(http.MethodPost, "/runs", func(_ *http.Request, _ *int, m map[string]any) {
			delete(m, "narrative")
		})},
		{Name: "a new run starts at trust 99", Rule: "PP-TRUST-INIT", Target: answersTo(http.MethodPost, "/runs", func(_ *http.Request, _ *int, m map[string]any) {
			if st, ok := m["state"].(map[string]any); ok {
				st["trust"] = 99
			}
		})},
		{Name: "a spent budget answers 200 ok:false", Rule: "PP-RUN-BUDGET-SPENT", Target: conflictAs200("budget_exhausted")},
		{Name: "a finished run answers 200 ok:false", Rule: "PP-ERR-409-FINISHED", Target: conflictAs200("run_finished")},
		{Name: "extensions missing from the log", Rule: "PP-RUN-EXTEND-LOGGED", Target: answersTo(http.MethodGet, "/runs/", func(_ *http.Request, _ *int, m map[string]any) {
			if _, ok := m["extensions"]; ok {
				m["extensions"] = []any{}
			}
		})},
		{Name: "a hidden run's log still served", Rule: "PP-RUN-HIDDEN-404", Target: harness.Wrap(ppRef(), nil, func(r *http.Request, st *int, m map[string]any) {
			if r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/runs/run_") && *st == http.StatusNotFound {
				*st = http.StatusOK
			}
		})},
		{Name: "an extension past 200 is clamped above it", Rule: "PP-RUN-TURN-LIMIT", Target: overLimitExtensions()},
		{Name: "a hidden run cannot be made public", Rule: "PP-RUN-VISIBILITY", Target: bodyEdit(http.MethodPost, "/visibility", func(m map[string]any) { m["visibility"] = "hidden" })},
		{Name: "a 2001-character review is cut and kept", Rule: "PP-REVIEW", Target: bodyEdit(http.MethodPost, "/review", func(m map[string]any) {
			if s, ok := m["text"].(string); ok && len([]rune(s)) > 2000 {
				m["text"] = string([]rune(s)[:2000])
			}
		})},
	}
}

// actionCases break the action answer and the turn-free actions.
func actionCases() []harness.Case {
	return []harness.Case{
		{Name: "an action answer without available_actions", Rule: "PP-ACTION-RESPONSE", Target: breaker(func(_ map[string]any, b map[string]any, _ func(string, string) map[string]any) {
			delete(b, "available_actions")
		})},
		{Name: "the state without case_no", Rule: "PP-STATE-CLIENT-FIELDS", Target: breaker(func(_ map[string]any, b map[string]any, _ func(string, string) map[string]any) {
			if st, ok := b["state"].(map[string]any); ok {
				delete(st, "case_no")
			}
		})},
		{Name: "the narrative in English", Rule: "PP-NARRATIVE-JA", Target: breaker(func(_ map[string]any, b map[string]any, _ func(string, string) map[string]any) {
			b["narrative"] = "You look over the desk's checklist."
		})},
		{Name: "an empty arg filled in", Rule: "PP-ACTION-ARG-REQUIRED", Target: argsFilledIn()},
		{Name: "a one-word interview gets the first topic", Rule: "PP-INTERVIEW-GRAMMAR", Target: actionEdit(func(in map[string]any) {
			if arg, _ := in["arg"].(string); in["action"] == "interview" && len(strings.Fields(arg)) == 1 {
				in["arg"] = arg + " t1"
			}
		})},
		{Name: "a malformed body taken for status", Rule: "PP-ERR-400", Target: malformedAsStatus()},
		{Name: "a comment spends a turn", Rule: "PP-COMMENT", Target: actionSpendsTurns("comment")},
		{Name: "the 101st comment accepted", Rule: "PP-COMMENT", Target: breaker(func(in map[string]any, b map[string]any, _ func(string, string) map[string]any) {
			if in["action"] == "comment" && b["ok"] == false && b["code"] == "comment_limit" {
				b["ok"] = true
				delete(b, "code")
				delete(b, "error")
			}
		})},
		{Name: "a 501-character comment cut and kept", Rule: "PP-COMMENT-LENGTH", Target: actionEdit(func(in map[string]any) {
			if s, _ := in["arg"].(string); in["action"] == "comment" && len([]rune(s)) > 500 {
				in["arg"] = string([]rune(s)[:500])
			}
		})},
		{Name: "status spends a turn", Rule: "PP-STATUS", Target: statusSpendsTurns()},
		{Name: "a look costs one AP", Rule: "PP-AP-ZERO", Target: apOffsetAfter("look", -1)},
		{Name: "publish offered before every answer", Rule: "PP-AVAILABLE-ACTIONS", Target: breaker(func(_ map[string]any, b map[string]any, _ func(string, string) map[string]any) {
			if st, _ := b["state"].(map[string]any); st != nil && st["status"] == "active" {
				if list, ok := b["available_actions"].([]any); ok && !containsString(list, "publish") {
					b["available_actions"] = append(list, "publish")
				}
			}
		})},
	}
}

// answerCases break the answer grammar and its bookkeeping.
func answerCases() []harness.Case {
	return []harness.Case{
		{Name: "an incomplete answer completed as a hedge", Rule: "PP-ANSWER-GRAMMAR", Target: answerEdit(func(f []string) []string {
			switch len(f) {
			case 1:
				return append(f, "裏取り不能", "留保")
			case 2:
				return append(f, "留保")
			}
			return f
		})},
		{Name: "English aliases refused", Rule: "PP-ANSWER-ALIASES", Target: answerEdit(func(f []string) []string {
			for i, w := range f {
				switch strings.ToLower(w) {
				case "true", "false", "unverifiable", "assert", "hedge":
					f[i] = "たぶん"
				}
			}
			return f
		})},
		{Name: "a hedge needs a source", Rule: "PP-ANSWER-HEDGE-NO-SOURCE", Target: answerEdit(func(f []string) []string {
			if len(f) == 3 && f[2] == "留保" && f[1] != "裏取り不能" {
				f[2] = "断言"
			}
			return f
		})},
		{Name: "unverifiable asserted needs a source", Rule: "PP-ANSWER-UNVERIFIABLE-NO-SOURCE", Target: answerEdit(func(f []string) []string {
			if len(f) == 3 && f[1] == "裏取り不能" && f[2] == "断言" {
				f[1] = "真"
			}
			return f
		})},
		{Name: "a badly sourced assertion recorded as a hedge", Rule: "PP-ANSWER-MALFORMED", Target: answerEdit(func(f []string) []string {
			if len(f) >= 3 && f[2] == "断言" && f[1] != "裏取り不能" {
				return []string{f[0], f[1], "留保"}
			}
			return f
		})},
		{Name: "a comma ends the sources", Rule: "PP-ANSWER-SEPARATORS", Target: actionEdit(func(in map[string]any) {
			if arg, _ := in["arg"].(string); in["action"] == "answer" && strings.Contains(arg, ",") {
				in["arg"], _, _ = strings.Cut(arg, ",")
			}
		})},
		{Name: "the first answer kept", Rule: "PP-ANSWER-OVERWRITE", Target: firstAnswerKept()},
		{Name: "a rejection spends no turn", Rule: "PP-ANSWER-REJECT", Target: rejectionsFree()},
	}
}

// caseCases break AP, the case order and the case table.
func caseCases() []harness.Case {
	return []harness.Case{
		{Name: "no answer without AP", Rule: "PP-AP-EXHAUSTED", Target: noAnswerWithoutAP()},
		{Name: "unspent AP carried over", Rule: "PP-AP-NO-CARRY", Target: apCarriedOver()},
		{Name: "case 2 skipped", Rule: "PP-CASE-ORDER", Target: breaker(func(_ map[string]any, b map[string]any, _ func(string, string) map[string]any) {
			renumberCase(b, 2, 3)
		})},
		{Name: "case 1 shows one document short", Rule: "PP-CASE-TABLE", Target: caseOneDocumentShort()},
		{Name: "publish with a question unanswered", Rule: "PP-PUBLISH-ALL-ANSWERED", Target: publishFillsGaps()},
	}
}

// settleCases break the reveal, the score and the settlement figures.
func settleCases() []harness.Case {
	return []harness.Case{
		{Name: "publish reveals no answers", Rule: "PP-HIDE-REVEAL", Target: settlements(func(s map[string]any) {
			if rv, ok := s["reveal"].(map[string]any); ok {
				rv["answers"] = map[string]any{}
			}
		})},
		{Name: "a clear adds 200", Rule: "PP-SETTLE-BONUS", Target: settlements(func(s map[string]any) {
			if s["clear_bonus"] == float64(300) {
				s["clear_bonus"] = 200
			}
		})},
		{Name: "a ghost answer costs no extra trust", Rule: "PP-SETTLE-GHOST", Target: settlements(func(s map[string]any) {
			for _, l := range asList(s["lines"]) {
				if lm, _ := l.(map[string]any); lm["ghost"] == true {
					lm["trust"] = lm["trust"].(float64) + 4
				}
			}
		})},
		{Name: "a ghost answer charged 2 trust, the state agreeing", Rule: "PP-SETTLE-GHOST", Target: ghostChargedTwo()},
		{Name: "the score one point high", Rule: "PP-SCORE", Target: harness.Responses(ppRef(), func(_ *http.Request, _ *int, m map[string]any) {
			eachState(m, func(st map[string]any) {
				if s, ok := st["score"].(float64); ok {
					st["score"] = s + 1
				}
			})
			if s, ok := m["score"].(float64); ok {
				m["score"] = s + 1
			}
		})},
	}
}

// ppRef is an unmodified reference.
func ppRef() *pp.Server { return pp.New(suite.ReferenceConfig{Seed: 3}) }

// answersTo edits the JSON answers to method requests whose path ends in
// suffix.
func answersTo(method, suffix string, edit harness.ResponseEdit) http.Handler {
	return harness.Wrap(ppRef(), nil, func(r *http.Request, st *int, m map[string]any) {
		if r.Method == method && (strings.HasSuffix(r.URL.Path, suffix) || strings.HasSuffix(suffix, "/") && strings.Contains(r.URL.Path, suffix)) && *st/100 == 2 {
			edit(r, st, m)
		}
	})
}

// bodyEdit rewrites the JSON object bodies of method requests whose path
// ends in suffix before the reference sees them.
func bodyEdit(method, suffix string, edit func(m map[string]any)) http.Handler {
	return harness.Wrap(ppRef(), func(r *http.Request, body []byte) []byte {
		if r.Method != method || !strings.HasSuffix(r.URL.Path, suffix) {
			return body
		}
		var m map[string]any
		if json.Unmarshal(body, &m) != nil || m == nil {
			return body
		}
		edit(m)
		out, _ := json.Marshal(m)
		return out
	}, nil)
}

// actionEdit rewrites each decoded action request.
func actionEdit(edit func(in map[string]any)) http.Handler {
	return bodyEdit(http.MethodPost, "/action", edit)
}

// answerEdit rewrites the fields of each answer's arg.
func answerEdit(edit func(f []string) []string) http.Handler {
	return actionEdit(func(in map[string]any) {
		if arg, ok := in["arg"].(string); ok && in["action"] == "answer" && arg != "" {
			in["arg"] = strings.Join(edit(strings.Fields(arg)), " ")
		}
	})
}

// replaceWith empties m and fills it with with.
func replaceWith(m, with map[string]any) {
	for k := range m {
		delete(m, k)
	}
	for k, v := range with {
		m[k] = v
	}
}

// containsString reports whether list holds s.
func containsString(list []any, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// oneOf reports whether v is one of the strings in list.
func oneOf(v any, list ...string) bool {
	for _, s := range list {
		if v == s {
			return true
		}
	}
	return false
}

// asList is v as a JSON array, nil otherwise.
func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// eachState applies edit to m's state object, if any.
func eachState(m map[string]any, edit func(st map[string]any)) {
	if st, ok := m["state"].(map[string]any); ok {
		edit(st)
	}
}

// settlements applies edit to every settlement of every answer, the
// actions' events and the public log's entries alike.
func settlements(edit func(s map[string]any)) http.Handler {
	return harness.Responses(ppRef(), func(_ *http.Request, _ *int, m map[string]any) {
		eachSettlement(m, edit)
	})
}

// eachSettlement walks v and applies edit to every "settlement" object.
func eachSettlement(v any, edit func(s map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(map[string]any); ok && k == "settlement" {
				edit(s)
				continue
			}
			eachSettlement(x, edit)
		}
	case []any:
		for _, x := range v {
			eachSettlement(x, edit)
		}
	}
}

// runOfPath is the run ID of a /runs/:id... path, "" for another path.
func runOfPath(path string) string {
	_, rest, ok := strings.Cut(path, "/runs/")
	if !ok {
		return ""
	}
	id, _, _ := strings.Cut(rest, "/")
	return id
}

// keylessWrites acts for a caller without a key as the last agent that sent
// one.
func keylessWrites() http.Handler {
	var mu sync.Mutex
	last := ""
	return harness.Wrap(ppRef(), func(r *http.Request, body []byte) []byte {
		mu.Lock()
		defer mu.Unlock()
		if a := r.Header.Get("Authorization"); a != "" {
			last = a
		} else if r.Method == http.MethodPost && last != "" {
			r.Header.Set("Authorization", last)
		}
		return body
	}, nil)
}

// conflictAs200 answers 200 ok:false where the reference refuses an action
// with 409 and one of codes.
func conflictAs200(codes ...string) http.Handler {
	return harness.Wrap(ppRef(), nil, func(r *http.Request, st *int, m map[string]any) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/action") && *st == http.StatusConflict && oneOf(m["code"], codes...) {
			*st = http.StatusOK
			m["ok"] = false
		}
	})
}

// malformedAsStatus answers a body that is not an action object as a
// status action.
func malformedAsStatus() http.Handler {
	return harness.Wrap(ppRef(), func(r *http.Request, body []byte) []byte {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/action") {
			return body
		}
		var in map[string]any
		if json.Unmarshal(body, &in) != nil || in == nil {
			return []byte(`{"action":"status"}`)
		}
		if _, ok := in["action"].(string); !ok {
			return []byte(`{"action":"status"}`)
		}
		return body
	}, nil)
}
