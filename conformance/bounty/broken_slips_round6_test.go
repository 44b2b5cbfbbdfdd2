package bounty_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"

	harness "github.com/agentgames/conformance/conformance/tamper"
)

// The targets of the sixth round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// undersizedUncounted drops the combines refused for too few agents or
// shares from the metrics: a counter placed after the size checks, so
// only the combines that reached the reconstruction are counted.
func undersizedUncounted(m map[string]any) {
	c, ok := m["combine_attempts"].(map[string]any)
	if !ok {
		return
	}
	by, _ := c["rejected_by_code"].(map[string]any)
	total, _ := c["total"].(float64)
	for _, code := range []string{"too_few_agents", "too_few_shares"} {
		if n, ok := by[code].(float64); ok {
			total -= n
			delete(by, code)
		}
	}
	c["total"] = total
}

// pairsOrdered counts the pairs who had won together before as ordered
// pairs: a double loop over the winners without i < j.
func pairsOrdered(m map[string]any) {
	if rc, ok := m["repeated_cooperation"].(map[string]any); ok {
		if n, ok := rc["pairs_won_together_before"].(float64); ok {
			rc["pairs_won_together_before"] = 2 * n
		}
	}
}

// solveWithoutClaim serves solve moves without their claim: a move struct
// whose claim is filled in only on the claim-then-solve path.
func solveWithoutClaim(m map[string]any) {
	if n, ok := m["next_move"].(map[string]any); ok && n["move"] == "solve" {
		delete(n, "claim")
	}
}

// joinUnflagged serves the join branch's list move without join=true:
// the branch reusing the bottleneck holder's list move.
func joinUnflagged(m map[string]any) {
	if n, ok := m["next_move"].(map[string]any); ok && n["move"] == "list" && n["join"] == true {
		delete(n, "join")
	}
}

// profileBody is the part of a profile edit the slips below read.
type profileBody struct {
	AgentID   string  `json:"agent_id"`
	Name      *string `json:"name"`
	NotifyURL *string `json:"notify_url"`
}

// notifyRefusesHTTPOnly refuses a notify_url only when it is http://, so
// any other scheme (or none) is taken: the check written as "not http"
// rather than "https". The taken URL is dropped here; the edit answers
// 200 as the slip's platform would.
func notifyRefusesHTTPOnly(h http.Handler) http.Handler {
	return harness.Requests(h, func(r *http.Request, body []byte) []byte {
		var p map[string]any
		if !at(r, http.MethodPost, "/agents/profile") || json.Unmarshal(body, &p) != nil {
			return body
		}
		u, ok := p["notify_url"].(string)
		if ok && u != "" && !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			delete(p, "notify_url")
			body, _ = json.Marshal(p)
		}
		return body
	})
}

// ownNameTaken refuses an agent's edit to the name it already holds as
// name_taken: the uniqueness lookup that forgets to skip the editor's own
// entry.
func ownNameTaken(h http.Handler) http.Handler {
	var mu sync.Mutex
	held := map[string]string{} // agent_id -> the name its last accepted edit set
	type pending struct{ agent, name string }
	key := new(int)
	record := harness.Responses(h, func(r *http.Request, st *int, m map[string]any) {
		if p, ok := r.Context().Value(key).(pending); ok && *st/100 == 2 {
			mu.Lock()
			held[p.agent] = p.name
			mu.Unlock()
		}
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !at(r, http.MethodPost, "/agents/profile") {
			h.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var p profileBody
		if json.Unmarshal(body, &p) != nil || p.Name == nil {
			h.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		mine := held[p.AgentID] != "" && strings.EqualFold(held[p.AgentID], *p.Name)
		mu.Unlock()
		if mine {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusConflict)
			_, _ = w.Write([]byte(`{"ok":false,"code":"name_taken","reason":"that name is taken"}`))
			return
		}
		record.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), key, pending{p.AgentID, *p.Name})))
	})
}

// refusedSolveShowsShare answers a refused solve of a share someone has
// already solved with that share's share_hex: the refusal built from the
// same struct as the acceptance, its share filled in before the check.
func refusedSolveShowsShare(h http.Handler) http.Handler {
	var mu sync.Mutex
	shares := map[string]any{} // challenge path + share index -> share_hex
	key := new(int)
	edit := harness.Responses(h, func(r *http.Request, st *int, m map[string]any) {
		k, ok := r.Context().Value(key).(string)
		if !ok {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		switch s, known := shares[k]; {
		case *st/100 == 2 && m["share_hex"] != nil:
			shares[k] = m["share_hex"]
		case *st/100 == 4 && known:
			m["share_hex"] = s
		}
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !at(r, http.MethodPost, "/solve") {
			h.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var s struct {
			Share json.Number `json:"share_index"`
		}
		_ = json.Unmarshal(body, &s)
		k := r.URL.Path + "#" + s.Share.String()
		edit.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), key, k)))
	})
}

// everyCodeListed lists every combine refusal code the reference knows in
// rejected_by_code, 0 for those the round never saw: a faithful layout.
func everyCodeListed(m map[string]any) {
	c, ok := m["combine_attempts"].(map[string]any)
	if !ok {
		return
	}
	by, _ := c["rejected_by_code"].(map[string]any)
	if by == nil {
		by = map[string]any{}
		c["rejected_by_code"] = by
	}
	for _, code := range []string{"too_few_agents", "too_few_shares", "unearned_share", "bad_reconstruction", "bad_request"} {
		if _, ok := by[code]; !ok {
			by[code] = 0
		}
	}
}

// refusalNamesItsShare answers a refused solve with a hint and a null
// share_hex, never the share: a faithful refusal built from the
// acceptance's struct with the share left out.
func refusalNamesItsShare(h http.Handler) http.Handler {
	return harness.Responses(h, func(r *http.Request, st *int, m map[string]any) {
		if at(r, http.MethodPost, "/solve") && *st/100 == 4 {
			m["hint"] = "the solution does not verify; GET the puzzle again"
			m["share_hex"] = nil
		}
	})
}
