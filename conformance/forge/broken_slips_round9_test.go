package forge_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/agentgames/conformance/reference/forge/dsl"
)

// The ninth round of slipCases and faithfulNeighbours
// (broken_slips_test.go; docs/detection.md): the rows after their "Round
// 9" comments, kept here with their middleware.

// roundNineSlips are the ninth round's rows of slipCases.
func roundNineSlips() []slip {
	return []slip{
		{"the query budget is counted per agent, not per session", "FORGE-QUERY-BUDGET", budgetPerAgent, false},
		{"the last query within the budget is refused", "FORGE-QUERY-BUDGET", lastQueryRefused, false},
		{"idempotent replays count on the authors' board", "FORGE-AUTHOR-RANK", replaysCounted, true},
		{"the solvers' board counts the author's skip as cleared", "FORGE-RANK-NO-SKIP-CREDIT", boardCreditsSkips, true},
		{"the content fingerprint covers the id, so a copy under a new id appends", "FORGE-NO-DUPLICATE-NEW-ID", fingerprintWithID, true},
		{"a correct submission leaves the agent's session open, and the next opening returns it", "FORGE-SUBMIT-UNLOCKS", sessionKeptOpen, false},
		{"outputs are judged as a multiset, so the right ones out of order clear", "FORGE-ORIGINAL-ORDER", judgedAsMultiset, false},
		{"solvers of equal progress are ranked by fewer queries", "FORGE-RANK-QUERY-EFFICIENCY", tiesByQueries, false},
	}
}

// roundNineNeighbours are the ninth round's rows of faithfulNeighbours.
func roundNineNeighbours() []faithfulNeighbour {
	return []faithfulNeighbour{
		{"query answers also tell the agent's queries over all its sessions", []string{"FORGE-QUERY-BUDGET", "FORGE-QUERY"}, agentTotalTold},
	}
}

// roundNineAuthoringNeighbours are the ninth round's rows of
// authoringNeighbours.
func roundNineAuthoringNeighbours() []faithfulNeighbour {
	return []faithfulNeighbour{
		{"the authors' board tells each author's idempotent retries apart", []string{"FORGE-AUTHOR-RANK", "FORGE-IDEMPOTENT-REPLAY", "FORGE-RANK-NO-SKIP-CREDIT"}, retriesTold},
	}
}

// agentTotalTold adds to every answered query the agent's queries over all
// its sessions, a descriptive count beside the session's own: the budget
// stays each session's (FORGE-QUERY-BUDGET leaves other counts open).
func agentTotalTold() http.Handler {
	var mu sync.Mutex
	total := map[string]float64{}
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, st *int, m map[string]any) {
		if !is(r, http.MethodPost, "/query") || *st != http.StatusOK {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		total[bearer(r)]++
		m["agentQueriesUsed"] = total[bearer(r)]
	}}
}

// retriesTold lists on each author's row the idempotent retries it made,
// apart from its accepted levels, which count each level once
// (FORGE-AUTHOR-RANK; a board may describe more than it ranks by).
func retriesTold() http.Handler {
	var mu sync.Mutex
	retries := map[string]float64{}
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, _ *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if pub, ok := m["publication"].(map[string]any); ok && is(r, http.MethodPost, "/api/levels") && m["idempotentReplay"] == true {
			name, _ := pub["author"].(string)
			retries[name]++
		}
		if !is(r, http.MethodGet, "/api/leaderboards") {
			return
		}
		rows, _ := m["authors"].([]any)
		for _, row := range rows {
			if o, ok := row.(map[string]any); ok {
				name, _ := o["name"].(string)
				o["idempotentRetries"] = retries[name]
			}
		}
	}}
}

// bearer is the key of a request's Authorization header.
func bearer(r *http.Request) string {
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
}

// budgetRefusal is the reference's refusal of a query past the budget.
func budgetRefusal() map[string]any {
	return map[string]any{"error": map[string]any{"code": "QUERY_BUDGET_EXHAUSTED", "message": "the agent's 24 queries are spent"}}
}

