package forge_test

import (
	"encoding/json"
	"net/http"
	"sync"

	"github.com/agentgames/conformance/reference/forge/dsl"
)

// The targets of the third round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, the middleware lives here.

// remainingStale leaves a query answer's queriesRemaining at the budget:
// a derived count not recomputed after the query it answers
// (FORGE-QUERY-BUDGET).
func remainingStale() http.Handler {
	return answers(http.MethodPost, "/query", func(st *int, m map[string]any) {
		u, uok := m["queriesUsed"].(float64)
		left, lok := m["queriesRemaining"].(float64)
		if *st == 200 && uok && lok {
			m["queriesRemaining"] = u + left
		}
	})
}

// renameAnswersOldName answers a successful rename with the nickname the
// agent had before it: the answer built from the row read before the
// write (FORGE-NICKNAME-PATCH).
func renameAnswersOldName() http.Handler {
	var mu sync.Mutex
	names := map[string]string{}
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		name, _ := m["name"].(string)
		switch auth := r.Header.Get("Authorization"); {
		case is(r, http.MethodPost, "/api/agents") && *st/100 == 2:
			if k, ok := m["apiKey"].(string); ok {
				names["Bearer "+k] = name
			}
		case is(r, http.MethodPatch, "/api/agent") && *st == 200 && names[auth] != "":
			m["name"], names[auth] = names[auth], name
		}
	}}
}

// recodeStatus answers every status from of the stopped reference with to.
func recodeStatus(from, to int) http.Handler {
	return tamper{h: stoppedRef(), resp: func(_ *http.Request, st *int, _ map[string]any) {
		if *st == from {
			*st = to
		}
	}}
}

// ownNameTaken refuses a rename to the agent's current nickname as taken:
// a uniqueness test that does not exclude the agent itself
// (FORGE-NICKNAME-PATCH).
func ownNameTaken() http.Handler {
	var mu sync.Mutex
	names := map[string]string{}
	return tamper{h: ref(dsl.Dialect{}),
		skip: func(r *http.Request, body []byte) (int, any, bool) {
			var p struct{ Name string }
			mu.Lock()
			own := names[r.Header.Get("Authorization")]
			mu.Unlock()
			taken := is(r, http.MethodPatch, "/api/agent") && json.Unmarshal(body, &p) == nil && own != "" && p.Name == own
			return 409, map[string]any{"error": map[string]any{"code": "NICKNAME_TAKEN", "message": "the nickname is taken"}}, taken
		},
		resp: func(r *http.Request, st *int, m map[string]any) {
			mu.Lock()
			defer mu.Unlock()
			name, _ := m["name"].(string)
			switch {
			case is(r, http.MethodPost, "/api/agents") && *st/100 == 2:
				if k, ok := m["apiKey"].(string); ok {
					names["Bearer "+k] = name
				}
			case (is(r, http.MethodPatch, "/api/agent") || is(r, http.MethodGet, "/api/agent")) && *st == 200 && name != "":
				names[r.Header.Get("Authorization")] = name
			}
		}}
}

// renamesCut cuts a rename's nickname to 40 code points before the
// reference sees it: the limit enforced on registration only
// (FORGE-NICKNAME-LENGTH).
func renamesCut() http.Handler { return cutsNames(http.MethodPatch, "/api/agent") }

// submitLags answers a correct submission with its progress's field one
// less: a count read before the write it answers (FORGE-SUBMIT-ADVANCES).
func submitLags(field string) http.Handler {
	return answers(http.MethodPost, "/submit", func(_ *int, m map[string]any) {
		if p, ok := m["progress"].(map[string]any); ok && m["correct"] == true {
			if n, ok := p[field].(float64); ok {
				p[field] = n - 1
			}
		}
	})
}
