package forge_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/agentgames/conformance/reference/forge/dsl"
)

// The targets of the fifth round of slipCases and faithfulNeighbours
// (broken_slips_test.go; docs/detection.md): the tables stay there, the
// middleware lives here. The three DSL slips are dsl.Dialect flags.

// hiddenUnbounded publishes a package whose hidden inputs leave its input
// domain: the bounds check reads the examples only, so the reference is
// handed the hidden inputs clamped into the domain, as the unchecked
// store would keep them (FORGE-VALID-BOUNDS).
func hiddenUnbounded() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), req: func(r *http.Request, body []byte) []byte {
		var p map[string]any
		if !is(r, http.MethodPost, "/api/levels") || json.Unmarshal(body, &p) != nil {
			return body
		}
		pub, _ := p["public"].(map[string]any)
		priv, _ := p["private"].(map[string]any)
		dom, _ := pub["inputDomain"].(map[string]any)
		hidden, _ := priv["hiddenInputs"].([]any)
		lo, okLo := dom["minValue"].(float64)
		hi, okHi := dom["maxValue"].(float64)
		minLen, _ := dom["minLength"].(float64)
		maxLen, _ := dom["maxLength"].(float64)
		if !okLo || !okHi || lo > hi || minLen > maxLen || minLen < 1 {
			return body
		}
		for i, h := range hidden {
			in, _ := h.([]any)
			for len(in) < int(minLen) {
				in = append(in, lo)
			}
			if len(in) > int(maxLen) {
				in = in[:int(maxLen)]
			}
			for k, v := range in {
				if x, ok := v.(float64); ok {
					in[k] = min(max(x, lo), hi)
				}
			}
			hidden[i] = in
		}
		out, _ := json.Marshal(p)
		return out
	}}
}

// sessionsByID finds a session by its id alone, never comparing its
// agent with the caller's key: another agent's session id queries and
// submits as if its owner sent them (FORGE-NO-LEVEL-SELECTION).
func sessionsByID() http.Handler {
	var mu sync.Mutex
	owner := map[string]string{}
	return tamper{h: ref(dsl.Dialect{}),
		req: func(r *http.Request, body []byte) []byte {
			parts := strings.Split(r.URL.Path, "/")
			if r.Method != http.MethodPost || len(parts) < 2 || !strings.Contains(r.URL.Path, "/api/sessions/") {
				return body
			}
			mu.Lock()
			defer mu.Unlock()
			if auth, ok := owner[parts[len(parts)-2]]; ok {
				r.Header.Set("Authorization", auth)
			}
			return body
		},
		resp: func(r *http.Request, _ *int, m map[string]any) {
			if id, ok := m["sessionId"].(string); ok && is(r, http.MethodPost, "/api/sessions") {
				mu.Lock()
				owner[id] = r.Header.Get("Authorization")
				mu.Unlock()
			}
		}}
}

// prefixJudged judges a submission on the outputs it holds: a loop over
// the outputs sent, not over the challenge inputs, so a short (even an
// empty) submission whose outputs are right so far is correct
// (FORGE-SUBMIT-ADVANCES).
func prefixJudged() http.Handler {
	return judged(func(sent, right []any) []any {
		if len(sent) >= len(right) {
			return sent
		}
		return append(append([]any{}, sent...), right[len(sent):]...)
	}, nil)
}

// boardsKeepOldNames shows each agent on the public boards under the
// nickname it registered with: the rows read a copy of the name taken at
// registration, which a rename never updates (FORGE-NICKNAME-PATCH).
func boardsKeepOldNames() http.Handler {
	var mu sync.Mutex
	registered := map[string]string{} // Authorization -> registered nickname
	first := map[string]string{}      // current nickname -> registered one
	return bodied(func(r *http.Request, body []byte, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		var p struct{ Name string }
		switch {
		case is(r, http.MethodPost, "/api/agents") && *st/100 == 2:
			k, _ := m["apiKey"].(string)
			registered["Bearer "+k], _ = m["name"].(string)
		case is(r, http.MethodPatch, "/api/agent") && *st == 200 && json.Unmarshal(body, &p) == nil:
			if reg := registered[r.Header.Get("Authorization")]; reg != "" && reg != p.Name {
				first[p.Name] = reg
			}
		case is(r, http.MethodGet, "/api/leaderboards"):
			for _, board := range []string{"solvers", "authors", "firstSolves", "recentSolves"} {
				rows, _ := m[board].([]any)
				for _, row := range rows {
					if o, ok := row.(map[string]any); ok {
						if n, ok := o["name"].(string); ok && first[n] != "" {
							o["name"] = first[n]
						}
					}
				}
			}
		}
	})
}

