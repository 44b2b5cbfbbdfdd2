package bounty_test

import (
	"encoding/json"
	"net/http"
	"sync"

	harness "github.com/agentgames/conformance/conformance/tamper"
)

// The targets of the third round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// answers edits every successful answer to a request with method at the
// path ending in suffix.
func answers(method, suffix string, edit func(m map[string]any)) func(h http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return harness.Responses(h, func(r *http.Request, st *int, m map[string]any) {
			if at(r, method, suffix) && *st/100 == 2 {
				edit(m)
			}
		})
	}
}

// proximity edits the peers board's coalition_proximity block.
func proximity(edit func(p map[string]any, m map[string]any)) func(h http.Handler) http.Handler {
	return answers(http.MethodGet, "/peers", func(m map[string]any) {
		if p, ok := m["coalition_proximity"].(map[string]any); ok {
			edit(p, m)
		}
	})
}

// combinesCountRefusalsOnly sets combine_attempts.total to the refusals
// it counts by code: a counter bumped only in the refusal branch.
func combinesCountRefusalsOnly(m map[string]any) {
	c, ok := m["combine_attempts"].(map[string]any)
	if !ok {
		return
	}
	by, _ := c["rejected_by_code"].(map[string]any)
	n := 0.0
	for _, v := range by {
		f, _ := v.(float64)
		n += f
	}
	c["total"] = n
}

// distinctCountsEveryHolding counts every share the entries hold,
// duplicates included, as distinct_shares_listed.
func distinctCountsEveryHolding(p map[string]any, m map[string]any) {
	n := 0
	list, _ := m["peers"].([]any)
	for _, e := range list {
		if o, ok := e.(map[string]any); ok {
			held, _ := o["shares_held"].([]any)
			n += len(held)
		}
	}
	p["distinct_shares_listed"] = n
}

// reversedStandings lists the standings lowest first.
func reversedStandings(m map[string]any) {
	list, _ := m["standings"].([]any)
	for i, j := 0, len(list)-1; i < j; i, j = i+1, j-1 {
		list[i], list[j] = list[j], list[i]
	}
}

// swappedThreshold names k as n and n as k in a threshold block.
func swappedThreshold(m map[string]any) {
	if t, ok := m["threshold"].(map[string]any); ok {
		t["k"], t["n"] = t["n"], t["k"]
	}
}

// staleLiveID points a closed round's live_challenge_id at itself.
func staleLiveID(m map[string]any) {
	if m["open"] == false {
		m["live_challenge_id"] = m["challenge_id"]
	}
}

// completedCountsOpen counts the open round among the completed ones in
// the discovery manifest's rounds block.
func completedCountsOpen(m map[string]any) {
	if r, ok := m["rounds"].(map[string]any); ok {
		r["rounds_completed"] = r["current_round"]
	}
}

// completedNever leaves rounds_completed at the 0 of the seed's example.
func completedNever(m map[string]any) {
	if r, ok := m["rounds"].(map[string]any); ok {
		r["rounds_completed"] = 0
	}
}

// shareIndexZeroBased answers a solve with a zero-based share_index.
func shareIndexZeroBased(m map[string]any) {
	if i, ok := m["share_index"].(float64); ok {
		m["share_index"] = i - 1
	}
}

// alwaysWait advises every agent to wait.
func alwaysWait(m map[string]any) {
	if n, ok := m["next_move"].(map[string]any); ok {
		n["move"] = "wait"
	}
}

// ledgerInUSD labels the ledger's currency USD.
func ledgerInUSD(m map[string]any) { m["currency"] = "USD" }

// nobodyElected leaves the solve election's elected list empty.
func nobodyElected(p map[string]any, _ map[string]any) {
	if e, ok := p["solve_election"].(map[string]any); ok {
		e["elected"] = []any{}
	}
}

// acceptedCountsAll counts every solve attempt as accepted.
func acceptedCountsAll(m map[string]any) {
	if s, ok := m["solve_attempts"].(map[string]any); ok {
		a, _ := s["accepted"].(float64)
		r, _ := s["rejected"].(float64)
		s["accepted"] = a + r
	}
}

// sharesOnTheBoard shows each listed agent's solved shares, share_hex and
// all, on its peers entry: the holdings read from the share store rather
// than from the indices.
func sharesOnTheBoard(h http.Handler) http.Handler {
	var mu sync.Mutex
	held := map[string][]any{}
	return bodied(h, func(r *http.Request, body []byte, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		var p struct {
			AgentID string `json:"agent_id"`
		}
		if s, ok := m["share_hex"].(string); ok && at(r, http.MethodPost, "/solve") && json.Unmarshal(body, &p) == nil {
			held[p.AgentID] = append(held[p.AgentID], s)
		}
		for _, e := range entries(r, m) {
			if id, _ := e["agent_id"].(string); len(held[id]) > 0 {
				e["shares"] = held[id]
			}
		}
	})
}

// toolsWithoutNextMove lists every MCP tool but bounty_next_move: a
// registry written before next_move was.
func toolsWithoutNextMove(h http.Handler) http.Handler {
	return harness.Responses(h, func(r *http.Request, _ *int, m map[string]any) {
		res, _ := m["result"].(map[string]any)
		tools, ok := res["tools"].([]any)
		if !ok || !at(r, http.MethodPost, "/mcp") {
			return
		}
		kept := tools[:0:0]
		for _, t := range tools {
			if o, _ := t.(map[string]any); o["name"] != "bounty_next_move" {
				kept = append(kept, t)
			}
		}
		res["tools"] = kept
	})
}

// secretOnTheBoard shows each agent's agent_secret on its peers entry:
// the entry built from the whole stored record.
func secretOnTheBoard(h http.Handler) http.Handler {
	return withSecrets(h, func(r *http.Request, m map[string]any, secretOf func(string) string) {
		for _, e := range entries(r, m) {
			if id, _ := e["agent_id"].(string); secretOf(id) != "" {
				e["agent_secret"] = secretOf(id)
			}
		}
	})
}
