package bounty_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"io"
	"math/rand"
	"net/http"
	"strconv"
	"strings"
	"sync"

	harness "github.com/agentgames/conformance/conformance/tamper"
	rbounty "github.com/agentgames/conformance/reference/bounty"
)

// The targets of the eighth round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// hashAccepts has h accept a hash_preimage solve that accept lets
// through although its digest misses difficulty_bits: the platform's own
// verifier, planted by swapping in a proof that verifies before h sees
// the solve.
func hashAccepts(h http.Handler, accept func(p rbounty.Puzzle, bits int) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var s solveRequest
		if at(r, http.MethodPost, "/solve") && json.Unmarshal(body, &s) == nil && s.Solution.NonceHex != "" {
			_, doc := innerCall(h, http.MethodGet, strings.TrimSuffix(r.URL.Path, "/solve")+"/puzzle/"+strconv.Itoa(s.Share), nil)
			var p rbounty.Puzzle
			_ = json.Unmarshal(mustJSON(doc), &p)
			if bits := hashBits(p, s.Solution.NonceHex); p.Type == rbounty.TypeHash && bits >= 0 && bits < p.Params.DifficultyBits && accept(p, bits) {
				body = mustJSON(map[string]any{"agent_id": s.AgentID, "share_index": s.Share, "solution": rbounty.Solve(p)})
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	})
}

// zeroBytesCounted checks the difficulty in whole leading zero bytes
// (digest[:bits/8] all zero), so share 1's 12 bits ask for 8.
func zeroBytesCounted(h http.Handler) http.Handler {
	return hashAccepts(h, func(p rbounty.Puzzle, bits int) bool { return bits >= 8*(p.Params.DifficultyBits/8) })
}

// firstRungBits verifies every hash_preimage share at the ladder's first
// rung, 12 bits: the constant kept from the first puzzle implemented.
func firstRungBits(h http.Handler) http.Handler {
	return hashAccepts(h, func(_ rbounty.Puzzle, bits int) bool { return bits >= 12 })
}

// secrets records every agent_secret the platform issues at /register,
// by agent_id, for the profile slips below.
type secrets struct {
	mu   sync.Mutex
	byID map[string]string
}

// note records a registration answer's agent_id and agent_secret.
func (s *secrets) note(r *http.Request, m map[string]any) {
	id, _ := m["agent_id"].(string)
	sec, _ := m["agent_secret"].(string)
	if at(r, http.MethodPost, "/register") && id != "" && sec != "" {
		s.mu.Lock()
		s.byID[id] = sec
		s.mu.Unlock()
	}
}

// issued reports whether sec is any agent's secret.
func (s *secrets) issued(sec string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.byID {
		if v == sec {
			return true
		}
	}
	return false
}

// of is agent id's secret.
func (s *secrets) of(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byID[id]
}

// profileSecrets lets open decide, from the edit's agent_secret (nil when
// absent), whether the platform takes the edit as the agent's own; such
// an edit reaches h with the agent's real secret.
func profileSecrets(h http.Handler, open func(s *secrets, sec any) bool) http.Handler {
	s := &secrets{byID: map[string]string{}}
	inner := harness.Responses(h, func(r *http.Request, _ *int, m map[string]any) { s.note(r, m) })
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var p map[string]any
		if at(r, http.MethodPost, "/agents/profile") && json.Unmarshal(body, &p) == nil {
			id, _ := p["agent_id"].(string)
			if open(s, p["agent_secret"]) && s.of(id) != "" {
				p["agent_secret"] = s.of(id)
				body = mustJSON(p)
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		inner.ServeHTTP(w, r)
	})
}

// anyIssuedSecret accepts a profile edit carrying any agent's secret: the
// secret looked up among the issued ones instead of compared with the
// editing agent's.
func anyIssuedSecret(h http.Handler) http.Handler {
	return profileSecrets(h, func(s *secrets, sec any) bool {
		v, ok := sec.(string)
		return ok && s.issued(v)
	})
}

// missingSecretSkipped checks the agent_secret only when one is sent:
// `if req.Secret != "" && req.Secret != a.Secret`.
func missingSecretSkipped(h http.Handler) http.Handler {
	return profileSecrets(h, func(_ *secrets, sec any) bool { return sec == nil || sec == "" })
}

// onlyInitializedAccepted answers 202 to notifications/initialized only;
// any other notification falls through to the method table and is
// answered 200 with a JSON-RPC method-not-found error.
func onlyInitializedAccepted(h http.Handler) http.Handler {
	return mcpEdit(h, func(w http.ResponseWriter, rpc map[string]any) bool {
		if _, hasID := rpc["id"]; hasID || rpc["method"] == "notifications/initialized" {
			return false
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": nil,
			"error": map[string]any{"code": -32601, "message": "method not found"}})
		return true
	})
}

// keyKept keeps the master key of the first round it sees won and
// re-splits it for every later round: new polynomial, new shares, the
// same key ("new master key" forgotten in the rotation). Planted by
// answering later rounds' solves with shares of the kept key at the same
// x and mapping them back to h's shares on combine.
func keyKept(h http.Handler) http.Handler {
	k := &keptKey{fakes: map[string][][]byte{}, real: map[string]string{}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		cid := cidOf(r.URL.Path)
		if at(r, http.MethodPost, "/combine") {
			body = k.unmask(body)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		harness.Responses(h, func(r *http.Request, st *int, m map[string]any) {
			k.answered(r, cid, body, *st, m)
		}).ServeHTTP(w, r)
	})
}

