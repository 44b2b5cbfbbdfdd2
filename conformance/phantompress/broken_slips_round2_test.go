package phantompress

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"unicode/utf8"

	harness "github.com/agentgames/conformance/conformance/tamper"
)

// The targets of the second round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// roundTwoSlips are the second round's fresh slips: limits refused at
// their exact bound or taken one past it, documented refusals under
// another status, a header missing on one route only, a stale
// leaderboard, a meta-action that costs AP.
func roundTwoSlips() []slip {
	return []slip{
		{"a name of 1 character refused", "PP-REGISTER", func() http.Handler {
			return bodyEdit(http.MethodPost, "/register", func(m map[string]any) {
				if s, ok := m["name"].(string); ok && utf8.RuneCountInString(s) == 1 {
					m["name"] = ""
				}
			})
		}},
		{"budget_turns 1 refused", "PP-RUN-BUDGET-REQUIRED", func() http.Handler {
			return bodyEdit(http.MethodPost, "/runs", func(m map[string]any) {
				if m["budget_turns"] == float64(1) {
					m["budget_turns"] = 0
				}
			})
		}},
		{"budget_turns 201 taken for 200", "PP-RUN-BUDGET-REQUIRED", func() http.Handler {
			return bodyEdit(http.MethodPost, "/runs", func(m map[string]any) {
				if m["budget_turns"] == float64(201) {
					m["budget_turns"] = 200
				}
			})
		}},
		{"a comment of exactly 500 characters refused", "PP-COMMENT-LENGTH", func() http.Handler {
			return bodyEdit(http.MethodPost, "/action", func(m map[string]any) {
				if s, ok := m["arg"].(string); ok && m["action"] == "comment" && utf8.RuneCountInString(s) == 500 {
					m["arg"] = s + "。"
				}
			})
		}},
		{"the 100th comment refused", "PP-COMMENT", hundredthCommentRefused},
		{"a second review accepted", "PP-REVIEW", func() http.Handler {
			return harness.Responses(ppRef(), func(r *http.Request, st *int, m map[string]any) {
				if m["code"] == "already_reviewed" {
					*st = http.StatusCreated
					replaceWith(m, map[string]any{"run_id": runOfPath(r.URL.Path), "review": map[string]any{"text": "replaced"}})
				}
			})
		}},
		{"a malformed body answered 422", "PP-ERR-400", malformedAnswered422},
		{"another agent's run answered 401", "PP-ERR-403", func() http.Handler {
			return harness.Responses(ppRef(), harness.Recode("forbidden", http.StatusUnauthorized, "forbidden"))
		}},
		{"a missing Authorization answered 400", "PP-ERR-401", func() http.Handler {
			return harness.Responses(ppRef(), func(r *http.Request, st *int, m map[string]any) {
				if m["code"] == "unauthorized" && r.Header.Get("Authorization") == "" {
					*st, m["code"] = http.StatusBadRequest, "bad_request"
				}
			})
		}},
		{"the leaderboard served from its first read", "PP-LEADERBOARD", staleLeaderboard},
		{"status costs 1 AP", "PP-AP-ZERO", func() http.Handler { return apOffsetAfter("status", -1) }},
	}
}

// roundTwoNeighbours are the second round's faithful readings: a
// leaderboard cached until the next finished run, and a second review
// refused 400 (the seed names no status for it).
func roundTwoNeighbours() []neighbour {
	return []neighbour{
		{"a leaderboard cached until a run ends", []string{"PP-LEADERBOARD"}, cachedLeaderboard},
		{"a second review refused 400", []string{"PP-REVIEW"}, func() http.Handler {
			return harness.Responses(ppRef(), harness.Recode("already_reviewed", http.StatusBadRequest, "already_reviewed"))
		}},
	}
}

// staleLeaderboard answers every leaderboard read with the first one it
// served for the same query: a cache never invalidated by a finished run.
func staleLeaderboard() http.Handler { return leaderboardCache(false) }

// cachedLeaderboard serves the leaderboard from a cache that every action
// answer showing an ended run clears: a faithful cache.
func cachedLeaderboard() http.Handler { return leaderboardCache(true) }

// leaderboardCache serves the leaderboard from a cache per query, cleared
// by an ended run's action answer when clears is set.
func leaderboardCache(clears bool) http.Handler {
	var mu sync.Mutex
	cache := map[string][]byte{}
	inner := harness.Responses(ppRef(), func(r *http.Request, _ *int, m map[string]any) {
		if st, ok := m["state"].(map[string]any); ok && clears && isAction(r) && st["status"] != "active" {
			mu.Lock()
			clear(cache)
			mu.Unlock()
		}
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/leaderboard") {
			inner.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		body, ok := cache[r.URL.RawQuery]
		mu.Unlock()
		if !ok {
			rec := httptest.NewRecorder()
			inner.ServeHTTP(rec, r)
			if rec.Code != http.StatusOK {
				copyResponse(w, rec)
				return
			}
			body = rec.Body.Bytes()
			mu.Lock()
			cache[r.URL.RawQuery] = body
			mu.Unlock()
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
}

// runCreation429 answers a run creation refused for the daily write
// limit without its Retry-After, the other write routes keeping it (round
// 2: in quotaCases, which reaches the limit with --exhaust-quotas).
func runCreation429() http.Handler {
	return headerDropped(ppRef(), "Retry-After", func(r *http.Request, st int) bool {
		return st == http.StatusTooManyRequests && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/runs")
	})
}

// malformedAnswered422 answers 422 where the reference refuses an action
// body that is no JSON object with 400: the decoder's error mapped to
// Unprocessable Entity.
func malformedAnswered422() http.Handler {
	return harness.Wrap(ppRef(), func(r *http.Request, body []byte) []byte {
		var m map[string]any
		if isAction(r) && json.Unmarshal(body, &m) != nil {
			r.Header.Set("X-Slip-Malformed", "1")
		}
		return body
	}, func(r *http.Request, st *int, _ map[string]any) {
		if r.Header.Get("X-Slip-Malformed") != "" && *st == http.StatusBadRequest {
			*st = http.StatusUnprocessableEntity
		}
	})
}

// hundredthCommentRefused refuses a run's 100th comment as over the limit:
// a count compared with >= after it was incremented.
func hundredthCommentRefused() http.Handler {
	var mu sync.Mutex
	n := map[string]int{}
	return harness.Wrap(ppRef(), func(r *http.Request, body []byte) []byte {
		var m map[string]any
		if !isAction(r) || json.Unmarshal(body, &m) != nil || m["action"] != "comment" {
			return body
		}
		s, _ := m["arg"].(string)
		if strings.TrimSpace(s) == "" || utf8.RuneCountInString(s) > 500 {
			return body
		}
		id := runOfPath(r.URL.Path)
		mu.Lock()
		defer mu.Unlock()
		if n[id]++; n[id] < 100 {
			return body
		}
		n[id]--
		m["arg"] = strings.Repeat("x", 501)
		r.Header.Set("X-Slip-Limit", "1")
		out, _ := json.Marshal(m)
		return out
	}, func(r *http.Request, _ *int, m map[string]any) {
		if r.Header.Get("X-Slip-Limit") != "" {
			m["code"], m["error"] = "comment_limit", "comment は1つの run で 100 回までです"
		}
	})
}

// headerDropped serves h, leaving the header named out of the answers
// when reports true: a header written by one route's handler and
// forgotten by another.
func headerDropped(h http.Handler, name string, when func(r *http.Request, status int) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if when(r, rec.Code) {
			rec.Header().Del(name)
		}
		copyResponse(w, rec)
	})
}