// budgetPerAgent keeps the query count on the agent, not the session: an
// agent's 25th answered query is refused, whichever session asks it
// (FORGE-QUERY-BUDGET, "each session has a query budget").
func budgetPerAgent() http.Handler {
	var mu sync.Mutex
	used := map[string]int{}
	return tamper{h: ref(dsl.Dialect{}), skip: func(r *http.Request, _ []byte) (int, any, bool) {
		mu.Lock()
		defer mu.Unlock()
		return 409, budgetRefusal(), is(r, http.MethodPost, "/query") && used[bearer(r)] >= 24
	}, resp: func(r *http.Request, st *int, _ map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if is(r, http.MethodPost, "/query") && *st == http.StatusOK {
			used[bearer(r)]++
		}
	}}
}

// lastQueryRefused refuses a session's 24th query, the last one within the
// budget: a count compared with >= budget-1 (FORGE-QUERY-BUDGET).
func lastQueryRefused() http.Handler {
	var mu sync.Mutex
	used := map[string]int{}
	return tamper{h: ref(dsl.Dialect{}), skip: func(r *http.Request, _ []byte) (int, any, bool) {
		mu.Lock()
		defer mu.Unlock()
		return 409, budgetRefusal(), is(r, http.MethodPost, "/query") && used[r.URL.Path] >= 23
	}, resp: func(r *http.Request, st *int, _ map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if is(r, http.MethodPost, "/query") && *st == http.StatusOK {
			used[r.URL.Path]++
		}
	}}
}

// replaysCounted adds every idempotent replay to its author's accepted
// levels on the authors' board: a counter bumped on every 2xx of POST
// /api/levels (FORGE-AUTHOR-RANK, idempotentRetriesCountSeparately false).
func replaysCounted() http.Handler {
	var mu sync.Mutex
	extra := map[string]float64{}
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if pub, ok := m["publication"].(map[string]any); ok && is(r, http.MethodPost, "/api/levels") && m["idempotentReplay"] == true {
			name, _ := pub["author"].(string)
			extra[name]++
		}
		if !is(r, http.MethodGet, "/api/leaderboards") {
			return
		}
		rows, _ := m["authors"].([]any)
		for _, row := range rows {
			if o, ok := row.(map[string]any); ok {
				if n, ok := o["acceptedLevels"].(float64); ok {
					o["acceptedLevels"] = n + extra[o["name"].(string)]
				}
			}
		}
	}}
}

// boardCreditsSkips books a solver's skips as clears on the solvers' board
// alone, its progress staying right: the row's clearedLevels copied from
// chainProgress (FORGE-RANK-NO-SKIP-CREDIT).
func boardCreditsSkips() http.Handler {
	return answers(http.MethodGet, "/api/leaderboards", func(_ *int, m map[string]any) {
		rows, _ := m["solvers"].([]any)
		for _, row := range rows {
			if o, ok := row.(map[string]any); ok && o["chainProgress"] != nil {
				o["clearedLevels"], o["skippedLevels"] = o["chainProgress"], 0
			}
		}
	})
}

// fingerprintWithID fingerprints a package with its id: a copy of an
// accepted package under a new id gets through, which the middleware plays
// by marking its title so the reference's own fingerprint differs
// (FORGE-NO-DUPLICATE-NEW-ID).
func fingerprintWithID() http.Handler {
	var mu sync.Mutex
	seen := map[string]any{}
	withoutID := func(body []byte) (string, map[string]any, bool) {
		var p map[string]any
		if json.Unmarshal(body, &p) != nil {
			return "", nil, false
		}
		id := p["id"]
		delete(p, "id")
		b, _ := json.Marshal(p)
		p["id"] = id
		return string(b), p, true
	}
	return tamper{h: ref(dsl.Dialect{}), req: func(r *http.Request, body []byte) []byte {
		if !is(r, http.MethodPost, "/api/levels") {
			return body
		}
		mu.Lock()
		defer mu.Unlock()
		fp, p, ok := withoutID(body)
		if !ok {
			return body
		}
		if id, ok := seen[fp]; !ok || id == p["id"] {
			seen[fp] = p["id"]
			return body
		}
		if pub, ok := p["public"].(map[string]any); ok && p["id"] != nil {
			if t, ok := pub["title"].(string); ok {
				pub["title"] = t + " (copy)"
				body, _ = json.Marshal(p)
			}
		}
		return body
	}}
}

