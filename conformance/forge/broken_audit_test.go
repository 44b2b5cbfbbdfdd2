package forge_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/forge"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"

	"github.com/agentgames/conformance/reference/forge/dsl"
)

// auditCases are the broken references of the statement-by-statement
// audit: a level's private values or content leaked under innocent key
// names, which only a search by value catches (FORGE-PRIVATE-SERVER-ONLY,
// FORGE-CHAIN-SUMMARY); an oracle that answers a probe otherwise the second
// time; an author credited from the package; a reordered retry taken for
// a new request; keys refused at the contract's exact bounds.
func auditCases() []brokenCase {
	return []brokenCase{
		{"FORGE-PRIVATE-SERVER-ONLY", func() http.Handler {
			return leaksPublished(func(r *http.Request, m map[string]any, p published) {
				if is(r, http.MethodPost, "/api/sessions") && p.Private.HiddenInputs != nil {
					m["cases"] = p.Private.HiddenInputs
				}
			})
		}, true},
		{"FORGE-PRIVATE-SERVER-ONLY", func() http.Handler {
			return leaksPublished(func(r *http.Request, m map[string]any, p published) {
				if is(r, http.MethodPost, "/query") && p.Private.Oracle != nil {
					m["trace"] = string(p.Private.Oracle)
				}
			})
		}, true},
		{"FORGE-PRIVATE-SERVER-ONLY", func() http.Handler {
			return leaksPublished(func(r *http.Request, m map[string]any, p published) {
				if is(r, http.MethodGet, "/api/progress") && p.Private.Validation.Notes != "" {
					m["memo"] = "about the newest level: " + p.Private.Validation.Notes
				}
			})
		}, true},
		{"FORGE-CHAIN-SUMMARY", func() http.Handler {
			return leaksPublished(func(r *http.Request, m map[string]any, p published) {
				if is(r, http.MethodGet, "/api/chain") && p.Public.Title != "" {
					m["latest"] = map[string]any{"headline": p.Public.Title}
				}
			})
		}, true},
		{"FORGE-ORACLE-DETERMINISTIC", func() http.Handler {
			var mu sync.Mutex
			n := 0
			return answers(http.MethodPost, "/query", func(st *int, m map[string]any) {
				mu.Lock()
				defer mu.Unlock()
				if n++; *st == 200 && n%2 == 0 {
					m["output"] = []any{float64(n)} // every second answer is another
				}
			})
		}, false},
		{"FORGE-AUTHOR-BOUND", creditsNamedAuthor, true},
		{"FORGE-DSL-OVERFLOW-REJECTED", dialect(dsl.Dialect{SafeBelowMax: true}), false},
		{"FORGE-DSL-OVERFLOW-REJECTED", dialect(dsl.Dialect{Int64Overflow: true}), false},
		{"FORGE-IDEMPOTENT-REPLAY", func() http.Handler {
			return tamper{h: ref(dsl.Dialect{}), req: func(r *http.Request, body []byte) []byte {
				if is(r, http.MethodPost, "/api/levels") && strings.Contains(string(body), `" : `) {
					r.Header.Set("Idempotency-Key", r.Header.Get("Idempotency-Key")[:100]+"-bytes") // keyed on the raw bytes
				}
				return body
			}}
		}, true},
		{"FORGE-IDEMPOTENCY-KEY-FORMAT", func() http.Handler { return keysWithin(9, 128) }, false},
		{"FORGE-IDEMPOTENCY-KEY-FORMAT", func() http.Handler { return keysWithin(8, 100) }, true},
	}
}

// keysWithin refuses an Idempotency-Key outside [lo, hi] characters, as a
// deployment that misread the contract's 8..128 would.
func keysWithin(lo, hi int) http.Handler {
	return tamper{h: ref(dsl.Dialect{}), skip: func(r *http.Request, _ []byte) (int, any, bool) {
		k := r.Header.Get("Idempotency-Key")
		return 400, map[string]any{"error": map[string]any{"code": "INVALID_IDEMPOTENCY_KEY", "message": "bad key length"}},
			is(r, http.MethodPost, "/api/levels") && (len(k) < lo || len(k) > hi)
	}}
}

