package pyyol_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agentgames/conformance/reference/pushsign"
	"github.com/agentgames/conformance/reference/pyyol/agent"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// pushSlipsRound7 are the seventh round of agent-endpoint slips
// (docs/detection.md, "pyyol-push (round 7)"): a window with no bound
// ahead (the age compared without its absolute value), the signed path
// taken with its query string, the last seat of a match refused at its
// /initialize, lifecycle and turn calls refused for a match the agent
// never saw start, a /game-end decoded as Goofspiel's result only, a
// Goofspiel bid equal to the prize and a Mafia target counted from 1.
func pushSlipsRound7() []pushSlip {
	return []pushSlip{
		{"the window bounded behind only (the age compared without its absolute value)", "PYYOL-SIGN-STALE",
			verifier{future: 100 * 365 * 24 * time.Hour}.wrap},
		{"the signed path taken with its query string (RequestURI)", "PYYOL-SIGN-PATH", func() http.Handler {
			return signsQuery(agent.New(agent.Options{}))
		}},
		{"a Goofspiel agent refusing the last seat at /initialize (seat < players-1)", "PYYOL-PUSH-INITIALIZE", func() http.Handler {
			return refusesLastSeat(agent.New(agent.Options{}))
		}},
		{"an /event of a match never initialized refused 409", "PYYOL-PUSH-EVENT-ACK", func() http.Handler {
			return needsInitialize(allGames(), "/event")
		}},
		{"a /turn of a match never initialized refused 409", "PYYOL-PUSH-TURN", func() http.Handler {
			return needsInitialize(allGames(), "/turn")
		}},
		{"a /game-end decoded as Goofspiel's result only (a numeric winner), others refused 400", "PYYOL-PUSH-GAME-END-ACK", func() http.Handler {
			return goofspielEndOnly(allGames())
		}},
		{"a Goofspiel card bid equal to the round's prize, not read from legal_actions", "PYYOL-PUSH-TURN", func() http.Handler {
			return gameAnswers("goofspiel", func(raw json.RawMessage) any {
				var v goofspiel.View
				json.Unmarshal(raw, &v)
				return goofspiel.Move{Round: v.Round, Card: v.CurrentPrize}
			})
		}},
		{"a Mafia target counted from 1 (seat+1)", "PYYOL-MAFIA-MOVE", func() http.Handler {
			return rewritesMoves(allGames(), func(mv map[string]any) any {
				if t, ok := mv["target"].(float64); ok {
					mv["target"] = t + 1
				}
				return mv
			})
		}},
	}
}

// faithfulPushAgentsRound7 take readings the docs leave open next to the
// round-7 slips: an /initialize acknowledged for any seat below players,
// with the seat checked against the player count, and a /game-end whose
// result is read loosely, any shape acknowledged.
func faithfulPushAgentsRound7() []func() http.Handler {
	return []func() http.Handler{
		func() http.Handler { return checksSeat(allGames()) },
		func() http.Handler { return endReadLoosely(allGames()) },
	}
}

// allGames is the reference agent with every game's handler.
func allGames() http.Handler { return agent.New(agent.Options{Monopoly: true, Mafia: true}) }

// lifecycleBody is what the slips read of a call's body.
type lifecycleBody struct {
	MatchID string          `json:"match_id"`
	Seat    *int            `json:"seat"`
	Players int             `json:"players"`
	Result  json.RawMessage `json:"result"`
}

// readBody reads r's body as a lifecycle call and puts it back.
func readBody(r *http.Request) lifecycleBody {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var b lifecycleBody
	json.Unmarshal(body, &b)
	return b
}

// refuse answers status with a JSON error.
func refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// signsQuery is an agent whose verifier checks the signature over the
// path with its query string (Go's RequestURI, Flask's full_path), so a
// request to a URL with a query, signed over its path, is refused.
func signsQuery(h http.Handler) http.Handler {
	inner := agent.New(agent.Options{Flaw: agent.SkipsSignature})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery == "" || strings.HasSuffix(r.URL.Path, "/health") {
			h.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if r.Header.Get(pushsign.SignatureHeader) != signedOverURI(r, body) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":"unauthorized","reason":"bad_signature"}`))
			return
		}
		inner.ServeHTTP(w, r)
	})
}

// signedOverURI is the slip's signature of r: the signing string built by
// hand over r's request URI, query and all (pushsign.Header would cut
// the query, as the docs ask).
func signedOverURI(r *http.Request, body []byte) string {
	sum := sha256.Sum256(body)
	s := strings.Join([]string{r.Header.Get(pushsign.TimestampHeader), r.Header.Get(pushsign.NonceHeader), r.Method,
		r.URL.RequestURI(), hex.EncodeToString(sum[:])}, "\n")
	return pushsign.Prefix + hex.EncodeToString(pushsign.HMACSHA256([]byte(agent.DevSecret), []byte(s)))
}

// refusesLastSeat refuses 422 an /initialize whose seat is not below
// players-1: an off-by-one that refuses the last seat of every match.
func refusesLastSeat(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/initialize") {
			if b := readBody(r); b.Seat != nil && b.Players > 0 && *b.Seat >= b.Players-1 {
				refuse(w, http.StatusUnprocessableEntity, "seat out of range")
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// checksSeat refuses an /initialize only when its seat is outside
// 0..players-1, the count the body gives: every seat the platform can
// give is acknowledged.
func checksSeat(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/initialize") {
			if b := readBody(r); b.Seat != nil && b.Players > 0 && (*b.Seat < 0 || *b.Seat >= b.Players) {
				refuse(w, http.StatusUnprocessableEntity, "seat out of range")
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// needsInitialize refuses 409 a call to route for a match whose
// /initialize the agent never acknowledged: state looked up by match_id
// with no default.
func needsInitialize(h http.Handler, route string) http.Handler {
	var mu sync.Mutex
	started := map[string]bool{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := readBody(r)
		if strings.HasSuffix(r.URL.Path, route) && b.MatchID != "" {
			mu.Lock()
			known := started[b.MatchID]
			mu.Unlock()
			if !known {
				refuse(w, http.StatusConflict, "unknown match")
				return
			}
		}
		rec := recorded(h, r)
		if strings.HasSuffix(r.URL.Path, "/initialize") && rec.Code == http.StatusOK {
			mu.Lock()
			started[b.MatchID] = true
			mu.Unlock()
		}
		copyAnswer(w, rec)
	})
}

// goofspielEndOnly decodes every /game-end's result as Goofspiel's
// {winner, scores} and refuses 400 one without a numeric winner (Mafia's
// and Monopoly's results).
func goofspielEndOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/game-end") {
			var res struct {
				Winner *int `json:"winner"`
			}
			if b := readBody(r); json.Unmarshal(b.Result, &res) != nil || res.Winner == nil {
				refuse(w, http.StatusBadRequest, "bad result")
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// endReadLoosely acknowledges every verified /game-end with
// {"ok":true,"winner":...}, the winner when the result has one of
// Goofspiel's shape and null otherwise.
func endReadLoosely(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/game-end") {
			h.ServeHTTP(w, r)
			return
		}
		b := readBody(r)
		rec := recorded(h, r)
		if rec.Code != http.StatusOK {
			copyAnswer(w, rec)
			return
		}
		var res struct {
			Winner *int `json:"winner"`
		}
		json.Unmarshal(b.Result, &res)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "winner": res.Winner})
	})
}
