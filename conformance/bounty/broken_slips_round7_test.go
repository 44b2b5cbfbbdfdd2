package bounty_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	harness "github.com/agentgames/conformance/conformance/tamper"
	rbounty "github.com/agentgames/conformance/reference/bounty"
	"github.com/agentgames/conformance/reference/pow"
)

// The targets of the seventh round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// innerCall serves one request on h directly, as the slip's own code path
// would inside the platform, and decodes its JSON answer.
func innerCall(h http.Handler, method, path string, body any) (int, map[string]any) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(mustJSON(body))
	}
	req := httptest.NewRequest(method, path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var m map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &m)
	return rec.Code, m
}

// serveRecorded serves r (its body already read) on h, copies the answer
// to w and returns it decoded, so that a slip can act on what h answered.
func serveRecorded(h http.Handler, w http.ResponseWriter, r *http.Request, body []byte) (int, map[string]any) {
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
	var m map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &m)
	return rec.Code, m
}

// refuse answers a request 4xx with a code and a reason, the way the
// reference answers its refusals.
func refuse(w http.ResponseWriter, status int, code, reason string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"ok": false, "code": code, "reason": reason})
}

// cidOf is the challenge_id in a round-bound path, "" elsewhere.
func cidOf(path string) string {
	_, rest, ok := strings.Cut(path, "/challenge/")
	if !ok {
		return ""
	}
	cid, _, _ := strings.Cut(rest, "/")
	return cid
}

// safeNonce is the token alphabet a registration slip admits.
var safeNonce = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// noncesSanitised refuses a registration whose nonce holds anything but
// letters, digits, '-' and '_': input validation copied from the token
// fields onto a field the seed leaves free ("nonce is any string").
func noncesSanitised(h http.Handler) http.Handler {
	return refusesField(h, "/register", "nonce", "nonce must be a plain token", func(v string) bool { return !safeNonce.MatchString(v) })
}

// solveRequest is the part of a solve body the slips below read.
type solveRequest struct {
	AgentID  string `json:"agent_id"`
	Share    int    `json:"share_index"`
	Solution struct {
		NonceHex string `json:"nonce_hex"`
	} `json:"solution"`
}

