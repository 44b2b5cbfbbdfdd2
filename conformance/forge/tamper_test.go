package forge_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/reference/forge"
	"github.com/agentgames/conformance/reference/forge/dsl"
	"github.com/agentgames/conformance/reference/forge/server"
	"github.com/agentgames/conformance/reference/skeleton"
)

// ref is an unmodified reference server, or one with a broken DSL.
func ref(d dsl.Dialect) http.Handler {
	return server.New(server.Options{Config: skeleton.Config{Seed: 5}, Dialect: d})
}

// stoppedRef is the unmodified reference with a clock that stands still,
// so its per-agent limiter never refills (FORGE-REF-BUDGETS): a burst
// meets the limit at its 121st read however slowly a loaded machine
// sends it, and the check it serves never hangs on the runner's speed.
func stoppedRef() http.Handler {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return server.New(server.Options{Config: skeleton.Config{Seed: 5, Now: func() time.Time { return at }}})
}

// tamper is a target that edits requests before the reference sees them
// and JSON answers (and their status) before the runner does. skip, when
// set, answers instead of the reference.
type tamper struct {
	h    http.Handler
	req  func(r *http.Request, body []byte) []byte
	resp func(r *http.Request, status *int, m map[string]any)
	skip func(r *http.Request, body []byte) (int, any, bool)
	hdr  func(r *http.Request, h http.Header)
}

func (s tamper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if s.skip != nil {
		if status, v, ok := s.skip(r, body); ok {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_ = json.NewEncoder(w).Encode(v)
			return
		}
	}
	if s.req != nil {
		body = s.req(r, body)
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, r)
	out, status := rec.Body.Bytes(), rec.Code
	var m map[string]any
	if s.resp != nil && json.Unmarshal(out, &m) == nil && m != nil {
		s.resp(r, &status, m)
		out, _ = json.Marshal(m)
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	if s.hdr != nil {
		s.hdr(r, w.Header())
	}
	w.Header().Del("Content-Length")
	w.WriteHeader(status)
	_, _ = w.Write(out)
}

func is(r *http.Request, method, suffix string) bool {
	return r.Method == method && strings.HasSuffix(r.URL.Path, suffix)
}

// answers rewrites the JSON answers of one endpoint.
func answers(method, suffix string, edit func(status *int, m map[string]any)) http.Handler {
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, st *int, m map[string]any) {
		if is(r, method, suffix) {
			edit(st, m)
		}
	}}
}

// acceptsCode turns a refusal with code into a fake publication: a
// platform that skips one validation.
func acceptsCode(code string) http.Handler {
	return answers(http.MethodPost, "/api/levels", func(st *int, m map[string]any) {
		if e, ok := m["error"].(map[string]any); ok && e["code"] == code {
			*st = 201
			delete(m, "error")
			m["publication"] = map[string]any{"levelId": "fake", "position": 99}
		}
	})
}

// missing answers 404 on one path.
func missing(suffix string) http.Handler {
	return tamper{h: ref(dsl.Dialect{}), skip: func(r *http.Request, _ []byte) (int, any, bool) {
		return 404, map[string]any{"error": map[string]any{"code": "NOT_FOUND", "message": "gone"}}, strings.HasSuffix(r.URL.Path, suffix)
	}}
}

// seedTitle returns the title and rules of a seed position.
func seedLevel(position int) (string, string) {
	raw, _ := forge.SeedPackages()
	if position < 1 || position > len(raw) {
		return "", ""
	}
	var p struct {
		Public struct{ Title, Rules string } `json:"public"`
	}
	_ = json.Unmarshal(raw[position-1], &p)
	return p.Public.Title, p.Public.Rules
}

// exposesNext adds the next level's title and rules to every progress.
func exposesNext() http.Handler {
	return answers(http.MethodGet, "/api/progress", func(st *int, m map[string]any) {
		if p, ok := m["chainProgress"].(float64); ok {
			t, rules := seedLevel(int(p) + 2)
			m["upcoming"] = map[string]any{"title": t, "rules": rules}
		}
	})
}

// retryAppends turns an idempotent retry into a new level: the retried
// body gets a new id and title and a new key.
func retryAppends() http.Handler {
	var mu sync.Mutex
	seen := map[string]int{}
	return tamper{h: ref(dsl.Dialect{}), req: func(r *http.Request, body []byte) []byte {
		if !is(r, http.MethodPost, "/api/levels") {
			return body
		}
		mu.Lock()
		defer mu.Unlock()
		key := r.Header.Get("Idempotency-Key")
		seen[key]++
		if seen[key] == 1 {
			return body
		}
		var p map[string]any
		if json.Unmarshal(body, &p) != nil {
			return body
		}
		n := strings.Repeat("x", seen[key])
		p["id"] = p["id"].(string) + n
		p["public"].(map[string]any)["title"] = "again " + n
		r.Header.Set("Idempotency-Key", key+n)
		out, _ := json.Marshal(p)
		return out
	}}
}

