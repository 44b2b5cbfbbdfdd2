package pyyol_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/agentgames/conformance/reference/pushsign"
	"github.com/agentgames/conformance/reference/pyyol/agent"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// pushSlipsRound6 are the sixth round of agent-endpoint slips
// (docs/detection.md, "pyyol-push (round 6)"): the v1= prefix cut with a
// character-set trim, a compare over the signature sent, an unreadable
// timestamp let through, the nonce store skipped for the calls an agent
// dedupes by match_id, /health verified when it carries the platform's
// request id, lifecycle calls refused by what the agent holds of their
// match, and a Goofspiel move whose round or card the agent derived
// instead of reading the view.
func pushSlipsRound6() []pushSlip {
	faithful := func() http.Handler { return agent.New(agent.Options{}) }
	return []pushSlip{
		{"the v1= prefix cut with a character-set trim (lstrip), eating the hex's leading 1s", "PYYOL-SIGN-STRING", verifier{trimLeft: true}.wrap},
		{"the signature compared over the length sent, so a prefix of it matches", "PYYOL-SIGN-BAD", verifier{sentLength: true}.wrap},
		{"a timestamp that does not parse let through (a NaN compares false)", "PYYOL-SIGN-STALE", verifier{unreadableOK: true}.wrap},
		{"the nonce store skipped for /initialize and /game-end, deduped by match_id", "PYYOL-SIGN-REPLAY",
			verifier{noReplayOn: []string{"/initialize", "/game-end"}}.wrap},
		{"/health verified when it carries the platform's request id", "PYYOL-PUSH-HEALTH", func() http.Handler {
			return verifiesMarkedHealth(faithful())
		}},
		{"a /game-end of a match never initialized answered 500 (its state looked up without a default)", "PYYOL-PUSH-GAME-END-ACK", func() http.Handler {
			return matchBook(faithful(), bookSlip{unknownEnd: http.StatusInternalServerError})
		}},
		{"a second /game-end of a match refused 409", "PYYOL-PUSH-GAME-END-ACK", func() http.Handler {
			return matchBook(faithful(), bookSlip{endedTwice: http.StatusConflict})
		}},
		{"a second /initialize of a running match refused 409", "PYYOL-PUSH-INITIALIZE", func() http.Handler {
			return matchBook(faithful(), bookSlip{runningTwice: http.StatusConflict})
		}},
		{"a Goofspiel round echoed from the agent's own count of the match's turns", "PYYOL-PUSH-TURN", func() http.Handler {
			return countsRounds()
		}},
		{"a Goofspiel card bid from the round (1, 2, 3, ...), not read from legal_actions", "PYYOL-PUSH-TURN", func() http.Handler {
			return gameAnswers("goofspiel", func(raw json.RawMessage) any {
				var v goofspiel.View
				json.Unmarshal(raw, &v)
				return goofspiel.Move{Round: v.Round, Card: v.Round + 1}
			})
		}},
	}
}

// faithfulPushAgentsRound6 take readings the docs leave open next to the
// round-6 slips: an unreadable timestamp refused as a missing one
// (missing_signature; the docs name no reason for it), and an agent that
// keeps each match's state by match_id, made at its first call whichever
// it is, and acknowledges every lifecycle call, one for a match it holds
// no state of too, with a body of its own.
func faithfulPushAgentsRound6() []func() http.Handler {
	faithful := func() http.Handler { return agent.New(agent.Options{}) }
	return []func() http.Handler{
		func() http.Handler { return unreadableAsMissing(verifier{}.wrap()) },
		func() http.Handler { return matchBook(faithful(), bookSlip{}) },
	}
}

