package forge_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"sync"

	"github.com/agentgames/conformance/reference/forge/dsl"
)

// The targets of the seventh round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, the middleware lives here.

// sessionBraceRefused refuses the exact body {} on POST /api/sessions as
// a malformed body: a handler that wants the empty body alone
// (FORGE-SESSION-EMPTY-BODY).
func sessionBraceRefused() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), skip: func(r *http.Request, body []byte) (int, any, bool) {
		return 400, map[string]any{"error": map[string]any{"code": "INVALID_BODY", "message": "no body expected"}},
			is(r, http.MethodPost, "/api/sessions") && strings.TrimSpace(string(body)) == "{}"
	}}
}

// keysGlobal keeps Idempotency-Keys in one table for every agent: a second
// agent's equal key replays the first agent's publication
// (FORGE-IDEMPOTENCY-SCOPE).
func keysGlobal() http.Handler {
	var mu sync.Mutex
	first := map[string]map[string]any{}
	by := map[string]string{}
	return tamper{h: ref(dsl.Dialect{}),
		skip: func(r *http.Request, _ []byte) (int, any, bool) {
			mu.Lock()
			defer mu.Unlock()
			k := r.Header.Get("Idempotency-Key")
			m, ok := first[k]
			return 201, m, ok && is(r, http.MethodPost, "/api/levels") && by[k] != r.Header.Get("Authorization")
		},
		resp: func(r *http.Request, st *int, m map[string]any) {
			mu.Lock()
			defer mu.Unlock()
			k := r.Header.Get("Idempotency-Key")
			if _, seen := first[k]; !seen && k != "" && is(r, http.MethodPost, "/api/levels") && *st == 201 {
				first[k], by[k] = maps.Clone(m), r.Header.Get("Authorization")
			}
		}}
}

// deleteDisables answers DELETE on a level 204: an operator's disable
// route left on the public API (FORGE-NO-DISABLE-API).
func deleteDisables() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), skip: func(r *http.Request, _ []byte) (int, any, bool) {
		return 204, nil, r.Method == http.MethodDelete && strings.HasPrefix(r.URL.Path[strings.Index(r.URL.Path, "/api/"):], "/api/levels/")
	}}
}

// submitBeforeAuth looks the session up before the key: a submission
// without Authorization is 404 SESSION_NOT_FOUND, not 401
// (FORGE-AUTH-REQUIRED).
func submitBeforeAuth() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), skip: func(r *http.Request, _ []byte) (int, any, bool) {
		return 404, map[string]any{"error": map[string]any{"code": "SESSION_NOT_FOUND", "message": "no such session"}},
			(is(r, http.MethodPost, "/submit") || is(r, http.MethodPost, "/query")) && r.Header.Get("Authorization") == ""
	}}
}

// oracleCachedByLength caches a session's answers by the probe's length:
// the second probe of a length is answered with the first one's output
// (FORGE-ORACLE-DETERMINISTIC).
func oracleCachedByLength() http.Handler {
	var mu sync.Mutex
	lens := perRequest[int]{}
	cache := map[string]any{}
	return tamper{h: ref(dsl.Dialect{}),
		req: func(r *http.Request, body []byte) []byte {
			var q struct{ Input []json.RawMessage }
			if is(r, http.MethodPost, "/query") && json.Unmarshal(body, &q) == nil {
				lens.put(r, len(q.Input))
			}
			return body
		},
		resp: func(r *http.Request, st *int, m map[string]any) {
			n, ok := lens.take(r)
			if !ok || *st != 200 {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			k := fmt.Sprintf("%s#%d", r.URL.Path, n)
			if out, seen := cache[k]; seen {
				m["output"] = out
			} else {
				cache[k] = m["output"]
			}
		}}
}

// perRequest holds a value a tamper's req hook read off a request for its
// resp hook, safe for concurrent requests.
type perRequest[T any] struct {
	mu sync.Mutex
	m  map[*http.Request]T
}

func (p *perRequest[T]) put(r *http.Request, v T) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[*http.Request]T{}
	}
	p.m[r] = v
}

// take returns and forgets r's value.
func (p *perRequest[T]) take(r *http.Request) (T, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v, ok := p.m[r]
	delete(p.m, r)
	return v, ok
}