// globalKeys scopes Idempotency-Keys to the platform, not the agent: a
// key is replayed for whoever used it first.
func globalKeys() http.Handler {
	var mu sync.Mutex
	owner := map[string]string{}
	return tamper{h: ref(dsl.Dialect{}), req: func(r *http.Request, body []byte) []byte {
		if is(r, http.MethodPost, "/api/levels") {
			mu.Lock()
			defer mu.Unlock()
			key := r.Header.Get("Idempotency-Key")
			if o, ok := owner[key]; ok {
				r.Header.Set("Authorization", o)
			} else {
				owner[key] = r.Header.Get("Authorization")
			}
		}
		return body
	}}
}

// keysWithDifficulty keys idempotency on the raw body: a retry with
// another difficulty is another key.
func keysWithDifficulty() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), req: func(r *http.Request, body []byte) []byte {
		var p map[string]any
		if is(r, http.MethodPost, "/api/levels") && json.Unmarshal(body, &p) == nil {
			if d, ok := p["difficulty"].(float64); ok && d != 3 {
				r.Header.Set("Idempotency-Key", r.Header.Get("Idempotency-Key")+"-d")
			}
		}
		return body
	}}
}

// lenientKeys accepts any Idempotency-Key by mapping it to a valid one.
func lenientKeys() http.Handler {
	return tamper{h: ref(dsl.Dialect{}), req: func(r *http.Request, body []byte) []byte {
		if k := r.Header.Get("Idempotency-Key"); is(r, http.MethodPost, "/api/levels") && !forge.ValidKey(k) {
			mapped := "mapped-" + strings.Map(func(c rune) rune {
				if c < 0x21 || c > 0x7e {
					return 'x'
				}
				return c
			}, k)
			r.Header.Set("Idempotency-Key", mapped[:min(len(mapped), 100)])
		}
		return body
	}}
}

// stealsAuth serves unauthenticated calls as an agent of its own.
func stealsAuth() http.Handler {
	var once sync.Once
	var key string
	inner := ref(dsl.Dialect{})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() {
			rec := httptest.NewRecorder()
			inner.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/forge/api/agents", strings.NewReader(`{"name":"thief"}`)))
			var reg struct{ APIKey string }
			_ = json.Unmarshal(rec.Body.Bytes(), &reg)
			key = reg.APIKey
		})
		if a := r.Header.Get("Authorization"); a == "" || strings.Contains(a, "not_a_key") {
			r.Header.Set("Authorization", "Bearer "+key)
		}
		inner.ServeHTTP(w, r)
	})
}

// judge remembers each session's position and challenge inputs and
// computes the right outputs with the seed oracles.
type judge struct {
	mu       sync.Mutex
	sessions map[string]sessionSeen
}

type sessionSeen struct {
	position   int
	challenges [][]int64
}

func (j *judge) see(m map[string]any) {
	raw, _ := json.Marshal(m)
	var s struct {
		SessionID       string    `json:"sessionId"`
		Position        int       `json:"position"`
		ChallengeInputs [][]int64 `json:"challengeInputs"`
	}
	if json.Unmarshal(raw, &s) == nil && s.SessionID != "" {
		j.mu.Lock()
		defer j.mu.Unlock()
		j.sessions[s.SessionID] = sessionSeen{s.Position, s.ChallengeInputs}
	}
}

// right returns the right outputs of a submit's session as JSON values.
func (j *judge) right(r *http.Request) ([]any, bool) {
	parts := strings.Split(r.URL.Path, "/")
	j.mu.Lock()
	s, ok := j.sessions[parts[len(parts)-2]]
	j.mu.Unlock()
	raw, _ := forge.SeedPackages()
	if !ok || s.position < 1 || s.position > len(raw) {
		return nil, false
	}
	var p struct {
		Private struct {
			Oracle dsl.Program `json:"oracle"`
		} `json:"private"`
	}
	_ = json.Unmarshal(raw[s.position-1], &p)
	var out []any
	for _, in := range s.challenges {
		v, _ := dsl.Eval(p.Private.Oracle, in)
		var x any
		b, _ := json.Marshal(v)
		_ = json.Unmarshal(b, &x)
		out = append(out, x)
	}
	return out, true
}

// judged is a target whose submissions are rewritten by fix, which gets
// the submitted and the right outputs and returns what the engine sees;
// answer may then edit the verdict the runner gets.
func judged(fix func(sent, right []any) []any, answer func(m map[string]any)) http.Handler {
	j := &judge{sessions: map[string]sessionSeen{}}
	return tamper{h: ref(dsl.Dialect{}),
		req: func(r *http.Request, body []byte) []byte {
			if !is(r, http.MethodPost, "/submit") {
				return body
			}
			var sub struct {
				Outputs []any `json:"outputs"`
			}
			right, ok := j.right(r)
			if json.Unmarshal(body, &sub) != nil || !ok {
				return body
			}
			out, _ := json.Marshal(map[string]any{"outputs": fix(sub.Outputs, right)})
			return out
		},
		resp: func(r *http.Request, _ *int, m map[string]any) {
			if is(r, http.MethodPost, "/api/sessions") {
				j.see(m)
			}
			if is(r, http.MethodPost, "/submit") && answer != nil {
				answer(m)
			}
		}}
}

