package bounty_test

import (
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/reference/pow"
)

// The targets of the second round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// bodied is h behind resp, which sees each request's body beside its
// answer.
func bodied(h http.Handler, resp func(r *http.Request, body []byte, st *int, m map[string]any)) http.Handler {
	return harness.Wrap(h, func(r *http.Request, body []byte) []byte {
		r.Header.Set("X-Slip-Body", string(body))
		return body
	}, func(r *http.Request, st *int, m map[string]any) { resp(r, []byte(r.Header.Get("X-Slip-Body")), st, m) })
}

// zeroBits counts the leading zero bits of sha256(s).
func zeroBits(s string) int {
	sum := sha256.Sum256([]byte(s))
	return pow.LeadingZeroBits(sum[:])
}

// refusesExactProofs refuses a registration whose proof has exactly
// pow_bits leading zero bits: "more than" where the seed says "at least".
func refusesExactProofs(h http.Handler) http.Handler {
	var mu sync.Mutex
	powBits := map[string]int{}
	return bodied(h, func(r *http.Request, body []byte, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if t, ok := m["reg_token"].(string); ok && at(r, http.MethodPost, "/register/challenge") {
			b, _ := m["pow_bits"].(float64)
			powBits[t] = int(b)
		}
		var p struct {
			RegToken string `json:"reg_token"`
			Nonce    string `json:"nonce"`
		}
		if at(r, http.MethodPost, "/register") && m["ok"] == true && json.Unmarshal(body, &p) == nil &&
			zeroBits(p.RegToken+p.Nonce) == powBits[p.RegToken] {
			*st = http.StatusBadRequest
			for k := range m {
				delete(m, k)
			}
			m["ok"], m["code"], m["reason"] = false, "bad_pow", "the proof does not have enough leading zero bits"
		}
	})
}

// withSecrets is h with every agent_secret /register answers remembered,
// for show to put on a later answer: secretOf names the one an agent got.
func withSecrets(h http.Handler, show func(r *http.Request, m map[string]any, secretOf func(id string) string)) http.Handler {
	var mu sync.Mutex
	secrets := map[string]string{}
	return harness.Responses(h, func(r *http.Request, _ *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		id, _ := m["agent_id"].(string)
		if s, ok := m["agent_secret"].(string); ok && at(r, http.MethodPost, "/register") {
			secrets[id] = s
		}
		show(r, m, func(id string) string { return secrets[id] })
	})
}

// secretOnProfile shows an agent's agent_secret, nested, on its public
// profile: the profile built from the stored record.
func secretOnProfile(h http.Handler) http.Handler {
	return withSecrets(h, func(r *http.Request, m map[string]any, secretOf func(string) string) {
		id, _ := m["agent_id"].(string)
		if r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/agents/") && secretOf(id) != "" {
			m["credentials"] = map[string]any{"agent_secret": secretOf(id)}
		}
	})
}

// cachedRead serves a read's first answer again for a minute: a cache no
// write invalidates.
func cachedRead(suffix string) func(h http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		var mu sync.Mutex
		var first []byte
		var at0 time.Time
		return harness.Responses(h, func(r *http.Request, st *int, m map[string]any) {
			if !at(r, http.MethodGet, suffix) || *st != http.StatusOK {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if first != nil && time.Since(at0) < time.Minute {
				for k := range m {
					delete(m, k)
				}
				_ = json.Unmarshal(first, &m)
				return
			}
			first, at0 = mustJSON(m), time.Now()
		})
	}
}

// mustJSON is v's JSON text.
func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// contactsInMetrics lists the live listings' contacts in the round's
// metrics, beside their count.
func contactsInMetrics(h http.Handler) http.Handler {
	var mu sync.Mutex
	contacts := map[string]string{}
	return bodied(h, func(r *http.Request, body []byte, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		var p struct {
			AgentID string `json:"agent_id"`
			Contact string `json:"contact"`
		}
		if at(r, http.MethodPost, "/peers") && *st/100 == 2 && json.Unmarshal(body, &p) == nil && p.Contact != "" {
			contacts[p.AgentID] = p.Contact
		}
		if peers, ok := m["peers"].(map[string]any); ok && at(r, http.MethodGet, "/metrics") {
			var list []string
			for _, c := range contacts {
				list = append(list, c)
			}
			peers["contacts"] = list
		}
	})
}

