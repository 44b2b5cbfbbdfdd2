package pyyol_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/agentgames/conformance/reference/pyyol/agent"
	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

// pushSlipsRound5 are the fifth round of agent-endpoint slips
// (docs/detection.md, "pyyol-push (round 5)"): a nonce store capped at a
// few hundred evicting the oldest, a timestamp ahead refused with a
// reason of its own, the signature checked over the timestamp re-rendered,
// a handshake without sdkVersion or with its games capitalised, a second
// match's /initialize refused while the first runs, a Mafia seat sent as
// its alive key, a Mafia discussion answered with a vote, a Monopoly raise
// sent as a string and a move encoded twice.
func pushSlipsRound5() []pushSlip {
	faithful := func() http.Handler { return agent.New(agent.Options{}) }
	return []pushSlip{
		{"a nonce store capped at 256, evicting the oldest", "PYYOL-SIGN-REPLAY", verifier{keep: 256}.wrap},
		{"a timestamp ahead of the window refused with reason future_timestamp", "PYYOL-SIGN-STALE",
			verifier{aheadReason: "future_timestamp"}.wrap},
		{"the signature checked over the timestamp re-rendered from its parse", "PYYOL-SIGN-STRING", verifier{rerender: true}.wrap},
		{"the handshake without sdkVersion", "PYYOL-PUSH-HANDSHAKE", func() http.Handler {
			return editsHandshake(faithful(), func(m map[string]any) { delete(m, "sdkVersion") })
		}},
		{"the handshake's games capitalised (Goofspiel)", "PYYOL-PUSH-HANDSHAKE", func() http.Handler {
			return editsHandshake(faithful(), func(m map[string]any) {
				games, _ := m["supportedGames"].([]any)
				for i, g := range games {
					s, _ := g.(string)
					games[i] = strings.ToUpper(s[:1]) + s[1:]
				}
			})
		}},
		{"a second match's /initialize refused 409 while the first has not ended", "PYYOL-PUSH-INITIALIZE", func() http.Handler {
			return oneMatchAtATime(faithful())
		}},
		{"a Mafia target sent as its alive key, a string", "PYYOL-MAFIA-MOVE", func() http.Handler {
			return gameAnswers("mafia", func(raw json.RawMessage) any {
				mv := baselineMafia(raw)
				if t, ok := mv["target"].(float64); ok && t >= 0 {
					mv["target"] = strconv.Itoa(int(t))
				}
				return mv
			})
		}},
		{"a Mafia discussion answered with a vote", "PYYOL-MAFIA-MOVE", func() http.Handler {
			return gameAnswers("mafia", func(raw json.RawMessage) any {
				var v mafia.View
				if json.Unmarshal(raw, &v) != nil || !slices.Contains(v.Legal, "message") {
					return nil
				}
				return map[string]any{"action": "vote", "target": otherLiving(v)}
			})
		}},
		{"a Monopoly raise sent as a string", "PYYOL-MONO-MOVE-AMOUNT", func() http.Handler {
			return monopolyAnswers(when("bid", map[string]any{"action": "bid", "amount": "10"}))
		}},
		{"a move encoded twice (a JSON string of the move)", "PYYOL-PUSH-TURN", func() http.Handler {
			return onRoute("/turn", func(st *int, b []byte) []byte {
				if *st != http.StatusOK {
					return b
				}
				out, _ := json.Marshal(string(bytes.TrimSpace(b)))
				return out
			})(faithful())
		}},
	}
}

// faithfulPushAgentsRound5 take readings the docs leave open next to the
// round-5 slips: a nonce store capped as the SDK's ReplayGuard is (50000,
// the oldest evicted past it; far more than one run sends), and a move
// answered with the JSON typed text/plain (the docs fix the body, JSON,
// not its media type).
func faithfulPushAgentsRound5() []func() http.Handler {
	faithful := func() http.Handler { return agent.New(agent.Options{}) }
	return []func() http.Handler{
		verifier{keep: 50000}.wrap,
		func() http.Handler { return typedTurns(faithful(), "text/plain; charset=utf-8") },
	}
}

// editsHandshake rewrites the agent's handshake answer with edit.
func editsHandshake(h http.Handler, edit func(map[string]any)) http.Handler {
	return onRoute("/handshake", func(st *int, b []byte) []byte {
		var m map[string]any
		if *st != http.StatusOK || json.Unmarshal(b, &m) != nil {
			return b
		}
		edit(m)
		out, _ := json.Marshal(m)
		return out
	})(h)
}

// oneMatchAtATime is an agent that keeps one match's state: an
// /initialize of another match before the running one's /game-end is
// refused 409, as if the platform seated it in one match at a time.
func oneMatchAtATime(h http.Handler) http.Handler {
	var mu sync.Mutex
	running := ""
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var m struct {
			MatchID string `json:"match_id"`
		}
		json.Unmarshal(body, &m)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code/100 != 2 {
			copyAnswer(w, rec)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		switch {
		case strings.HasSuffix(r.URL.Path, "/initialize") && running != "" && running != m.MatchID:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusConflict)
			_, _ = w.Write([]byte(`{"error":"match_in_progress"}`))
			return
		case strings.HasSuffix(r.URL.Path, "/initialize"):
			running = m.MatchID
		case strings.HasSuffix(r.URL.Path, "/game-end") && m.MatchID == running:
			running = ""
		}
		copyAnswer(w, rec)
	})
}

// baselineMafia is the reference baseline's move for a Mafia view, as a
// JSON object.
func baselineMafia(raw json.RawMessage) map[string]any {
	var v mafia.View
	json.Unmarshal(raw, &v)
	b, _ := json.Marshal(mafia.Baseline(v))
	var mv map[string]any
	json.Unmarshal(b, &mv)
	return mv
}

// otherLiving is the lowest living seat of v other than its own.
func otherLiving(v mafia.View) int {
	for s := range 12 {
		if s != v.YourSeat && v.Alive[strconv.Itoa(s)] {
			return s
		}
	}
	return -1
}

// typedTurns answers the agent's /turn bodies as they are, typed ct.
func typedTurns(h http.Handler, ct string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/turn") {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		w.Header().Set("Content-Type", ct)
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}
