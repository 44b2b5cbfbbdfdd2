package pyyol_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pushsign"
	"github.com/agentgames/conformance/reference/pyyol/agent"
	"github.com/agentgames/conformance/reference/skeleton"
)

// verifier is an agent's own request verification written with one slip:
// a window of its own on each side, a nonce store that keeps only the
// last few, a body hashed after re-encoding, its own reasons and status.
type verifier struct {
	past, future time.Duration
	wholeSeconds bool              // compare the clock's whole seconds, not exact times
	keep         int               // nonces remembered; 0 is all
	reencode     bool              // hash json.Compact of the body, not its bytes
	reasons      map[string]string // a documented reason -> the one answered
	status       map[string]int    // a documented reason -> the status answered
	// round 2
	nonceKey   func(r *http.Request, nonce, ts string) string // what the nonce store keys on; nil is the nonce
	sigOnly    bool                                           // only a missing X-Arena-Signature is missing_signature
	nonceFirst bool                                           // the nonce is stored before the signature is checked (the SDK's order)
	rebase     bool                                           // a verified request off the agent's base path is served under it
	// round 3
	trustsBearer bool          // a request whose Bearer is the secret is let through unverified
	forgetAfter  time.Duration // nonces are dropped once their timestamp is this old; 0 keeps them
	resetOn      string        // a verified request to this route empties the nonce store
	layout       string        // the timestamp's parse layout; "" is RFC3339
	belowMount   bool          // the signature is checked over the path below the agent's base path
	foldHex      bool          // the hex digits are compared case-insensitively
	// round 4
	only           []string // the route suffixes verified; the others are let through unverified (nil: all)
	spendOnSuccess bool     // a nonce is stored only once its handler answered 2xx
	trimBody       bool     // the body's surrounding whitespace is trimmed before it is hashed
	// round 5
	aheadReason string // the reason a timestamp ahead of the window is refused with; "" is stale_timestamp
	rerender    bool   // the signing string holds the timestamp re-rendered from its parse, not the header's text
	// round 6
	trimLeft     bool     // the v1= prefix cut with a character-set trim (lstrip), which eats the hex's leading 1s
	sentLength   bool     // the compare loops over the signature sent, so any prefix of the right one matches
	unreadableOK bool     // a timestamp that does not parse skips the window (a NaN compares false)
	noReplayOn   []string // the route suffixes whose nonces are neither checked nor stored
}

// wrap puts v in front of an agent that verifies nothing itself.
func (v verifier) wrap() http.Handler {
	h := agent.New(agent.Options{Flaw: agent.SkipsSignature})
	var mu sync.Mutex
	seen := &nonceStore{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/health") {
			h.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if !v.verifies(r.URL.Path) {
			h.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		reason := v.check(r, body, seen)
		mu.Unlock()
		if reason == "" && v.spendOnSuccess {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if rec.Code/100 == 2 {
				mu.Lock()
				seen.remember(r.Header.Get(pushsign.NonceHeader), time.Now(), v.keep)
				mu.Unlock()
			}
			copyAnswer(w, rec)
			return
		}
		if reason == "" {
			if v.rebase && !strings.HasPrefix(r.URL.Path, agent.BasePath+"/") {
				r = r.Clone(r.Context())
				r.URL.Path, r.URL.RawPath = agent.BasePath+r.URL.Path, ""
			}
			h.ServeHTTP(w, r)
			return
		}
		status := http.StatusUnauthorized
		if s, ok := v.status[reason]; ok {
			status = s
		}
		if s, ok := v.reasons[reason]; ok {
			reason = s
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "unauthorized", "reason": reason})
	})
}

