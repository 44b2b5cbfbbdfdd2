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

	"github.com/agentgames/conformance/reference/pyyol/agent"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// pushSlipsRound4 are the fourth round of agent-endpoint slips
// (docs/detection.md, "pyyol-push (round 4)"): the signature verified on
// /turn and /handshake only, a nonce spent only by a request its handler
// took, the body trimmed before it is hashed, an /event older than the
// last refused, an /event of a type the agent does not know refused, an
// /initialize without a role refused.
func pushSlipsRound4() []pushSlip {
	faithful := func() http.Handler { return agent.New(agent.Options{}) }
	return []pushSlip{
		{"the signature verified on /turn and /handshake only, the notifications let through", "PYYOL-SIGN-BAD",
			verifier{only: []string{"/turn", "/handshake"}}.wrap},
		{"a nonce spent only once its handler answered 2xx", "PYYOL-SIGN-REPLAY", verifier{spendOnSuccess: true}.wrap},
		{"the body's whitespace trimmed before it is hashed", "PYYOL-SIGN-STRING", verifier{trimBody: true}.wrap},
		{"an /event whose seq is not above the last one refused 409", "PYYOL-PUSH-EVENT-ACK", func() http.Handler {
			last := map[any]float64{}
			var mu sync.Mutex
			return refusesRoute(faithful(), "/event", http.StatusConflict, func(m map[string]any) bool {
				seq, _ := m["seq"].(float64)
				mu.Lock()
				defer mu.Unlock()
				prev, seen := last[m["match_id"]]
				if seen && seq <= prev {
					return true
				}
				last[m["match_id"]] = seq
				return false
			})
		}},
		{"an /event of a type Goofspiel does not list refused 400", "PYYOL-PUSH-EVENT-ACK", func() http.Handler {
			known := []string{goofspiel.MatchCreated, goofspiel.PrizeRevealed, goofspiel.CardSealed, goofspiel.RoundRevealed, goofspiel.MatchFinished}
			return refusesRoute(faithful(), "/event", http.StatusBadRequest, func(m map[string]any) bool {
				typ, _ := m["type"].(string)
				return !slices.Contains(known, typ)
			})
		}},
		{"an /initialize without a role refused 422", "PYYOL-PUSH-INITIALIZE", func() http.Handler {
			return refusesRoute(faithful(), "/initialize", http.StatusUnprocessableEntity, func(m map[string]any) bool { return m["role"] == nil })
		}},
	}
}

// faithfulPushAgentsRound4 take readings the docs leave open next to the
// round-4 slips: events applied in seq order, one older than the last
// applied dropped but still acknowledged ("order by seq"), and an
// initialize acknowledged with the seat beside ready.
func faithfulPushAgentsRound4() []func() http.Handler {
	faithful := func() http.Handler { return agent.New(agent.Options{}) }
	return []func() http.Handler{
		func() http.Handler {
			return onRoute("/event", func(st *int, b []byte) []byte {
				if *st == http.StatusOK {
					return []byte(`{"ok":true,"applied":false}`)
				}
				return b
			})(faithful())
		},
		func() http.Handler {
			return onRoute("/initialize", func(st *int, b []byte) []byte {
				if *st == http.StatusOK {
					return []byte(`{"ready":true,"seat":0}`)
				}
				return b
			})(faithful())
		},
	}
}

// refusesRoute answers status with an error body to a request to route
// that the agent took (it verified it and answered 2xx) and refuse picks
// out: a handler's own refusal, after the signature check.
func refusesRoute(h http.Handler, route string, status int, refuse func(map[string]any) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, route) {
			h.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		var m map[string]any
		if rec.Code/100 != 2 || json.Unmarshal(body, &m) != nil || !refuse(m) {
			copyAnswer(w, rec)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "refused"})
	})
}