// creditsNamedAuthor takes a package's "author" field (dropping it before
// validation) and credits the accepted level to that agent in the author
// ranking, while the publication still names the key's agent.
func creditsNamedAuthor() http.Handler {
	var mu sync.Mutex
	named, credited := "", map[string]string{} // key's agent -> named author
	return tamper{h: ref(dsl.Dialect{}),
		req: func(r *http.Request, body []byte) []byte {
			if !is(r, http.MethodPost, "/api/levels") {
				return body
			}
			var m map[string]any
			if json.Unmarshal(body, &m) != nil {
				return body
			}
			mu.Lock()
			defer mu.Unlock()
			named, _ = m["author"].(string)
			delete(m, "author")
			out, _ := json.Marshal(m)
			return out
		},
		resp: func(r *http.Request, st *int, m map[string]any) {
			mu.Lock()
			defer mu.Unlock()
			if p, ok := m["publication"].(map[string]any); ok && is(r, http.MethodPost, "/api/levels") && named != "" {
				credited[p["author"].(string)] = named
			}
			if rows, ok := m["authors"].([]any); ok && is(r, http.MethodGet, "/api/leaderboards") {
				for _, row := range rows {
					if to, ok := credited[row.(map[string]any)["name"].(string)]; ok {
						row.(map[string]any)["name"] = to
					}
				}
			}
		}}
}

// published is the part of an accepted package a leaking target repeats.
type published struct {
	Public struct {
		Title string `json:"title"`
	} `json:"public"`
	Private struct {
		Oracle       json.RawMessage `json:"oracle"`
		HiddenInputs [][]int64       `json:"hiddenInputs"`
		Validation   struct {
			Notes string `json:"notes"`
		} `json:"validation"`
	} `json:"private"`
}

// leaksPublished is the reference that remembers the last package it
// accepted and lets leak copy some of it into later answers.
func leaksPublished(leak func(r *http.Request, m map[string]any, p published)) http.Handler {
	var mu sync.Mutex
	var last, pending published
	return tamper{h: ref(dsl.Dialect{}),
		req: func(r *http.Request, body []byte) []byte {
			if is(r, http.MethodPost, "/api/levels") {
				mu.Lock()
				pending = published{}
				_ = json.Unmarshal(body, &pending)
				mu.Unlock()
			}
			return body
		},
		resp: func(r *http.Request, st *int, m map[string]any) {
			mu.Lock()
			defer mu.Unlock()
			if is(r, http.MethodPost, "/api/levels") && *st/100 == 2 {
				last = pending
			}
			leak(r, m, last)
		}}
}

// TestLiveExpiryWaitsOutTheStatedLifetime runs FORGE-EXPIRY live with
// --long against a target whose sessions state a lifetime of one second
// and never end: the runner waits past the stated expiresAt and fails the
// rule; without --long the check skips naming the flag.
func TestLiveExpiryWaitsOutTheStatedLifetime(t *testing.T) {
	t.Parallel()
	target := answers(http.MethodPost, "/api/sessions", func(_ *int, m map[string]any) {
		if _, ok := m["expiresAt"]; ok {
			m["expiresAt"] = time.Now().Add(time.Second).UTC().Format(time.RFC3339Nano)
		}
	})
	srv := httptest.NewServer(target)
	defer srv.Close()
	for _, long := range []bool{true, false} {
		rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{forge.Protocol()}, Rules: []string{"FORGE-EXPIRY"},
			Target: srv.URL, Seed: 11, NoProperties: true, Long: long})
		if err != nil {
			t.Fatal(err)
		}
		want := verdict.Fail
		if !long {
			want = verdict.Skip
		}
		if len(rep.Results) != 1 || rep.Results[0].Status != want || (long && rep.Results[0].FailedRule != "FORGE-EXPIRY") {
			t.Errorf("long=%v: %+v, want one %s of FORGE-EXPIRY", long, rep.Results, want)
		}
	}
}