// sessionKeptOpen returns an agent's open session when it opens another,
// and a correct submission does not close it: the first session opened
// after a clear is the cleared level's again (FORGE-SUBMIT-UNLOCKS).
func sessionKeptOpen() http.Handler {
	var mu sync.Mutex
	last, cleared := map[string][]byte{}, map[string]bool{}
	return tamper{h: ref(dsl.Dialect{}), resp: func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		k := bearer(r)
		switch {
		case is(r, http.MethodPost, "/submit") && m["correct"] == true:
			cleared[k] = true
		case is(r, http.MethodPost, "/api/sessions") && *st/100 == 2 && cleared[k] && last[k] != nil:
			cleared[k] = false
			for f := range m {
				delete(m, f)
			}
			_ = json.Unmarshal(last[k], &m)
		case is(r, http.MethodPost, "/api/sessions") && *st/100 == 2:
			last[k], _ = json.Marshal(m)
		}
	}}
}

// judgedAsMultiset judges a submission's outputs as a multiset: the right
// outputs in another order are put back in the challenge order before the
// reference judges them (FORGE-ORIGINAL-ORDER).
func judgedAsMultiset() http.Handler {
	j := &judge{sessions: map[string]sessionSeen{}}
	return tamper{h: ref(dsl.Dialect{}), req: func(r *http.Request, body []byte) []byte {
		var sub struct {
			Outputs []any `json:"outputs"`
		}
		right, ok := j.right(r)
		if !is(r, http.MethodPost, "/submit") || !ok || json.Unmarshal(body, &sub) != nil || !sameMultiset(sub.Outputs, right) {
			return body
		}
		out, _ := json.Marshal(map[string]any{"outputs": right})
		return out
	}, resp: func(r *http.Request, _ *int, m map[string]any) {
		if is(r, http.MethodPost, "/api/sessions") {
			j.see(m)
		}
	}}
}

// sameMultiset tells whether a and b hold the same values, counted, in any
// order, each compared by its JSON spelling.
func sameMultiset(a, b []any) bool {
	spell := func(vs []any) []string {
		out := make([]string, len(vs))
		for i, v := range vs {
			raw, _ := json.Marshal(v)
			out[i] = string(raw)
		}
		slices.Sort(out)
		return out
	}
	return len(a) == len(b) && slices.Equal(spell(a), spell(b))
}

// queryCounts counts each agent's answered queries, by the nickname its
// registration or last rename gave it.
type queryCounts struct {
	mu     sync.Mutex
	names  map[string]string
	byName map[string]int
}

// note records what one answer tells of an agent: a registration's
// nickname, a rename's, an answered query.
func (q *queryCounts) note(r *http.Request, body []byte, st int, m map[string]any) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var named struct{ Name string }
	switch {
	case is(r, http.MethodPost, "/api/agents") && st/100 == 2 && json.Unmarshal(body, &named) == nil:
		if k, ok := registeredKey(m).(string); ok {
			q.names[k] = named.Name
		}
	case is(r, http.MethodPatch, "/api/agent") && st/100 == 2 && json.Unmarshal(body, &named) == nil:
		q.names[bearer(r)] = named.Name
	case is(r, http.MethodPost, "/query") && st == http.StatusOK:
		q.byName[q.names[bearer(r)]]++
	}
}

// rerank ranks the solvers of equal chain progress apart, fewer queries
// first, from the best rank their group holds.
func (q *queryCounts) rerank(m map[string]any) {
	q.mu.Lock()
	defer q.mu.Unlock()
	rows, _ := m["solvers"].([]any)
	groups := map[float64][]map[string]any{}
	for _, row := range rows {
		if o, ok := row.(map[string]any); ok {
			p, _ := o["chainProgress"].(float64)
			groups[p] = append(groups[p], o)
		}
	}
	for _, g := range groups {
		best, _ := g[0]["rank"].(float64)
		sort.SliceStable(g, func(a, b int) bool {
			na, _ := g[a]["name"].(string)
			nb, _ := g[b]["name"].(string)
			return q.byName[na] < q.byName[nb]
		})
		for i, o := range g {
			o["rank"] = best + float64(i)
		}
	}
}

// tiesByQueries breaks the solvers' ties by the queries each spent, the
// fewer ranking better (FORGE-RANK-QUERY-EFFICIENCY).
func tiesByQueries() http.Handler {
	q := &queryCounts{names: map[string]string{}, byName: map[string]int{}}
	return bodied(func(r *http.Request, body []byte, st *int, m map[string]any) {
		q.note(r, body, *st, m)
		if is(r, http.MethodGet, "/api/leaderboards") {
			q.rerank(m)
		}
	})
}