// check is the verification; "" lets the request through.
func (v verifier) check(r *http.Request, body []byte, seen *nonceStore) string {
	if cred, ok := skeleton.Bearer(r.Header.Get("Authorization")); v.trustsBearer && ok && cred == agent.DevSecret {
		return ""
	}
	ts, nonce, sig := r.Header.Get(pushsign.TimestampHeader), r.Header.Get(pushsign.NonceHeader), r.Header.Get(pushsign.SignatureHeader)
	if sig == "" || !v.sigOnly && (ts == "" || nonce == "") {
		return "missing_signature"
	}
	layout := time.RFC3339
	if v.layout != "" {
		layout = v.layout
	}
	at, err := time.Parse(layout, ts)
	past, future := orSkew(v.past), orSkew(v.future)
	age, ahead := time.Since(at), time.Until(at)
	if v.wholeSeconds {
		age = time.Duration(time.Now().Unix()-at.Unix()) * time.Second
		ahead = -age
	}
	if err == nil && ahead > future && v.aheadReason != "" {
		return v.aheadReason
	}
	if (err != nil && !v.unreadableOK) || err == nil && (age > past || ahead > future) {
		return "stale_timestamp"
	}
	if v.rerender {
		ts = at.UTC().Format(time.RFC3339)
	}
	key := nonce
	if v.nonceKey != nil {
		key = v.nonceKey(r, nonce, ts)
	}
	if v.forgetAfter > 0 {
		seen.forget(time.Now().Add(-v.forgetAfter))
	}
	guarded := !slices.ContainsFunc(v.noReplayOn, func(suffix string) bool { return strings.HasSuffix(r.URL.Path, suffix) })
	switch {
	case guarded && v.spendOnSuccess:
		if slices.Contains(seen.keys, key) {
			return "replayed_nonce"
		}
	case guarded && v.nonceFirst && !seen.remember(key, at, v.keep):
		return "replayed_nonce"
	}
	signed := body
	if v.trimBody {
		signed = bytes.TrimSpace(body)
	}
	if v.reencode {
		var b bytes.Buffer
		if json.Compact(&b, body) == nil {
			signed = b.Bytes()
		}
	}
	path := r.URL.EscapedPath()
	if v.belowMount {
		path = strings.TrimPrefix(path, agent.BasePath)
	}
	want := pushsign.Header([]byte(agent.DevSecret), ts, nonce, r.Method, path, signed)
	if !v.signatureMatches(sig, want) {
		return "bad_signature"
	}
	if guarded && !v.nonceFirst && !v.spendOnSuccess && !seen.remember(key, at, v.keep) {
		return "replayed_nonce"
	}
	if v.resetOn != "" && strings.HasSuffix(r.URL.Path, v.resetOn) {
		*seen = nonceStore{}
	}
	return ""
}

// signatureMatches compares the signature header sent with the one
// expected, as the verifier's slip has it.
func (v verifier) signatureMatches(sig, want string) bool {
	switch {
	case v.trimLeft:
		return strings.TrimLeft(sig, pushsign.Prefix) == strings.TrimPrefix(want, pushsign.Prefix)
	case v.sentLength:
		return strings.HasPrefix(want, sig)
	}
	return sig == want || v.foldHex && strings.EqualFold(sig, want)
}

// verifies reports whether the verifier checks requests to path.
func (v verifier) verifies(path string) bool {
	return v.only == nil || slices.ContainsFunc(v.only, func(suffix string) bool { return strings.HasSuffix(path, suffix) })
}

// copyAnswer writes a recorded answer out.
func copyAnswer(w http.ResponseWriter, rec *httptest.ResponseRecorder) {
	for k, vs := range rec.Header() {
		w.Header()[k] = vs
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// nonceStore is a verifier's memory of the nonces it took, each with the
// timestamp it came under.
type nonceStore struct {
	keys []string
	at   map[string]time.Time
}

// remember stores key, keeping the last keep (0: all), and says whether
// it was new.
func (s *nonceStore) remember(key string, at time.Time, keep int) bool {
	if slices.Contains(s.keys, key) {
		return false
	}
	if s.at == nil {
		s.at = map[string]time.Time{}
	}
	s.keys, s.at[key] = append(s.keys, key), at
	if keep > 0 && len(s.keys) > keep {
		s.keys = s.keys[len(s.keys)-keep:]
	}
	return true
}

// forget drops the nonces whose timestamp is before cutoff.
func (s *nonceStore) forget(cutoff time.Time) {
	s.keys = slices.DeleteFunc(s.keys, func(k string) bool { return s.at[k].Before(cutoff) })
}

// orSkew is d, or the documented ±300 s when d is zero.
func orSkew(d time.Duration) time.Duration {
	if d == 0 {
		return pushsign.Skew
	}
	return d
}

// onRoute rewrites the answer of one route with edit(status, body).
func onRoute(suffix string, edit func(status *int, body []byte) []byte) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !strings.HasSuffix(r.URL.Path, suffix) {
				h.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			status := rec.Code
			out := edit(&status, rec.Body.Bytes())
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = w.Write(out)
		})
	}
}

// pushSlip is one realistic implementer's bug of an agent endpoint.
type pushSlip struct {
	name, rule string
	agent      func() http.Handler
}