// keptKey is keyKept's state: the kept key, each later round's shares of
// it, and the real share behind each one handed out.
type keptKey struct {
	mu    sync.Mutex
	key   []byte
	first string              // the round whose key is kept
	fakes map[string][][]byte // cid -> shares of the kept key, x = 1..n
	real  map[string]string   // handed-out share_hex -> h's share_hex
}

// answered keeps the first won round's key and masks later rounds'
// solve answers.
func (k *keptKey) answered(r *http.Request, cid string, body []byte, st int, m map[string]any) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if at(r, http.MethodPost, "/combine") && m["won"] == true && k.key == nil {
		var c combineRequest
		_ = json.Unmarshal(body, &c)
		var raw [][]byte
		for _, s := range c.Submissions {
			b, _ := hex.DecodeString(s.ShareHex)
			raw = append(raw, b)
		}
		k.key, _ = rbounty.Combine(raw)
		k.first = cid
	}
	sh, ok := m["share_hex"].(string)
	if !ok || k.key == nil || cid == k.first || !at(r, http.MethodPost, "/solve") || st/100 != 2 {
		return
	}
	if k.fakes[cid] == nil {
		k.fakes[cid], _ = rbounty.Split(k.key, rbounty.K, []byte{1, 2, 3, 4, 5}, rand.New(rand.NewSource(int64(len(k.fakes)+1))))
	}
	raw, _ := hex.DecodeString(sh)
	if len(raw) == rbounty.KeyLen+1 && raw[rbounty.KeyLen] >= 1 && int(raw[rbounty.KeyLen]) <= len(k.fakes[cid]) {
		fake := hex.EncodeToString(k.fakes[cid][raw[rbounty.KeyLen]-1])
		k.real[fake] = strings.ToLower(sh)
		m["share_hex"] = fake
	}
}

// unmask turns the handed-out shares in a combine body back into h's.
func (k *keptKey) unmask(body []byte) []byte {
	var c combineRequest
	if json.Unmarshal(body, &c) != nil {
		return body
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for i, s := range c.Submissions {
		if real, ok := k.real[strings.ToLower(s.ShareHex)]; ok {
			c.Submissions[i].ShareHex = real
		}
	}
	return mustJSON(c)
}

// refusedSolveCredits records the solver of a share before verifying the
// solution, so an agent whose solve of a share was refused is credited
// with that share at combine. Planted as the platform would behave: such
// a submission has the share solved for its agent inside the platform
// before the combine is judged.
func refusedSolveCredits(h http.Handler) http.Handler {
	var mu sync.Mutex
	tried := map[string]bool{} // "cid#agent#share" of a refused solve
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		cid := cidOf(r.URL.Path)
		switch {
		case at(r, http.MethodPost, "/solve"):
			var s solveRequest
			_ = json.Unmarshal(body, &s)
			if st, _ := serveRecorded(h, w, r, body); st/100 == 4 {
				mu.Lock()
				tried[cid+"#"+s.AgentID+"#"+strconv.Itoa(s.Share)] = true
				mu.Unlock()
			}
			return
		case at(r, http.MethodPost, "/combine"):
			var c combineRequest
			_ = json.Unmarshal(body, &c)
			for _, s := range c.Submissions {
				mu.Lock()
				was := tried[cid+"#"+s.AgentID+"#"+strconv.Itoa(s.ShareIndex)]
				mu.Unlock()
				if was {
					resolve(h, strings.TrimSuffix(r.URL.Path, "/combine"), s.AgentID, s.ShareIndex)
				}
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	})
}

// secretRefusedAs401 answers a profile edit refused for its secret 401
// with a WWW-Authenticate header and its own code: the seed says the
// secret "is required", not which 4xx refuses an edit without it.
func secretRefusedAs401(h http.Handler) http.Handler {
	return harness.Responses(h, func(r *http.Request, st *int, m map[string]any) {
		if at(r, http.MethodPost, "/agents/profile") && m["code"] == "bad_secret" {
			*st, m["code"] = http.StatusUnauthorized, "agent_secret_required"
		}
	})
}

// notificationsWithHeaders answers every JSON-RPC notification 202 with
// a Content-Type and a zero Content-Length, after h has taken it: "202
// with no body" fixes the status and the body, not the headers.
func notificationsWithHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !at(r, http.MethodPost, "/mcp") {
			h.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var rpc map[string]any
		hasID := true
		if json.Unmarshal(body, &rpc) == nil {
			_, hasID = rpc["id"]
		}
		st, _ := serveRecorded(h, discard{w, hasID}, r, body)
		if !hasID && st == http.StatusAccepted {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", "0")
			w.WriteHeader(http.StatusAccepted)
		}
	})
}

// discard passes an answer on to w only when pass is true.
type discard struct {
	w    http.ResponseWriter
	pass bool
}

func (d discard) Header() http.Header {
	if d.pass {
		return d.w.Header()
	}
	return http.Header{}
}

func (d discard) Write(b []byte) (int, error) {
	if d.pass {
		return d.w.Write(b)
	}
	return len(b), nil
}

func (d discard) WriteHeader(st int) {
	if d.pass {
		d.w.WriteHeader(st)
	}
}