// hashSolves lets refuse turn away a hash_preimage solve before h sees
// it, given the puzzle the solve is for (read from h's puzzle endpoint).
func hashSolves(h http.Handler, refuse func(p rbounty.Puzzle, nonceHex string) (int, string, bool)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !at(r, http.MethodPost, "/solve") {
			h.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var s solveRequest
		if json.Unmarshal(body, &s) != nil || s.Solution.NonceHex == "" {
			h.ServeHTTP(w, r)
			return
		}
		_, doc := innerCall(h, http.MethodGet, strings.TrimSuffix(r.URL.Path, "/solve")+"/puzzle/"+strconv.Itoa(s.Share), nil)
		var p rbounty.Puzzle
		_ = json.Unmarshal(mustJSON(doc), &p)
		if status, code, no := refuse(p, s.Solution.NonceHex); p.Type == rbounty.TypeHash && no {
			refuseWith(w, status, code)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// refuseWith answers the reference's refusal for code.
func refuseWith(w http.ResponseWriter, status int, code string) {
	refuse(w, status, code, "the solution does not verify")
}

// hashBits counts the leading zero bits of sha256(prefix bytes || nonce
// bytes), -1 when either is not hex.
func hashBits(p rbounty.Puzzle, nonceHex string) int {
	prefix, err1 := hex.DecodeString(p.Params.PrefixHex)
	nonce, err2 := hex.DecodeString(nonceHex)
	if err1 != nil || err2 != nil {
		return -1
	}
	sum := sha256.Sum256(append(prefix, nonce...))
	return pow.LeadingZeroBits(sum[:])
}

// exactBitsRefused refuses a nonce_hex whose digest has exactly
// difficulty_bits leading zero bits: "more than" where the seed says
// "has >= difficulty_bits".
func exactBitsRefused(h http.Handler) http.Handler {
	return hashSolves(h, func(p rbounty.Puzzle, n string) (int, string, bool) {
		return http.StatusUnprocessableEntity, "wrong_solution", hashBits(p, n) == p.Params.DifficultyBits
	})
}

// nonceLengthFixed refuses a nonce_hex of other than 16 hex digits: the
// server's check written around the 8-byte counter its own client
// grinds, where the seed's submit is any "hex string".
func nonceLengthFixed(h http.Handler) http.Handler {
	return hashSolves(h, func(_ rbounty.Puzzle, n string) (int, string, bool) {
		return http.StatusBadRequest, "bad_request", len(n) != 16
	})
}

// combineRequest is a combine body as the slips below read it.
type combineRequest struct {
	Submissions []rbounty.Submission `json:"submissions"`
}

// creditsOutliveRounds credits an agent with every share index it ever
// solved, in any round: solves kept on the agent's record (agent_ids
// persist) instead of the round's. It is planted as the platform would
// behave: a combine naming such an earlier solve has it solved again in
// this round, inside the platform, before the combine is judged.
func creditsOutliveRounds(h http.Handler) http.Handler {
	var mu sync.Mutex
	ever := map[string]map[int]bool{}   // agent -> share indices it solved in any round
	now := map[string]map[string]bool{} // cid -> "agent#share" solved there
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		cid := cidOf(r.URL.Path)
		switch {
		case at(r, http.MethodPost, "/solve"):
			var s solveRequest
			_ = json.Unmarshal(body, &s)
			if st, _ := serveRecorded(h, w, r, body); st/100 == 2 {
				mu.Lock()
				if ever[s.AgentID] == nil {
					ever[s.AgentID] = map[int]bool{}
				}
				if now[cid] == nil {
					now[cid] = map[string]bool{}
				}
				ever[s.AgentID][s.Share], now[cid][s.AgentID+"#"+strconv.Itoa(s.Share)] = true, true
				mu.Unlock()
			}
			return
		case at(r, http.MethodPost, "/combine"):
			var c combineRequest
			_ = json.Unmarshal(body, &c)
			prefix := strings.TrimSuffix(r.URL.Path, "/combine")
			for _, s := range c.Submissions {
				mu.Lock()
				stale := ever[s.AgentID][s.ShareIndex] && !now[cid][s.AgentID+"#"+strconv.Itoa(s.ShareIndex)]
				mu.Unlock()
				if stale {
					resolve(h, prefix, s.AgentID, s.ShareIndex)
				}
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	})
}

// resolve solves share i of the round at prefix as agent, inside the
// platform.
func resolve(h http.Handler, prefix, agent string, i int) {
	_, doc := innerCall(h, http.MethodGet, prefix+"/puzzle/"+strconv.Itoa(i), nil)
	var p rbounty.Puzzle
	if json.Unmarshal(mustJSON(doc), &p) != nil {
		return
	}
	innerCall(h, http.MethodPost, prefix+"/solve", map[string]any{"agent_id": agent, "share_index": i, "solution": rbounty.Solve(p)})
}

// claimsClearedByAnySolve clears an agent's working_on claim on any of
// its accepted solves: `listing.WorkingOn = 0` on the solve path without
// comparing the share solved with the share claimed. Planted as the
// platform would behave: the clearing re-POST is made inside it.
func claimsClearedByAnySolve(h http.Handler) http.Handler {
	var mu sync.Mutex
	listed := map[string]map[string]any{} // agent -> its last accepted peers body
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch {
		case at(r, http.MethodPost, "/peers"):
			var p map[string]any
			_ = json.Unmarshal(body, &p)
			if st, _ := serveRecorded(h, w, r, body); st/100 == 2 && p != nil {
				id, _ := p["agent_id"].(string)
				mu.Lock()
				listed[id] = p
				mu.Unlock()
			}
			return
		case at(r, http.MethodPost, "/solve"):
			var s solveRequest
			_ = json.Unmarshal(body, &s)
			st, _ := serveRecorded(h, w, r, body)
			mu.Lock()
			p := listed[s.AgentID]
			mu.Unlock()
			if st/100 != 2 || p == nil || p["working_on"] == nil || p["remove"] == true {
				return
			}
			clear := map[string]any{"agent_id": s.AgentID, "contact": p["contact"], "working_on": nil}
			if m, ok := p["message"]; ok {
				clear["message"] = m
			}
			if st, _ := innerCall(h, http.MethodPost, strings.TrimSuffix(r.URL.Path, "/solve")+"/peers", clear); st/100 == 2 {
				mu.Lock()
				listed[s.AgentID] = clear
				mu.Unlock()
			}
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	})
}

// namesBeforeContacts applies a profile edit's name before its contact
// is checked: the fields set one by one, so an edit refused for its
// over-long contact has already changed the name.
func namesBeforeContacts(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var p map[string]any
		_ = json.Unmarshal(body, &p)
		contact, long := p["contact"].(string)
		if name, ok := p["name"].(string); ok && at(r, http.MethodPost, "/agents/profile") && long && utf8.RuneCountInString(contact) > 256 {
			innerCall(h, http.MethodPost, r.URL.Path, map[string]any{"agent_id": p["agent_id"], "agent_secret": p["agent_secret"], "name": name})
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	})
}

// firstKPaid combines the first k submissions and pays their agents
// only: the reconstruction's k shares taken as the coalition, the rest of
// the credited submitters dropped.
func firstKPaid(h http.Handler) http.Handler {
	return harness.Requests(h, func(r *http.Request, body []byte) []byte {
		var c combineRequest
		if !at(r, http.MethodPost, "/combine") || json.Unmarshal(body, &c) != nil || len(c.Submissions) <= rbounty.K {
			return body
		}
		c.Submissions = c.Submissions[:rbounty.K]
		return mustJSON(c)
	})
}

// rejectedSolvesCounted counts every solve attempt an agent made,
// rejected ones too, as its accepted_solves on the profile and the
// leaderboard, and weighs them into its reputation: the counter bumped at
// the top of the solve handler.
func rejectedSolvesCounted(h http.Handler) http.Handler {
	var mu sync.Mutex
	rejected := map[string]float64{}
	return bodied(h, func(r *http.Request, body []byte, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if at(r, http.MethodPost, "/solve") && *st == http.StatusUnprocessableEntity {
			var s solveRequest
			if json.Unmarshal(body, &s) == nil {
				rejected[s.AgentID]++
			}
		}
		if r.Method != http.MethodGet {
			return
		}
		for _, row := range rows(m) {
			id, _ := row["agent_id"].(string)
			if n, ok := row["accepted_solves"].(float64); ok && rejected[id] > 0 {
				row["accepted_solves"] = n + rejected[id]
				if rep, ok := row["reputation"].(float64); ok {
					row["reputation"] = rep + 3*rejected[id]
				}
			}
		}
	})
}

// sharesAsBytes shows the open round's solved shares on its status as
// encoding/json shows a [][]byte field: base64, not hex (a debugging
// field left in the status struct).
func sharesAsBytes(h http.Handler) http.Handler {
	var mu sync.Mutex
	solved := map[string]map[string]string{} // cid -> share index -> base64 of the share
	return harness.Responses(h, func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		cid := cidOf(r.URL.Path)
		if h, ok := m["share_hex"].(string); ok && at(r, http.MethodPost, "/solve") && *st/100 == 2 {
			raw, _ := hex.DecodeString(h)
			i, _ := m["share_index"].(float64)
			if solved[cid] == nil {
				solved[cid] = map[string]string{}
			}
			solved[cid][strconv.Itoa(int(i))] = base64.StdEncoding.EncodeToString(raw)
		}
		if at(r, http.MethodGet, "/status") && m["open"] == true && len(solved[cid]) > 0 {
			m["solved_shares"] = solved[cid]
		}
	})
}