// pushSlips are bugs an implementer of the push docs would plausibly
// write, none of them in brokenAgents (docs/detection.md keeps their
// tally): a window one second off on either side or wider ahead, a nonce
// store that forgets, a body hashed after re-encoding, reasons and
// statuses of its own, a signed /health, acks and answers in other shapes.
func pushSlips() []pushSlip {
	faithful := func() http.Handler { return agent.New(agent.Options{}) }
	return append([]pushSlip{
		{"a whole-second window of 301 s", "PYYOL-SIGN-STALE", verifier{past: 301 * time.Second, future: 301 * time.Second, wholeSeconds: true}.wrap},
		{"an exact window of 299 s", "PYYOL-SIGN-SKEW-WINDOW", verifier{past: 299 * time.Second, future: 299 * time.Second}.wrap},
		{"a window of 600 s ahead, 300 s behind", "PYYOL-SIGN-STALE", verifier{future: 600 * time.Second}.wrap},
		{"a nonce store that keeps only the last nonce", "PYYOL-SIGN-REPLAY", verifier{keep: 1}.wrap},
		{"the body hashed after re-encoding", "PYYOL-SIGN-STRING", verifier{reencode: true}.wrap},
		{"a bad signature's reason invalid_signature", "PYYOL-SIGN-BAD", verifier{reasons: map[string]string{"bad_signature": "invalid_signature"}}.wrap},
		{"a stale timestamp answered 403", "PYYOL-SIGN-STALE", verifier{status: map[string]int{"stale_timestamp": 403}}.wrap},
		{"missing headers answered 400", "PYYOL-SIGN-MISSING", verifier{status: map[string]int{"missing_signature": 400}}.wrap},
		{"/health behind the signature check", "PYYOL-PUSH-HEALTH", func() http.Handler {
			return onRoute("/health", func(st *int, _ []byte) []byte {
				*st = http.StatusUnauthorized
				return []byte(`{"error":"unauthorized","reason":"missing_signature"}`)
			})(faithful())
		}},
		{"/health answers 204 with no body", "PYYOL-PUSH-HEALTH", func() http.Handler {
			return onRoute("/health", func(st *int, _ []byte) []byte { *st = http.StatusNoContent; return nil })(faithful())
		}},
		{"supportedGames as one comma-separated string", "PYYOL-PUSH-HANDSHAKE", func() http.Handler {
			return onRoute("/handshake", func(_ *int, b []byte) []byte {
				var m map[string]any
				if json.Unmarshal(b, &m) == nil {
					var games []string
					for _, g := range m["supportedGames"].([]any) {
						games = append(games, g.(string))
					}
					m["supportedGames"] = strings.Join(games, ",")
					b, _ = json.Marshal(m)
				}
				return b
			})(faithful())
		}},
		{"an event acknowledged 204", "PYYOL-PUSH-EVENT-ACK", func() http.Handler {
			return onRoute("/event", func(st *int, _ []byte) []byte { *st = http.StatusNoContent; return nil })(faithful())
		}},
		{"a game end acknowledged 202", "PYYOL-PUSH-GAME-END-ACK", func() http.Handler {
			return onRoute("/game-end", func(st *int, b []byte) []byte { *st = http.StatusAccepted; return b })(faithful())
		}},
		{"a turn answered 200 with an empty body", "PYYOL-PUSH-TURN", func() http.Handler {
			return onRoute("/turn", func(_ *int, _ []byte) []byte { return nil })(faithful())
		}},
		{"a card bid as its 0-based index", "PYYOL-PUSH-LEGAL-MOVES", func() http.Handler {
			return rewritesMoves(faithful(), func(mv map[string]any) any {
				if c, ok := mv["card"].(float64); ok {
					mv["card"] = c - 1
				}
				return mv
			})
		}},
		// Round 2: pushSlipsRound2 in broken_push_slips_round2_test.go;
		// Round 3: pushSlipsRound3 in broken_push_slips_round3_test.go;
		// Round 4: pushSlipsRound4 in broken_push_slips_round4_test.go;
		// Round 5: pushSlipsRound5 in broken_push_slips_round5_test.go;
		// Round 6: pushSlipsRound6 in broken_push_slips_round6_test.go;
		// Round 7: pushSlipsRound7 in broken_push_slips_round7_test.go.
	}, slices.Concat(pushSlipsRound2(), pushSlipsRound3(), pushSlipsRound4(), pushSlipsRound5(), pushSlipsRound6(), pushSlipsRound7())...)
}

// TestPushSlipsAreCaught: each realistic bug of pushSlips, pushed to live
// over loopback, fails with its rule named.
func TestPushSlipsAreCaught(t *testing.T) {
	t.Parallel()
	for _, c := range pushSlips() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(c.agent())
			defer srv.Close()
			rep := runLive(t, pyyol.Push(), srv.URL+agent.BasePath+"/turn", c.rule, pushSettings)
			if rep.ExitCode() != 1 || !rep.Failed(c.rule) {
				t.Errorf("exit %d; want a fail naming %s; got %v", rep.ExitCode(), c.rule, failedRules(rep))
			}
		})
	}
}