// authorTiesByRow numbers the authors' rows 1, 2, 3 whatever their
// accepted levels: the solvers' tie rule forgotten on the second board
// (FORGE-AUTHOR-RANK). The deployment has history, one earlier author
// with one level, as a live one does: the runner's one level ties it.
func authorTiesByRow() http.Handler {
	t := tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, _ *int, m map[string]any) {
		rows, _ := m["authors"].([]any)
		for i, row := range rows {
			if o, ok := row.(map[string]any); ok && is(r, http.MethodGet, "/api/leaderboards") {
				o["rank"] = i + 1
			}
		}
	}}
	t.h = withEarlierAuthor(t.h)
	return t
}

// withEarlierAuthor is h after an earlier author registered and published
// one level (a shift, then a sort, which the kit's solver infers): a
// deployment with history, whose authors' board is not the runner's alone.
func withEarlierAuthor(h http.Handler) http.Handler {
	call := func(method, path, key string, body any) map[string]any {
		raw, _ := json.Marshal(body)
		r := httptest.NewRequest(method, path, bytes.NewReader(raw))
		r.Header.Set("Content-Type", "application/json")
		if key != "" {
			r.Header.Set("Authorization", "Bearer "+key)
			r.Header.Set("Idempotency-Key", "earlier-author-level-1")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		var m map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &m)
		if rec.Code/100 != 2 {
			panic("withEarlierAuthor: " + method + " " + path + ": " + rec.Body.String())
		}
		return m
	}
	key, _ := call(http.MethodPost, "/api/agents", "", map[string]string{"name": "earlier-author"})["apiKey"].(string)
	oracle := dsl.Program{Steps: []dsl.Step{{Op: "map", Fn: "add", Arg: dsl.I(7)}, {Op: "sort"}}}
	var examples []any
	for _, in := range [][]int64{{3, -1, 2}, {7}} {
		out, _ := dsl.Eval(oracle, in)
		examples = append(examples, map[string]any{"input": in, "output": out})
	}
	call(http.MethodPost, "/api/levels", key, map[string]any{
		"id": "earlier-author-1",
		"public": map[string]any{"title": "An earlier level", "rules": "Published before the run by another author.",
			"inputDomain": map[string]any{"minLength": 1, "maxLength": 6, "minValue": -50, "maxValue": 50}, "examples": examples},
		"private": map[string]any{"oracle": oracle, "hiddenInputs": [][]int64{{5, -3, 9, 1, 0}, {4, 4, -8, 2, 30}, {-7, 1, 2, 3, -40}}},
	})
	return h
}

// rejectionsCounted counts an author's submitted packages, accepted or
// refused by validation, on the authors' board: the count taken when a
// package arrives, before it is judged (FORGE-AUTHOR-RANK).
func rejectionsCounted() http.Handler {
	var mu sync.Mutex
	names := map[string]string{} // Authorization -> nickname
	refused := map[string]int{}  // nickname -> packages refused
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		auth := r.Header.Get("Authorization")
		switch {
		case is(r, http.MethodPost, "/api/agents") && *st/100 == 2:
			if k, ok := m["apiKey"].(string); ok {
				names["Bearer "+k], _ = m["name"].(string)
			}
		case is(r, http.MethodPatch, "/api/agent") && *st == 200:
			if n, ok := m["name"].(string); ok {
				refused[n] = refused[names[auth]]
				names[auth] = n
			}
		case is(r, http.MethodPost, "/api/levels") && *st/100 == 4 && *st != 401 && *st != 429 && names[auth] != "":
			if e, ok := m["error"].(map[string]any); ok && !strings.HasPrefix(e["code"].(string), "IDEMPOTENCY") {
				refused[names[auth]]++
			}
		case is(r, http.MethodGet, "/api/leaderboards"):
			rows, _ := m["authors"].([]any)
			seen := map[string]bool{}
			for _, row := range rows {
				o := row.(map[string]any)
				n, _ := o["name"].(string)
				seen[n] = true
				if a, ok := o["acceptedLevels"].(float64); ok {
					o["acceptedLevels"] = a + float64(refused[n])
				}
			}
			for n, c := range refused {
				if !seen[n] && c > 0 {
					rows = append(rows, map[string]any{"rank": len(rows) + 1, "name": n, "acceptedLevels": c})
				}
			}
			m["authors"] = rows
		}
	}}
}