// canonical spells a JSON value canonically.
func canonical(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// multiset judges outputs in any order: a permutation of the right
// outputs is passed on as the right outputs.
func multiset() http.Handler {
	return judged(func(sent, right []any) []any {
		if len(sent) != len(right) {
			return sent
		}
		count := map[string]int{}
		for _, v := range right {
			count[canonical(v)]++
		}
		for _, v := range sent {
			count[canonical(v)]--
		}
		for _, n := range count {
			if n != 0 {
				return sent
			}
		}
		return right
	}, nil)
}

// wrongAdvances credits every submission but still says it was wrong.
func wrongAdvances() http.Handler {
	return judged(func(_, right []any) []any { return right }, func(m map[string]any) { m["correct"] = false })
}

// ignoresDisable is a reference whose Go-only disable switch does nothing.
type ignoresDisable struct{ http.Handler }

func (ignoresDisable) SetEnabled(int, bool) bool { return true }

// controlCases break the embedded reference for the @control rules.
func controlCases() []harness.Case {
	return []harness.Case{
		{Name: "sessions never expire", Rule: "FORGE-EXPIRY", Reference: func(cfg suite.ReferenceConfig) http.Handler {
			return harness.Responses(server.New(server.Options{Config: cfg}), func(r *http.Request, st *int, m map[string]any) {
				if e, ok := m["error"].(map[string]any); ok && e["code"] == "SESSION_EXPIRED" {
					*st = 200
					delete(m, "error")
					m["output"] = 0
				}
			})
		}},
		{Name: "disabled levels are still served", Rule: "FORGE-DISABLED-SKIP", Reference: func(cfg suite.ReferenceConfig) http.Handler {
			return ignoresDisable{server.New(server.Options{Config: cfg})}
		}},
		{Name: "a repair is refused as a duplicate", Rule: "FORGE-REPAIR-APPENDS", Reference: func(cfg suite.ReferenceConfig) http.Handler {
			inner := server.New(server.Options{Config: cfg})
			return tamper{h: inner, skip: func(r *http.Request, body []byte) (int, any, bool) {
				return 409, map[string]any{"error": map[string]any{"code": "DUPLICATE_CONTENT", "message": "refused"}},
					is(r, http.MethodPost, "/api/levels") && strings.Contains(string(body), `-r"`)
			}}
		}},
	}
}

// ranksByQueries breaks ties between equal chain progress by the number of
// queries each agent spent: query efficiency affects rank.
func ranksByQueries() http.Handler {
	var mu sync.Mutex
	queries := map[string]int{}  // by name
	names := map[string]string{} // Authorization -> name
	inner := ref(dsl.Dialect{})
	return tamper{h: inner,
		req: func(r *http.Request, body []byte) []byte {
			if is(r, http.MethodPost, "/query") {
				mu.Lock()
				queries[names[r.Header.Get("Authorization")]]++
				mu.Unlock()
			}
			return body
		},
		resp: func(r *http.Request, _ *int, m map[string]any) {
			mu.Lock()
			defer mu.Unlock()
			if is(r, http.MethodPost, "/api/agents") {
				if k, ok := m["apiKey"].(string); ok {
					names["Bearer "+k], _ = m["name"].(string)
				}
			}
			if is(r, http.MethodGet, "/api/leaderboards") {
				s := m["solvers"].([]any)
				sort.SliceStable(s, func(i, j int) bool {
					a, b := s[i].(map[string]any), s[j].(map[string]any)
					if a["chainProgress"] != b["chainProgress"] {
						return a["chainProgress"].(float64) > b["chainProgress"].(float64)
					}
					return queries[a["name"].(string)] < queries[b["name"].(string)]
				})
				for i, row := range s {
					row.(map[string]any)["rank"] = i + 1
				}
			}
		}}
}

// appendsRejectedDuplicates answers a duplicate's 409 but appends a copy
// of it all the same.
func appendsRejectedDuplicates() http.Handler {
	inner := ref(dsl.Dialect{})
	n := 0
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec := httptest.NewRecorder()
		r.Body = io.NopCloser(bytes.NewReader(body))
		inner.ServeHTTP(rec, r)
		if is(r, http.MethodPost, "/api/levels") && strings.Contains(rec.Body.String(), "DUPLICATE_") {
			var p map[string]any
			if json.Unmarshal(body, &p) == nil {
				n++
				p["id"] = p["id"].(string) + "-dup" + strings.Repeat("x", n)
				p["public"].(map[string]any)["title"] = "stored anyway " + strings.Repeat("x", n)
				again, _ := json.Marshal(p)
				r2 := httptest.NewRequest(http.MethodPost, r.URL.Path, bytes.NewReader(again))
				r2.Header = r.Header.Clone()
				r2.Header.Set("Idempotency-Key", "dup-key-"+strings.Repeat("x", n+8))
				inner.ServeHTTP(httptest.NewRecorder(), r2)
			}
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}
