package phantompress

import (
	"net/http"
	"regexp"
	"strings"
	"sync"

	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// The targets of the seventh round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// roundSevenSlips are the seventh round's fresh slips: one alias of a
// verdict and one of a confidence mapped to the wrong word, the keyless
// reads of the run log and the recent runs refused, an unknown question
// taken for the first, a wrong hedge charged its trust figure in points,
// the ghost's -4 charged the other way round, a misprint's trust with
// its brackets misplaced, and the hedge-only lock
// counting a run's rejections over all its questions.
func roundSevenSlips() []slip {
	return []slip{
		{"the alias false recorded as 真", "PP-ANSWER-ALIASES", func() http.Handler { return aliasMapped(1, "false", string(engine.True)) }},
		{"the alias hedge recorded as 断言", "PP-ANSWER-ALIASES", func() http.Handler { return aliasMapped(2, "hedge", string(engine.Assert)) }},
		{"the run log needs a key", "PP-AUTH-FREE", func() http.Handler { return keyRequiredOn(runLogPath) }},
		{"the recent runs need a key", "PP-AUTH-FREE", func() http.Handler { return keyRequiredOn(recentPath) }},
		{"an unknown question taken for q1", "PP-ANSWER-MALFORMED", func() http.Handler {
			return answerEdit(func(f []string) []string {
				if len(f) > 0 && !knownQuestion.MatchString(f[0]) {
					f[0] = "q1"
				}
				return f
			})
		}},
		{"a wrong hedge charged -3 points", "PP-SETTLE-TABLE", func() http.Handler {
			return pointsShifted(func(s map[string]any) float64 {
				d := 0.0
				for _, l := range asList(s["lines"]) {
					if lm, _ := l.(map[string]any); lm != nil && lm["right"] == false && lm["confidence"] == string(engine.Hedge) {
						lm["points"] = num(lm["points"]) + 2
						d += 2
					}
				}
				s["answer_points"] = num(s["answer_points"]) + d
				return d
			})
		}},
		{"a wrong 裏取り不能 charged the ghost's -4", "PP-SETTLE-GHOST", func() http.Handler {
			return trustSpared(func(l map[string]any) float64 {
				if l["right"] == false && l["verdict"] == string(engine.Unverifiable) {
					return engine.TrustGhost
				}
				return 0
			})
		}},
		{"a misprint's trust read -(8+caseNo)×3", "PP-SETTLE-TABLE", func() http.Handler {
			return trustSpared(func(l map[string]any) float64 {
				if l["right"] == false && l["confidence"] == string(engine.Assert) {
					return -16 // -(8+c)×3 less -(8+c×3), whatever the case
				}
				return 0
			})
		}},
		{"rejections counted over the run's questions", "PP-ANSWER-HEDGE-ONLY", runWideRejectionLock},
	}
}

// knownQuestion is a question ID of the seed's cases: q1 to q8.
var knownQuestion = regexp.MustCompile(`^q[1-8]$`)

// aliasMapped rewrites the English alias at field i of an answer's arg to
// to, as an alias table with one wrong entry does.
func aliasMapped(i int, alias, to string) http.Handler {
	return answerEdit(func(f []string) []string {
		if len(f) > i && strings.EqualFold(f[i], alias) {
			f[i] = to
		}
		return f
	})
}

// runLogPath and recentPath pick a run's log and the recent runs.
func runLogPath(p string) bool { return runOfPath(p) != "" }
func recentPath(p string) bool { return strings.HasSuffix(p, "/runs") }

// keyRequiredOn answers 401 to a GET without Authorization on the paths
// picked: an auth middleware mounted on the whole /runs group.
func keyRequiredOn(picks func(path string) bool) http.Handler {
	return harness.Wrap(ppRef(), nil, func(r *http.Request, st *int, m map[string]any) {
		if r.Method == http.MethodGet && r.Header.Get("Authorization") == "" && picks(r.URL.Path) {
			*st = http.StatusUnauthorized
			replaceWith(m, map[string]any{"code": "unauthorized", "error": "a key is required"})
		}
	})
}

// runWideRejectionLock refuses every assertion of a run hedge_only once
// the run has had 3 rejections, on whichever questions: the counter kept
// on the run instead of on each question.
func runWideRejectionLock() http.Handler {
	var mu sync.Mutex
	count := map[string]int{}
	asserts := func(in map[string]any) bool {
		f := engine.Fields(str(in["arg"]))
		if in["action"] != engine.ActAnswer || len(f) < 3 {
			return false
		}
		c := strings.ToLower(f[2])
		return c == string(engine.Assert) || c == "assert"
	}
	return refusedAsStatusRun(func(run string, in map[string]any) bool {
		mu.Lock()
		defer mu.Unlock()
		return asserts(in) && count[run] >= 3
	}, func(run string, in, out map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if asserts(in) && out["code"] == "rejected" {
			count[run]++
		}
	}, "hedge_only", "この設問は留保のみ受け付けます")
}

// roundSevenNeighbours are the seventh round's faithful readings: an
// unknown question refused under a code and words of its own (the seed
// fixes ok:false and no turn, not the code), and a free read refusing a
// key it never issued while serving a request with none (auth:false says
// a key is not needed, not that a bad one is ignored).
func roundSevenNeighbours() []neighbour {
	return []neighbour{
		{"an unknown question refused under its own code", []string{"PP-ANSWER-MALFORMED", "PP-ANSWER-GRAMMAR"}, func() http.Handler {
			return harness.Responses(ppRef(), func(_ *http.Request, _ *int, m map[string]any) {
				if m["code"] == "unknown_question" {
					m["code"], m["error"], m["narrative"] = "unknown_id", "そのIDは存在しません", "デスク：「そのIDは見当たらない」"
				}
			})
		}},
		{"a free read refusing a key never issued", []string{"PP-AUTH-FREE", "PP-RUN-HIDDEN-404", "PP-RECENT"}, badKeyOnFreeReads},
	}
}

// badKeyOnFreeReads answers 401 to a GET carrying a key no registration
// issued, and serves a GET without a key as the reference does.
func badKeyOnFreeReads() http.Handler {
	var mu sync.Mutex
	issued := map[string]bool{}
	return harness.Wrap(ppRef(), nil, func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if k, ok := m["api_key"].(string); ok && r.Method == http.MethodPost {
			issued[k] = true
		}
		_, key, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		if r.Method == http.MethodGet && key != "" && !issued[key] {
			*st = http.StatusUnauthorized
			replaceWith(m, map[string]any{"code": "unauthorized", "error": "unknown API key"})
		}
	})
}