// claimsOutliveDelisting keeps a delisted agent's working_on claim in the
// board's intents: the claims kept apart from the listings and never
// cleared with them.
func claimsOutliveDelisting(h http.Handler) http.Handler {
	var mu sync.Mutex
	claimed := map[string]string{} // agent_id -> the share it last claimed
	gone := map[string]string{}
	return bodied(h, func(r *http.Request, body []byte, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		var p struct {
			AgentID string `json:"agent_id"`
			Remove  bool   `json:"remove"`
		}
		if at(r, http.MethodPost, "/peers") && *st/100 == 2 && json.Unmarshal(body, &p) == nil && p.Remove && claimed[p.AgentID] != "" {
			gone[p.AgentID] = claimed[p.AgentID]
		}
		in, _ := m["intents"].(map[string]any)
		by, _ := in["by_share"].(map[string]any)
		if by == nil || !at(r, http.MethodGet, "/peers") {
			return
		}
		for share, ids := range by {
			list, _ := ids.([]any)
			for _, id := range list {
				claimed[id.(string)] = share
			}
		}
		for id, share := range gone {
			list, _ := by[share].([]any)
			by[share] = append(list, id)
		}
	})
}

// goneWhenClosed answers a closed round's read at suffix 410, as its
// manifest does: "closed" read as "gone" on one route.
func goneWhenClosed(suffix string) func(h http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return harness.Responses(h, func(r *http.Request, st *int, m map[string]any) {
			if at(r, http.MethodGet, suffix) && m["open"] == false {
				*st = http.StatusGone
				for k := range m {
					delete(m, k)
				}
				m["ok"], m["code"], m["reason"] = false, "round_closed", "this round is over"
			}
		})
	}
}

// namesCut cuts a profile name past 32 characters to 32 before the
// reference sees it: a deployment that truncates instead of refusing.
func namesCut(h http.Handler) http.Handler {
	return harness.Requests(h, func(r *http.Request, body []byte) []byte {
		var p map[string]any
		if at(r, http.MethodPost, "/agents/profile") && json.Unmarshal(body, &p) == nil {
			if n, ok := p["name"].(string); ok && len([]rune(n)) > 32 {
				p["name"] = string([]rune(n)[:32])
				body, _ = json.Marshal(p)
			}
		}
		return body
	})
}

// unclaimedSharesListed lists every share in the intents block, a share
// nobody claims with no claimants.
func unclaimedSharesListed(h http.Handler) http.Handler {
	return harness.Responses(h, func(r *http.Request, _ *int, m map[string]any) {
		in, _ := m["intents"].(map[string]any)
		if by, ok := in["by_share"].(map[string]any); ok && at(r, http.MethodGet, "/peers") {
			for s := 1; s <= 5; s++ {
				if _, ok := by[strconv.Itoa(s)]; !ok {
					by[strconv.Itoa(s)] = []any{}
				}
			}
		}
	})
}

// registrationNotice answers a registration with a notice and the
// pow_bits the proof met beside the agent_id and its secret.
func registrationNotice(h http.Handler) http.Handler {
	return harness.Responses(h, func(r *http.Request, _ *int, m map[string]any) {
		if at(r, http.MethodPost, "/register") && m["ok"] == true {
			m["notice"], m["pow_bits"] = "keep agent_secret: it is shown once", 12
		}
	})
}

// standingsRanked gives each standing its rank and a display name.
func standingsRanked(h http.Handler) http.Handler {
	return harness.Responses(h, func(r *http.Request, _ *int, m map[string]any) {
		list, _ := m["standings"].([]any)
		for i, row := range list {
			if o, ok := row.(map[string]any); ok && at(r, http.MethodGet, "/leaderboard.json") {
				o["rank"], o["display_name"] = i+1, "agent "+strconv.Itoa(i+1)
			}
		}
	})
}