// mcpGetOnlyForStreams answers 405 only to a GET asking for an event
// stream and a 200 page to every other GET of the MCP endpoint: the
// "no SSE stream" read as "refuse the stream".
func mcpGetOnlyForStreams(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if at(r, http.MethodGet, "/mcp") && !strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"endpoint":"mcp","transport":"streamable-http","use":"POST JSON-RPC 2.0"}`))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// keyCommitted shows, on the open round's status, the sha256 commitment of
// the master key the round's first k solved shares reconstruct, in base64
// and hex: a commitment is not the key (the seed has combine prove a
// reconstruction against one), so showing it ships no secret.
func keyCommitted(h http.Handler) http.Handler {
	var mu sync.Mutex
	solved := map[string]map[int][]byte{} // cid -> share index -> share
	return harness.Responses(h, func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		cid := cidOf(r.URL.Path)
		if h, ok := m["share_hex"].(string); ok && at(r, http.MethodPost, "/solve") && *st/100 == 2 {
			raw, _ := hex.DecodeString(h)
			i, _ := m["share_index"].(float64)
			if solved[cid] == nil {
				solved[cid] = map[int][]byte{}
			}
			solved[cid][int(i)] = raw
		}
		if !at(r, http.MethodGet, "/status") || m["open"] != true || len(solved[cid]) < rbounty.K {
			return
		}
		var shares [][]byte
		for _, s := range solved[cid] {
			shares = append(shares, s)
		}
		if key, err := rbounty.Combine(shares); err == nil {
			sum := sha256.Sum256(key)
			m["key_commitment"] = map[string]any{"sha256_b64": base64.StdEncoding.EncodeToString(sum[:]), "sha256_hex": hex.EncodeToString(sum[:])}
		}
	})
}

// mcpGetRefusedLoudly answers every GET of the MCP endpoint 405 with an
// Allow header and a JSON-RPC error body: the seed fixes the status only.
func mcpGetRefusedLoudly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if at(r, http.MethodGet, "/mcp") {
			w.Header().Set("Allow", "POST")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusMethodNotAllowed)
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"no SSE stream: POST JSON-RPC here"}}`))
			return
		}
		h.ServeHTTP(w, r)
	})
}