// verifiesMarkedHealth is an agent whose middleware verifies every
// request that carries the platform's X-Arena-Request-Id or
// X-Arena-Timestamp, /health too: the platform's own probe carries both
// (agentclient.go attempt sets them on every call) but no signature, so
// it is refused 401 missing_signature.
func verifiesMarkedHealth(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		marked := r.Header.Get(pushsign.NonceHeader) != "" || r.Header.Get(pushsign.TimestampHeader) != ""
		if strings.HasSuffix(r.URL.Path, "/health") && marked && r.Header.Get(pushsign.SignatureHeader) == "" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":"unauthorized","reason":"missing_signature"}`))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// bookSlip is what a matchBook agent answers, instead of 200, to a
// lifecycle call by what it holds of the call's match; 0 acknowledges.
type bookSlip struct {
	unknownEnd   int // a /game-end of a match it never held
	endedTwice   int // a /game-end of a match already ended
	runningTwice int // an /initialize of a match already running
}

// matchBook keeps each match's state by match_id, as the FAQ asks, made
// at the match's /initialize or its first /turn (the platform's
// Initialize is best-effort: "the agent may also initialise lazily on the
// first /turn"), and answers the lifecycle calls slip picks out with its
// status. A call the reference agent refuses (its signature) is its
// answer as it stands.
func matchBook(h http.Handler, slip bookSlip) http.Handler {
	var mu sync.Mutex
	state := map[string]string{} // match_id -> "running" or "ended"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var m struct {
			MatchID string `json:"match_id"`
		}
		json.Unmarshal(body, &m)
		rec := recorded(h, r)
		if rec.Code != http.StatusOK || m.MatchID == "" {
			copyAnswer(w, rec)
			return
		}
		mu.Lock()
		status, known := bookAnswer(state, r.URL.Path, m.MatchID, slip)
		mu.Unlock()
		switch {
		case status != 0:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_ = json.NewEncoder(w).Encode(map[string]string{"error": "match_state", "match_id": m.MatchID})
		case !known && strings.HasSuffix(r.URL.Path, "/game-end"):
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"ok":true,"known":false}`))
		default:
			copyAnswer(w, rec)
		}
	})
}

// bookAnswer moves match's state for a call to path and returns the
// status slip answers it with (0: acknowledge) and whether the agent
// held the match before the call.
func bookAnswer(state map[string]string, path, match string, slip bookSlip) (int, bool) {
	was, known := state[match]
	switch {
	case strings.HasSuffix(path, "/initialize"):
		if was == "running" && slip.runningTwice != 0 {
			return slip.runningTwice, known
		}
		state[match] = "running"
	case strings.HasSuffix(path, "/game-end"):
		if !known && slip.unknownEnd != 0 {
			return slip.unknownEnd, known
		}
		if was == "ended" && slip.endedTwice != 0 {
			return slip.endedTwice, known
		}
		state[match] = "ended"
	case strings.HasSuffix(path, "/turn") && !known:
		state[match] = "running"
	}
	return 0, known
}

// countsRounds is an agent that plays the baseline's card but echoes as
// the round its own count of the turns it answered for the match: right
// while it saw every turn of the match from the first, wrong for a view
// in the middle of a match it had not seen (the view is self-contained,
// and the platform's Initialize is best-effort).
func countsRounds() http.Handler {
	var mu sync.Mutex
	turns := map[string]int{}
	return gameAnswers("goofspiel", func(raw json.RawMessage) any {
		var v struct {
			goofspiel.View
			MatchID string `json:"match_id"`
		}
		json.Unmarshal(raw, &v)
		mu.Lock()
		defer mu.Unlock()
		mv := goofspiel.Baseline(v.View)
		mv.Round = turns[v.MatchID]
		turns[v.MatchID]++
		return mv
	})
}

// unreadableAsMissing answers a refusal of an unreadable timestamp with
// reason missing_signature: a header that holds no time read as no
// timestamp at all.
func unreadableAsMissing(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ts := r.Header.Get(pushsign.TimestampHeader); ts == "" || readableTime(ts) {
			h.ServeHTTP(w, r)
			return
		}
		rec := recorded(h, r)
		if rec.Code != http.StatusUnauthorized {
			copyAnswer(w, rec)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":"unauthorized","reason":"missing_signature"}`))
	})
}

// recorded is h's answer to r, held to be looked at.
func recorded(h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

// readableTime reports whether ts parses as an RFC3339 time.
func readableTime(ts string) bool {
	_, err := time.Parse(time.RFC3339, ts)
	return err == nil
}
