package bounty_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"

	harness "github.com/agentgames/conformance/conformance/tamper"
	rbounty "github.com/agentgames/conformance/reference/bounty"
)

// The targets of the ninth round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// capitalNoncesRefused refuses a nonce_hex written in capital hex digits:
// the verifier matching [0-9a-f]+ where the seed's submit is any "hex
// string" and bytes(nonce_hex) are the same bytes whatever the case.
func capitalNoncesRefused(h http.Handler) http.Handler {
	return hashSolves(h, func(_ rbounty.Puzzle, n string) (int, string, bool) {
		return http.StatusBadRequest, "bad_request", n != strings.ToLower(n)
	})
}

// emptyNotifyKept answers an edit setting notify_url to "" with success
// but keeps the URL on file: the empty string read as "field not sent",
// where the seed says "empty string clears it".
func emptyNotifyKept(h http.Handler) http.Handler {
	return harness.Wrap(h, func(r *http.Request, body []byte) []byte {
		var p map[string]any
		if at(r, http.MethodPost, "/agents/profile") && json.Unmarshal(body, &p) == nil && p["notify_url"] == "" {
			delete(p, "notify_url")
			return mustJSON(p)
		}
		return body
	}, func(*http.Request, *int, map[string]any) {})
}

// claimHistory remembers, by agent_id, every share a listing has claimed
// since its last clear, for movedClaimKept.
type claimHistory struct {
	mu  sync.Mutex
	got map[string][]int
}

// note records a peers POST body's working_on: a share is appended, null
// or a delisting forgets them all.
func (c *claimHistory) note(body []byte) {
	var p struct {
		AgentID   string          `json:"agent_id"`
		Remove    bool            `json:"remove"`
		WorkingOn json.RawMessage `json:"working_on"`
	}
	if json.Unmarshal(body, &p) != nil || p.AgentID == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	share, err := strconv.Atoi(string(p.WorkingOn))
	switch {
	case p.Remove || string(p.WorkingOn) == "null":
		delete(c.got, p.AgentID)
	case err == nil && share > 0:
		c.got[p.AgentID] = append(c.got[p.AgentID], share)
	}
}

// movedClaimKept moves a claim by adding the new share to the agent's
// claims without dropping the old one: the intents block keeps the
// claimant under every share it declared while its entry shows the last
// ("re-POST with a new working_on to move").
func movedClaimKept(h http.Handler) http.Handler {
	c := &claimHistory{got: map[string][]int{}}
	return bodied(h, func(r *http.Request, body []byte, st *int, m map[string]any) {
		if at(r, http.MethodPost, "/peers") && *st/100 == 2 {
			c.note(body)
		}
		in, _ := m["intents"].(map[string]any)
		by, _ := in["by_share"].(map[string]any)
		if by == nil || !at(r, http.MethodGet, "/peers") {
			return
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, e := range entries(r, m) {
			id, _ := e["agent_id"].(string)
			now, ok := e["working_on"].(float64)
			for _, s := range c.got[id] {
				if ok && int(now) != s {
					key := strconv.Itoa(s)
					list, _ := by[key].([]any)
					by[key] = append(list, id)
				}
			}
		}
	})
}

// solvePath matches a solve's path and captures its challenge_id.
var solvePath = regexp.MustCompile(`/challenge/([^/]+)/solve$`)

// closedRoundSolves verifies a solve of a closed round against that
// round's puzzle, remembered from its manifest, and answers a correct one
// with a share_hex: the round looked up by challenge_id without asking
// whether it is still open.
func closedRoundSolves(h http.Handler) http.Handler {
	var mu sync.Mutex
	puzzles := map[string][]rbounty.Puzzle{} // challenge_id -> its manifest's puzzles
	inner := harness.Responses(h, func(r *http.Request, st *int, m map[string]any) {
		cid, _ := m["challenge_id"].(string)
		if at(r, http.MethodGet, "/manifest") && *st == http.StatusOK && cid != "" {
			var doc struct {
				Puzzles []rbounty.Puzzle `json:"puzzles"`
			}
			_ = json.Unmarshal(mustJSON(m), &doc)
			mu.Lock()
			puzzles[cid] = doc.Puzzles
			mu.Unlock()
		}
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		sub := solvePath.FindStringSubmatch(r.URL.Path)
		var s struct {
			Share    int              `json:"share_index"`
			Solution rbounty.Solution `json:"solution"`
		}
		if r.Method != http.MethodPost || sub == nil || json.Unmarshal(body, &s) != nil {
			inner.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		inner.ServeHTTP(rec, r)
		mu.Lock()
		known := puzzles[sub[1]]
		mu.Unlock()
		for _, p := range known {
			if rec.Code == http.StatusGone && p.ShareIndex == s.Share && rbounty.Verify(p, s.Solution) == nil {
				w.Header().Set("Content-Type", "application/json")
				_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "share_hex": strings.Repeat("ab", 32) + "0" + strconv.Itoa(s.Share)})
				return
			}
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

// capitalPlaintextsRefused refuses a plaintext_hex in capital hex digits:
// a faithful neighbour, since "result hex == plaintext_hex" compares the
// result's hex (lower case as written) with the submitted string, and the
// seed leaves open whether another spelling of the same bytes counts.
func capitalPlaintextsRefused(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var s struct {
			Solution rbounty.Solution `json:"solution"`
		}
		if at(r, http.MethodPost, "/solve") && json.Unmarshal(body, &s) == nil && s.Solution.PlaintextHex != strings.ToLower(s.Solution.PlaintextHex) {
			refuseWith(w, http.StatusUnprocessableEntity, "wrong_solution")
			return
		}
		h.ServeHTTP(w, r)
	})
}

// oddNoncesRefused refuses a nonce_hex of an odd number of digits: a
// faithful neighbour, since bytes(nonce_hex) of an odd-length string is
// no byte string, so the seed leaves its verdict open.
func oddNoncesRefused(h http.Handler) http.Handler {
	return hashSolves(h, func(_ rbounty.Puzzle, n string) (int, string, bool) {
		return http.StatusBadRequest, "bad_request", len(n)%2 == 1
	})
}

// bodilessChallengesRefused answers a register_challenge POST without a
// body 400 bad_request: the handler decoding a JSON body it never needs,
// where the seed's flow is "POST register_challenge (no body)".
func bodilessChallengesRefused(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if at(r, http.MethodPost, "/register/challenge") && len(bytes.TrimSpace(body)) == 0 {
			refuse(w, http.StatusBadRequest, "bad_request", "invalid JSON body: EOF")
			return
		}
		h.ServeHTTP(w, r)
	})
}