// faithfulPushAgents take readings the push docs leave open next to the
// slips: a window compared in whole seconds, refusals with more fields,
// a /health and a handshake with more fields, an initialize acknowledged
// with an empty 200, a move wrapped as {"move": ...} (a REFERENCE note).
func faithfulPushAgents() map[string]func() http.Handler {
	faithful := func() http.Handler { return agent.New(agent.Options{}) }
	addField := func(suffix, key string, v any) func() http.Handler {
		return func() http.Handler {
			return onRoute(suffix, func(_ *int, b []byte) []byte {
				var m map[string]any
				if json.Unmarshal(b, &m) == nil {
					m[key] = v
					b, _ = json.Marshal(m)
				}
				return b
			})(faithful())
		}
	}
	return map[string]func() http.Handler{
		"a window compared in whole seconds": verifier{wholeSeconds: true}.wrap,
		"refusals with a detail": func() http.Handler {
			v := verifier{}.wrap()
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				rec := httptest.NewRecorder()
				v.ServeHTTP(rec, r)
				var m map[string]any
				if rec.Code == http.StatusUnauthorized && json.Unmarshal(rec.Body.Bytes(), &m) == nil {
					m["detail"] = "see the docs"
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(rec.Code)
					_ = json.NewEncoder(w).Encode(m)
					return
				}
				copyAnswer(w, rec)
			})
		},
		"/health with its uptime":      addField("/health", "uptime_s", 12),
		"a handshake with more fields": addField("/handshake", "agentName", "faithful"),
		"initialize acknowledged empty 200": func() http.Handler {
			// Only its acknowledgement is empty: a refusal keeps its body.
			return onRoute("/initialize", func(st *int, b []byte) []byte {
				if *st == http.StatusOK {
					return nil
				}
				return b
			})(faithful())
		},
		"a move wrapped as {move: ...}": func() http.Handler {
			return rewritesMoves(faithful(), func(mv map[string]any) any { return map[string]any{"move": mv} })
		},
		// round 2
		"the nonce stored before the signature is checked (the SDK's order)": verifier{nonceFirst: true}.wrap,
		"event and game-end acknowledged {ok: true} (the SDK's acks)": func() http.Handler {
			ok := func(st *int, b []byte) []byte {
				if *st == http.StatusOK {
					return []byte(`{"ok":true}`)
				}
				return b
			}
			return onRoute("/event", ok)(onRoute("/game-end", ok)(faithful()))
		},
		// round 3
		"the signature's hex compared case-insensitively": verifier{foldHex: true}.wrap,
		"a move with its rationale beside round and card (the SDK's GoofspielMove)": func() http.Handler {
			return rewritesMoves(faithful(), func(mv map[string]any) any { mv["rationale"] = "the baseline's card"; return mv })
		},
		// round 4: faithfulPushAgentsRound4 in broken_push_slips_round4_test.go
		"events taken in seq order, a late one dropped but acknowledged": faithfulPushAgentsRound4()[0],
		"the initialize acknowledged with the seat echoed":               faithfulPushAgentsRound4()[1],
		// round 5: faithfulPushAgentsRound5 in broken_push_slips_round5_test.go
		"a nonce store capped at the SDK's 50000, evicting the oldest": faithfulPushAgentsRound5()[0],
		"the move typed text/plain":                                    faithfulPushAgentsRound5()[1],
		// round 6: faithfulPushAgentsRound6 in broken_push_slips_round6_test.go
		"an unreadable timestamp refused as a missing one (missing_signature)":   faithfulPushAgentsRound6()[0],
		"each match's state kept by match_id, every lifecycle call acknowledged": faithfulPushAgentsRound6()[1],
		// round 7: faithfulPushAgentsRound7 in broken_push_slips_round7_test.go
		"the seat checked against the player count, every seat below it acknowledged": faithfulPushAgentsRound7()[0],
		"a game end's result read loosely, any shape acknowledged":                    faithfulPushAgentsRound7()[1],
	}
}

// TestFaithfulPushAgentsFailNothing: each faithful agent, checked live
// with every push check, fails and errs nothing and exits 0.
func TestFaithfulPushAgentsFailNothing(t *testing.T) {
	t.Parallel()
	for name, mk := range faithfulPushAgents() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(mk())
			defer srv.Close()
			rep := runLive(t, pyyol.Push(), srv.URL+agent.BasePath+"/turn", "", pushSettings)
			for _, r := range rep.Results {
				if r.Status == verdict.Fail || r.Status == verdict.Error {
					t.Errorf("%s: %s %s %s", r.Name, r.Status, r.FailedRule, r.Message)
				}
			}
			if rep.ExitCode() != 0 {
				t.Errorf("exit %d", rep.ExitCode())
			}
		})
	}
}