// budgetAsRateLimit answers the spent query budget as a rate limit, 429
// with a Retry-After: a budget a retry would refill (FORGE-QUERY-BUDGET).
func budgetAsRateLimit() http.Handler {
	return tamper{h: ref(dsl.Dialect{}),
		resp: func(r *http.Request, st *int, m map[string]any) {
			if e, ok := m["error"].(map[string]any); ok && is(r, http.MethodPost, "/query") && e["code"] == "QUERY_BUDGET_EXHAUSTED" {
				*st, e["code"] = 429, "RATE_LIMITED"
			}
		},
		hdr: func(r *http.Request, h http.Header) {
			if is(r, http.MethodPost, "/query") && h.Get("Retry-After") == "" {
				h.Set("Retry-After", "1")
			}
		}}
}

// takenEchoesHolder answers a registration of a taken nickname 409 with
// the holder's agent, apiKey and all (FORGE-KEY-UNRECOVERABLE).
func takenEchoesHolder() http.Handler {
	var mu sync.Mutex
	keys := map[string]any{}
	names := perRequest[string]{}
	return tamper{h: ref(dsl.Dialect{}),
		req: func(r *http.Request, body []byte) []byte {
			var reg struct{ Name string }
			if is(r, http.MethodPost, "/api/agents") && json.Unmarshal(body, &reg) == nil {
				names.put(r, reg.Name)
			}
			return body
		},
		resp: func(r *http.Request, st *int, m map[string]any) {
			name, ok := names.take(r)
			if !ok {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if k := registeredKey(m); k != nil && *st < 300 {
				keys[name] = k
			} else if k, held := keys[name]; held && *st == 409 {
				m["agent"] = map[string]any{"name": name, "apiKey": k}
			}
		}}
}

// registeredKey is the apiKey of a registration answer, at its top or under agent.
func registeredKey(m map[string]any) any {
	if k, ok := m["apiKey"]; ok {
		return k
	}
	if a, ok := m["agent"].(map[string]any); ok {
		return a["apiKey"]
	}
	return nil
}

// progressDifficulty tells the current level's legacy difficulty in the
// progress read (FORGE-LEGACY-DIFFICULTY-HIDDEN).
func progressDifficulty() http.Handler {
	return answers(http.MethodGet, "/api/progress", func(_ *int, m map[string]any) {
		m["currentDifficulty"] = 2
	})
}

// emptyNameGenerated registers an empty nickname under a generated one
// instead of refusing it (FORGE-NICKNAME-LENGTH).
func emptyNameGenerated() http.Handler {
	n := 0
	var mu sync.Mutex
	return tamper{h: ref(dsl.Dialect{}), req: func(r *http.Request, body []byte) []byte {
		var reg map[string]any
		if !is(r, http.MethodPost, "/api/agents") || json.Unmarshal(body, &reg) != nil || reg["name"] != "" {
			return body
		}
		mu.Lock()
		n++
		reg["name"] = fmt.Sprintf("agent-%d", n)
		mu.Unlock()
		body, _ = json.Marshal(reg)
		return body
	}}
}

// solversNumbered numbers the solvers' board by row, so solvers with equal
// chain progress get ranks 1, 2, 3 (FORGE-RANK-TIES).
func solversNumbered() http.Handler {
	return answers(http.MethodGet, "/api/leaderboards", func(_ *int, m map[string]any) {
		rows, _ := m["solvers"].([]any)
		for i, row := range rows {
			if o, ok := row.(map[string]any); ok {
				o["rank"] = i + 1
			}
		}
	})
}

// authorFromPackage takes an author field in a package (the reference's
// schema refuses one, so it is lifted off before the reference sees it)
// and names the publication's author from it, not from the key
// (FORGE-AUTHOR-BOUND).
func authorFromPackage() http.Handler {
	claimed := perRequest[any]{}
	return tamper{h: ref(dsl.Dialect{}),
		req: func(r *http.Request, body []byte) []byte {
			var pkg map[string]any
			if is(r, http.MethodPost, "/api/levels") && json.Unmarshal(body, &pkg) == nil && pkg["author"] != nil {
				claimed.put(r, pkg["author"])
				delete(pkg, "author")
				body, _ = json.Marshal(pkg)
			}
			return body
		},
		resp: func(r *http.Request, st *int, m map[string]any) {
			a, ok := claimed.take(r)
			if pub, isPub := m["publication"].(map[string]any); ok && isPub && *st/100 == 2 {
				pub["author"] = a
			}
		}}
}

// positionAfterIncrement answers a publication's position one past the
// tail it took: the chain's length read after the append, plus one
// (FORGE-POSITION-TAIL).
func positionAfterIncrement() http.Handler {
	return answers(http.MethodPost, "/api/levels", func(st *int, m map[string]any) {
		if pub, ok := m["publication"].(map[string]any); ok && *st/100 == 2 {
			if p, ok := pub["position"].(float64); ok {
				pub["position"] = p + 1
			}
		}
	})
}
