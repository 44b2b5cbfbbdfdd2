package forge_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/agentgames/conformance/reference/forge/dsl"
)

// The targets of the fourth round of slipCases and faithfulNeighbours
// (broken_slips_test.go; docs/detection.md): the tables stay there, the
// middleware lives here.

// tooLong is the refusal a nickname limit answers.
var tooLong = map[string]any{"error": map[string]any{"code": "NICKNAME_TOO_LONG", "message": "at most 40 characters"}}

// nicknamesInUTF16 refuses a nickname, registered or renamed to, of more
// than 40 UTF-16 code units: JavaScript's String.length in place of a
// code-point count, so a name of 40 astral code points is refused
// (FORGE-NICKNAME-LENGTH).
func nicknamesInUTF16() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), skip: func(r *http.Request, body []byte) (int, any, bool) {
		var reg struct{ Name string }
		named := is(r, http.MethodPost, "/api/agents") || is(r, http.MethodPatch, "/api/agent")
		long := named && json.Unmarshal(body, &reg) == nil && len(utf16.Encode([]rune(reg.Name))) > 40
		return 400, tooLong, long
	}}
}

// keysByPrefix finds the agent of a Bearer key by the key's first 16
// characters, as an index on a key prefix does when the full key is never
// compared after the look-up: a wrong key sharing a real key's prefix is
// taken as that key (FORGE-AUTH-REQUIRED).
func keysByPrefix() http.Handler {
	var mu sync.Mutex
	var keys []string
	return tamper{h: ref(dsl.Dialect{}),
		req: func(r *http.Request, body []byte) []byte {
			got := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
			mu.Lock()
			defer mu.Unlock()
			for _, k := range keys {
				if len(got) >= 16 && len(k) >= 16 && got[:16] == k[:16] {
					r.Header.Set("Authorization", "Bearer "+k)
				}
			}
			return body
		},
		resp: func(r *http.Request, _ *int, m map[string]any) {
			if k, ok := m["apiKey"].(string); ok && is(r, http.MethodPost, "/api/agents") {
				mu.Lock()
				keys = append(keys, k)
				mu.Unlock()
			}
		}}
}

// permutationsRefused refuses a probe holding a challenge input's values
// in another order as if it were that input: the inputs compared as sorted
// lists (a multiset), so a legal distinct probe goes unanswered
// (FORGE-QUERY).
func permutationsRefused() http.Handler {
	var mu sync.Mutex
	challenges := map[string][][]int64{}
	sorted := func(xs []int64) []int64 { return slices.Sorted(slices.Values(xs)) }
	return tamper{h: ref(dsl.Dialect{}),
		skip: func(r *http.Request, body []byte) (int, any, bool) {
			var q struct{ Input []int64 }
			if !is(r, http.MethodPost, "/query") || json.Unmarshal(body, &q) != nil {
				return 0, nil, false
			}
			mu.Lock()
			defer mu.Unlock()
			for _, c := range challenges[strings.TrimSuffix(r.URL.Path, "/query")] {
				if !slices.Equal(c, q.Input) && slices.Equal(sorted(c), sorted(q.Input)) {
					return 409, map[string]any{"error": map[string]any{"code": "CHALLENGE_INPUT_QUERY", "message": "a probe may not equal a challenge input"}}, true
				}
			}
			return 0, nil, false
		},
		resp: func(r *http.Request, _ *int, m map[string]any) {
			id, _ := m["sessionId"].(string)
			raw, _ := json.Marshal(m["challengeInputs"])
			var ins [][]int64
			if is(r, http.MethodPost, "/api/sessions") && id != "" && json.Unmarshal(raw, &ins) == nil {
				mu.Lock()
				challenges[strings.TrimSuffix(r.URL.Path, "/api/sessions")+"/api/sessions/"+id] = ins
				mu.Unlock()
			}
		}}
}

// frontierLate answers the clear of the last level with atFrontier false:
// the flag computed before the advance it answers (FORGE-AT-FRONTIER).
func frontierLate() http.Handler {
	return answers(http.MethodPost, "/submit", func(_ *int, m map[string]any) {
		if p, ok := m["progress"].(map[string]any); ok && p["atFrontier"] == true {
			p["atFrontier"] = false
		}
	})
}

// completedAreCleared states completedLevels as the solves alone, leaving
// the skips out: "completed" read as "cleared" (FORGE-SKIP-ACCOUNTING).
func completedAreCleared() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), resp: func(_ *http.Request, _ *int, m map[string]any) {
		for _, p := range []any{m, m["progress"]} {
			if p, ok := p.(map[string]any); ok && p["completedLevels"] != nil && p["clearedLevels"] != nil {
				p["completedLevels"] = p["clearedLevels"]
			}
		}
	}}
}

// replayAtTheTail answers a replay with a publication built afresh, at the
// position the next append would take: the replay path computes the
// position from the chain's length instead of returning the stored
// publication (FORGE-IDEMPOTENT-REPLAY).
func replayAtTheTail() http.Handler {
	var mu sync.Mutex
	seen := map[string]bool{}
	return answers(http.MethodPost, "/api/levels", func(st *int, m map[string]any) {
		p, ok := m["publication"].(map[string]any)
		id, _ := p["levelId"].(string)
		if !ok || *st/100 != 2 || id == "" {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if seen[id] {
			if n, ok := p["position"].(float64); ok {
				p["position"] = n + 1
			}
		}
		seen[id] = true
	})
}

// mismatchesAppended appends a package before it checks its examples, and
// refuses it EXAMPLE_MISMATCH without taking it back: the chain grows by
// each such refusal (FORGE-VALID-EXAMPLES).
func mismatchesAppended() http.Handler {
	var mu sync.Mutex
	n := 0
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, _ *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if e, ok := m["error"].(map[string]any); ok && is(r, http.MethodPost, "/api/levels") && e["code"] == "EXAMPLE_MISMATCH" {
			n++
		}
		if l, ok := m["length"].(float64); ok && is(r, http.MethodGet, "/api/chain") {
			m["length"] = l + float64(n)
		}
	}}
}

// progressTerse answers a correct submission with a progress holding
// chainProgress and currentLevel alone: the counts and atFrontier are the
// openapi's, and a count an answer leaves out is unchecked.
func progressTerse() http.Handler {
	return answers(http.MethodPost, "/submit", func(_ *int, m map[string]any) {
		if p, ok := m["progress"].(map[string]any); ok {
			for k := range p {
				if k != "chainProgress" && k != "currentLevel" {
					delete(p, k)
				}
			}
		}
	})
}

// withoutCompleted leaves completedLevels out of every progress: the
// contract says chainProgress equals it, not that a progress states both.
func withoutCompleted() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), resp: func(_ *http.Request, _ *int, m map[string]any) {
		for _, p := range []any{m, m["progress"]} {
			if p, ok := p.(map[string]any); ok {
				delete(p, "completedLevels")
			}
		}
	}}
}

// replayLikeTheFirst answers a replay 201 without the idempotentReplay
// flag, as the publication was first answered: the contract fixes the
// publication a replay returns, not its status or a flag.
func replayLikeTheFirst() http.Handler {
	return answers(http.MethodPost, "/api/levels", func(st *int, m map[string]any) {
		if _, ok := m["publication"]; ok && *st == 200 {
			*st = 201
		}
		delete(m, "idempotentReplay")
	})
}
