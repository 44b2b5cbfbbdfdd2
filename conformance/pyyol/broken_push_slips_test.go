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
}

// wrap puts v in front of an agent that verifies nothing itself.
func (v verifier) wrap() http.Handler {
	h := agent.New(agent.Options{Flaw: agent.SkipsSignature})
	var mu sync.Mutex
	var seen []string
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/health") {
			h.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		mu.Lock()
		reason := v.check(r, body, &seen)
		mu.Unlock()
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
func (v verifier) check(r *http.Request, body []byte, seen *[]string) string {
	ts, nonce, sig := r.Header.Get(pushsign.TimestampHeader), r.Header.Get(pushsign.NonceHeader), r.Header.Get(pushsign.SignatureHeader)
	if sig == "" || !v.sigOnly && (ts == "" || nonce == "") {
		return "missing_signature"
	}
	at, err := time.Parse(time.RFC3339, ts)
	past, future := orSkew(v.past), orSkew(v.future)
	age, ahead := time.Since(at), time.Until(at)
	if v.wholeSeconds {
		age = time.Duration(time.Now().Unix()-at.Unix()) * time.Second
		ahead = -age
	}
	if err != nil || age > past || ahead > future {
		return "stale_timestamp"
	}
	key := nonce
	if v.nonceKey != nil {
		key = v.nonceKey(r, nonce, ts)
	}
	if v.nonceFirst && !remember(seen, key, v.keep) {
		return "replayed_nonce"
	}
	signed := body
	if v.reencode {
		var b bytes.Buffer
		if json.Compact(&b, body) == nil {
			signed = b.Bytes()
		}
	}
	if sig != pushsign.Header([]byte(agent.DevSecret), ts, nonce, r.Method, r.URL.EscapedPath(), signed) {
		return "bad_signature"
	}
	if !v.nonceFirst && !remember(seen, key, v.keep) {
		return "replayed_nonce"
	}
	return ""
}

// remember stores key in seen, keeping the last keep (0: all), and says
// whether it was new.
func remember(seen *[]string, key string, keep int) bool {
	if slices.Contains(*seen, key) {
		return false
	}
	*seen = append(*seen, key)
	if keep > 0 && len(*seen) > keep {
		*seen = (*seen)[len(*seen)-keep:]
	}
	return true
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
		// Round 2: pushSlipsRound2 in broken_push_slips_round2_test.go.
	}, pushSlipsRound2()...)
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
				for k, vs := range rec.Header() {
					w.Header()[k] = vs
				}
				w.WriteHeader(rec.Code)
				_, _ = w.Write(rec.Body.Bytes())
			})
		},
		"/health with its uptime":      addField("/health", "uptime_s", 12),
		"a handshake with more fields": addField("/handshake", "agentName", "faithful"),
		"initialize acknowledged empty 200": func() http.Handler {
			return onRoute("/initialize", func(_ *int, _ []byte) []byte { return nil })(faithful())
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
