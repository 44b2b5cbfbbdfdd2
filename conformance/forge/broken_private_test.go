package forge_test

import (
	"encoding/json"
	"net/http"
	"sync"

	"github.com/agentgames/conformance/reference/forge/dsl"
)

// privateCases are broken references that leak an authored level's
// private values, or its content, under innocent key names: only a search
// by value catches them (FORGE-PRIVATE-SERVER-ONLY, FORGE-CHAIN-SUMMARY).
func privateCases() []brokenCase {
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
	}
}

// published is the part of an accepted package a leaking target repeats.
type published struct {
	Public struct {
		Title string `json:"title"`
	} `json:"public"`
	Private struct {
		Oracle       json.RawMessage `json:"oracle"`
		HiddenInputs [][]int64       `json:"hiddenInputs"`
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