// activityFromZero numbers the activity arrays' stages from 0, the index
// of the chain's slice rather than its position (FORGE-ACTIVITY-POSITION-ONLY).
func activityFromZero() http.Handler {
	return answers(http.MethodGet, "/api/leaderboards", func(_ *int, m map[string]any) {
		for _, board := range []string{"levels", "firstSolves", "recentSolves"} {
			rows, _ := m[board].([]any)
			for _, row := range rows {
				if o, ok := row.(map[string]any); ok {
					if p, ok := o["position"].(float64); ok {
						o["position"] = p - 1
					}
				}
			}
		}
	})
}

// keyAsCookie sets the Bearer key as a cookie on every authenticated
// answer: a session cookie carrying the credential back in a header, where
// no body shows it (FORGE-KEY-ONCE).
func keyAsCookie() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), hdr: func(r *http.Request, h http.Header) {
		if k, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && k != "" {
			h.Add("Set-Cookie", "forge_key="+k+"; Path=/; HttpOnly")
		}
	}}
}

// frontierReopens opens, at the frontier, a session on the last level the
// agent played again: the current level clamped to the chain's tail
// instead of none (FORGE-AT-FRONTIER).
func frontierReopens() http.Handler {
	var mu sync.Mutex
	last := map[string]map[string]any{}
	n := 0
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, st *int, m map[string]any) {
		if !is(r, http.MethodPost, "/api/sessions") {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		auth := r.Header.Get("Authorization")
		if e, ok := m["error"].(map[string]any); ok && e["code"] == "AT_FRONTIER" && last[auth] != nil {
			delete(m, "error")
			n++
			for k, v := range last[auth] {
				m[k] = v
			}
			m["sessionId"] = "ses_tail" + strings.Repeat("x", n)
			*st = 201
			return
		}
		if *st == 201 {
			last[auth] = map[string]any{}
			for k, v := range m {
				last[auth][k] = v
			}
		}
	}}
}

// plainTooMany answers the stopped reference's 429s as a proxy in front of
// it does: Retry-After kept, the body a line of text, not the JSON error
// (FORGE-RATE-LIMIT fixes the status and the header; the envelope is
// FORGE-REF-ERROR-CODES').
func plainTooMany() http.Handler {
	h := stoppedRef()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		if rec.Code != http.StatusTooManyRequests {
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Del("Content-Length")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte("Too Many Requests\n"))
	})
}

// opaqueCookie sets a session cookie of its own on every authenticated
// answer: an opaque id, not the key, which no rule forbids.
func opaqueCookie() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), hdr: func(r *http.Request, h http.Header) {
		if r.Header.Get("Authorization") != "" {
			h.Add("Set-Cookie", "forge_sid=sid-0123456789abcdef; Path=/; HttpOnly")
		}
	}}
}

// othersSessionForbidden refuses another agent's session 403 FORBIDDEN
// where the reference answers 404 SESSION_NOT_FOUND: the seed fixes no
// refusal.
func othersSessionForbidden() http.Handler {
	return answers(http.MethodPost, "/query", func(st *int, m map[string]any) {
		if e, ok := m["error"].(map[string]any); ok && e["code"] == "SESSION_NOT_FOUND" {
			*st, e["code"] = http.StatusForbidden, "FORBIDDEN"
		}
	})
}

// shortJudgedWrong judges a submission short of outputs as a wrong one
// (200, correct false, the session ended) where the reference refuses it
// 400: both leave the progress where it was.
func shortJudgedWrong() http.Handler {
	j := &judge{sessions: map[string]sessionSeen{}}
	return tamper{h: ref(dsl.Dialect{}),
		req: func(r *http.Request, body []byte) []byte {
			var sub struct {
				Outputs []any `json:"outputs"`
			}
			right, ok := j.right(r)
			if !is(r, http.MethodPost, "/submit") || !ok || json.Unmarshal(body, &sub) != nil || len(sub.Outputs) >= len(right) {
				return body
			}
			for len(sub.Outputs) < len(right) {
				sub.Outputs = append(sub.Outputs, nil)
			}
			out, _ := json.Marshal(sub)
			return out
		},
		resp: func(r *http.Request, _ *int, m map[string]any) {
			if is(r, http.MethodPost, "/api/sessions") {
				j.see(m)
			}
		}}
}
