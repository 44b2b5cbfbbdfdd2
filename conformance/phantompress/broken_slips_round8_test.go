package phantompress

import (
	"net/http"
	"strings"
	"sync"
	"unicode/utf8"

	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// The targets of the eighth round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// roundEightSlips are the eighth round's fresh slips: a read charged an
// interview's 3 AP, a sourceless 裏取り不能 assertion refused, a case
// clear worth 200, a comment one past the limit cut to it and taken, the
// budget's upper limit refused, a name one past its limit cut and taken,
// trust weighed ×4 in the score, the ghost's -4 charged on 真 only, and
// malformed assertions counted towards the hedge-only lock.
func roundEightSlips() []slip {
	return []slip{
		{"a read costs 3 AP, as an interview does", "PP-AP-COST", func() http.Handler { return apOffsetAfter("read", -1) }},
		{"a 裏取り不能 assertion without a source refused", "PP-ANSWER-UNVERIFIABLE-NO-SOURCE", func() http.Handler {
			return refusedAsStatus(sourcelessUnverifiableAssertion, "no_source", "断言には出典が必要です")
		}},
		{"a case clear adds 200", "PP-SETTLE-BONUS", func() http.Handler {
			return pointsShifted(func(s map[string]any) float64 {
				if num(s["clear_bonus"]) != 300 {
					return 0
				}
				s["clear_bonus"] = 200.0
				return -100
			})
		}},
		{"a comment of 501 characters cut to 500 and taken", "PP-COMMENT-LENGTH", func() http.Handler {
			return bodyEdit(http.MethodPost, "/action", func(m map[string]any) {
				if s, ok := m["arg"].(string); ok && m["action"] == engine.ActComment {
					m["arg"] = cutRunes(s, 500)
				}
			})
		}},
		{"budget_turns 200 refused", "PP-RUN-BUDGET-REQUIRED", func() http.Handler {
			return bodyEdit(http.MethodPost, "/runs", func(m map[string]any) {
				if m["budget_turns"] == float64(200) {
					m["budget_turns"] = 201
				}
			})
		}},
		{"a name of 33 characters cut to 32 and taken", "PP-REGISTER", func() http.Handler {
			return bodyEdit(http.MethodPost, "/register", func(m map[string]any) {
				if s, ok := m["name"].(string); ok {
					m["name"] = cutRunes(s, 32)
				}
			})
		}},
		{"the score weighs trust ×4", "PP-SCORE", func() http.Handler {
			return harness.Responses(ppRef(), func(_ *http.Request, _ *int, m map[string]any) {
				eachState(m, func(st map[string]any) {
					if s, ok := st["score"].(float64); ok {
						st["score"] = s - num(st["trust"])
					}
				})
			})
		}},
		{"the ghost's -4 charged on 真 only", "PP-SETTLE-GHOST", func() http.Handler {
			return trustSpared(func(l map[string]any) float64 {
				if l["ghost"] == true && l["verdict"] == string(engine.False) {
					return -engine.TrustGhost
				}
				return 0
			})
		}},
		{"malformed assertions counted towards the hedge-only lock", "PP-ANSWER-HEDGE-ONLY", malformedCountedInLock},
	}
}

// cutRunes keeps the first n characters of s, as a validator that
// truncates instead of refusing does.
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// sourcelessUnverifiableAssertion picks an answer 裏取り不能 断言 with no
// source, which the seed accepts (無いことの証明は課さない).
func sourcelessUnverifiableAssertion(in map[string]any) bool {
	f := engine.Fields(str(in["arg"]))
	if in["action"] != engine.ActAnswer || len(f) != 3 {
		return false
	}
	v, c := strings.ToLower(f[1]), strings.ToLower(f[2])
	return (v == string(engine.Unverifiable) || v == "unverifiable") && (c == string(engine.Assert) || c == "assert")
}

// assertingQuestion is the question of an assertion, and whether in is one.
func assertingQuestion(in map[string]any) (string, bool) {
	f := engine.Fields(str(in["arg"]))
	if in["action"] != engine.ActAnswer || len(f) < 3 {
		return "", false
	}
	c := strings.ToLower(f[2])
	return f[0], c == string(engine.Assert) || c == "assert"
}

// malformedCountedInLock locks a question to hedges once it has had 3
// refused assertions, counting ok:false malformed ones (unread sources,
// none at all) with the substantive rejections the seed counts.
func malformedCountedInLock() http.Handler {
	var mu sync.Mutex
	count := map[string]int{}
	return refusedAsStatusRun(func(run string, in map[string]any) bool {
		q, ok := assertingQuestion(in)
		mu.Lock()
		defer mu.Unlock()
		return ok && count[run+" "+q] >= 3
	}, func(run string, in, out map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if q, ok := assertingQuestion(in); ok && (out["code"] == "rejected" || out["ok"] == false) {
			count[run+" "+q]++
		}
	}, "hedge_only", "この設問は留保のみ受け付けます")
}

// roundEightNeighbours are the eighth round's faithful readings, next to
// the two limit slips: a comment one past 500 characters and a name one
// past 32 refused under codes and words of their own (the seed fixes the
// limits, ok:false or 400, and no turn, not the code or the message).
func roundEightNeighbours() []neighbour {
	return []neighbour{
		{"a comment past 500 characters refused under its own code", []string{"PP-COMMENT-LENGTH"}, func() http.Handler {
			return recodedRefusal("comment_too_long", "text_too_long", "日記は500字までです")
		}},
		{"a name past 32 characters refused under its own code", []string{"PP-REGISTER"}, func() http.Handler {
			return recodedRefusal("invalid_name", "name_too_long", "名前は1〜32字で指定してください")
		}},
	}
}

// recodedRefusal serves the reference with its refusal code from renamed
// to, under words of its own: the status, ok:false and the unchanged
// state stay as the reference answers them.
func recodedRefusal(from, to, msg string) http.Handler {
	return harness.Responses(ppRef(), func(_ *http.Request, _ *int, m map[string]any) {
		if m["code"] == from {
			m["code"], m["error"] = to, msg
			if _, ok := m["narrative"]; ok {
				m["narrative"] = "デスク：「" + msg + "」"
			}
		}
	})
}
