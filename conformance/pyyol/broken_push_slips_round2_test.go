package pyyol_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/agentgames/conformance/reference/pyyol/agent"
)

// pushSlipsRound2 are the second round of agent-endpoint slips
// (docs/detection.md, "pyyol-push (round 2)"): a window in the wrong
// unit, a nonce store keyed on more than the nonce, refusals answered
// with a status or reason of their own, only one header counted as the
// signature, a sibling routed by its full path, a handshake or a move
// with a field misspelled, a game listed without a handler, a body limit
// below the platform's views.
func pushSlipsRound2() []pushSlip {
	faithful := func() http.Handler { return agent.New(agent.Options{}) }
	allGames := func() http.Handler { return agent.New(agent.Options{Mafia: true, Monopoly: true}) }
	return []pushSlip{
		{"the window read as 300 ms", "PYYOL-SIGN-SKEW-WINDOW", verifier{past: 300 * time.Millisecond, future: 300 * time.Millisecond}.wrap},
		{"the window read as 300 minutes", "PYYOL-SIGN-STALE", verifier{past: 300 * time.Minute, future: 300 * time.Minute}.wrap},
		{"a nonce store keyed by nonce and route", "PYYOL-SIGN-REPLAY", verifier{nonceKey: func(r *http.Request, n, _ string) string { return r.URL.Path + " " + n }}.wrap},
		{"a nonce store keyed by nonce and timestamp", "PYYOL-SIGN-REPLAY", verifier{nonceKey: func(_ *http.Request, n, ts string) string { return ts + " " + n }}.wrap},
		{"a replayed nonce answered 409", "PYYOL-SIGN-REPLAY", verifier{status: map[string]int{"replayed_nonce": http.StatusConflict}}.wrap},
		{"a stale timestamp's reason expired_timestamp", "PYYOL-SIGN-STALE", verifier{reasons: map[string]string{"stale_timestamp": "expired_timestamp"}}.wrap},
		{"only a missing X-Arena-Signature counted as missing", "PYYOL-SIGN-MISSING", verifier{sigOnly: true}.wrap},
		{"/handshake routed by its full path", "PYYOL-PUSH-SIBLINGS", func() http.Handler {
			// The agent's own verification in front of a route table keyed by
			// full paths: /handshake at the origin's root, the rest below it.
			h := verifier{rebase: true}.wrap()
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.URL.Path == "/handshake":
					h.ServeHTTP(w, r)
				case strings.HasSuffix(r.URL.Path, "/handshake"):
					http.NotFound(w, r)
				default:
					h.ServeHTTP(w, r)
				}
			})
		}},
		{"the handshake's supportedGames spelled supported_games", "PYYOL-PUSH-HANDSHAKE", func() http.Handler {
			return onRoute("/handshake", func(_ *int, b []byte) []byte {
				var m map[string]any
				if json.Unmarshal(b, &m) == nil {
					m["supported_games"] = m["supportedGames"]
					delete(m, "supportedGames")
					b, _ = json.Marshal(m)
				}
				return b
			})(faithful())
		}},
		{"a Goofspiel move's card sent as bid", "PYYOL-PUSH-TURN", func() http.Handler {
			return rewritesMoves(faithful(), func(mv map[string]any) any {
				if c, ok := mv["card"]; ok {
					mv["bid"] = c
					delete(mv, "card")
				}
				return mv
			})
		}},
		{"mafia listed but its turns answered 501", "PYYOL-PUSH-TURN", func() http.Handler {
			h := allGames()
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(body))
				if strings.HasSuffix(r.URL.Path, "/turn") && bytes.Contains(body, []byte(`"mafia"`)) {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusNotImplemented)
					_, _ = w.Write([]byte(`{"error":"no_turn_handler","game":"mafia"}`))
					return
				}
				h.ServeHTTP(w, r)
			})
		}},
		{"bodies over 4 KiB refused 413", "PYYOL-PUSH-TURN", func() http.Handler {
			h := allGames()
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 4<<10))
				if err != nil {
					w.WriteHeader(http.StatusRequestEntityTooLarge)
					return
				}
				r.Body = io.NopCloser(bytes.NewReader(body))
				h.ServeHTTP(w, r)
			})
		}},
	}
}
