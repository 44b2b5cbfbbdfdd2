// Package agent is the reference push agent: the agent side of Pyyol's
// legacy hosted-HTTP model (protocol.md). Its endpoint.url is
// BasePath+"/turn"; /health, /handshake, /initialize, /event and /game-end
// are its siblings. Every route but /health verifies the platform's
// signature with reference/pushsign before any handler runs.
package agent

import (
	"encoding/json"
	"io"
	"log"
	"net/http"
	"time"

	"github.com/agentgames/conformance/reference/pushsign"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
	"github.com/agentgames/conformance/reference/skeleton"
)

// BasePath is where `conformance serve` mounts the agent.
const BasePath = "/pyyol-agent"

// DevSecret is the reference agent's endpoint secret unless configured
// (PYYOL-REF-PUSH-SECRET: the docs' own "--secret dev-secret").
const DevSecret = "dev-secret"

// Flaw names a deliberate security defect, for the tamper tests.
type Flaw string

// The defects the tamper tests use.
const (
	SkipsSignature Flaw = "skips-signature"
	AcceptsStale   Flaw = "accepts-stale"
	AcceptsReplay  Flaw = "accepts-replay"
	IgnoresMissing Flaw = "ignores-missing"
)

// Options configures the agent.
type Options struct {
	Secret string
	Now    func() time.Time
	Log    *log.Logger
	Flaw   Flaw
	// Mafia also plays Mafia (the baseline's moves) and lists it in the
	// handshake; off by default, so the kit's own push checks still find a
	// documented game the reference agent does not play.
	Mafia bool
	// Monopoly also plays Monopoly (the docs' example moves) and lists it
	// in the handshake.
	Monopoly bool
}

// Agent is the reference push agent.
type Agent struct {
	opts   Options
	verify *pushsign.Verifier
	mux    *http.ServeMux
}

// New builds an agent; an empty secret is DevSecret.
func New(opts Options) *Agent {
	if opts.Secret == "" {
		opts.Secret = DevSecret
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	a := &Agent{opts: opts, verify: pushsign.NewVerifier([]byte(opts.Secret), opts.Now), mux: http.NewServeMux()}
	// PYYOL-PUSH-SIBLINGS: the routes are siblings of /turn.
	a.mux.HandleFunc("GET "+BasePath+"/health", a.health)
	a.mux.Handle("POST "+BasePath+"/handshake", a.signed(a.handshake))
	a.mux.Handle("POST "+BasePath+"/initialize", a.signed(ack(map[string]bool{"ready": true})))
	a.mux.Handle("POST "+BasePath+"/turn", a.signed(a.turn))
	a.mux.Handle("POST "+BasePath+"/event", a.signed(ack(map[string]bool{"ok": true})))
	a.mux.Handle("POST "+BasePath+"/game-end", a.signed(ack(map[string]bool{"ok": true})))
	a.mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "not_found"})
	})
	return a
}

// ServeHTTP routes r; what no route takes gets the skeleton's coded JSON
// 404 or 405.
func (a *Agent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	skeleton.CodedMux(a.mux).ServeHTTP(w, r)
}

// health is the unsigned liveness probe (PYYOL-PUSH-HEALTH).
func (a *Agent) health(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "healthy"})
}

// handshake announces the games it plays (PYYOL-PUSH-HANDSHAKE).
func (a *Agent) handshake(w http.ResponseWriter, _ *http.Request, _ []byte) {
	games := []string{"goofspiel"}
	if a.opts.Mafia {
		games = append(games, "mafia")
	}
	if a.opts.Monopoly {
		games = append(games, "monopoly")
	}
	writeJSON(w, http.StatusOK, map[string]any{"accepted": true, "sdkVersion": "conformance-reference-1.0", "supportedGames": games})
}

// turnRequest is a /turn body (PYYOL-REF-PUSH-BODIES); the view is
// decoded by the game's own handler.
type turnRequest struct {
	Protocol string          `json:"protocol"`
	MatchID  string          `json:"match_id"`
	Game     string          `json:"game"`
	View     json.RawMessage `json:"view"`
}

// turn answers a Goofspiel view with the baseline's move (PYYOL-PUSH-TURN);
// another game has no handler (PYYOL-PUSH-NO-TURN-HANDLER).
func (a *Agent) turn(w http.ResponseWriter, _ *http.Request, body []byte) {
	var req turnRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "bad_request"})
		return
	}
	if req.Game == "mafia" && a.opts.Mafia {
		a.mafiaTurn(w, body)
		return
	}
	if req.Game == "monopoly" && a.opts.Monopoly {
		a.monopolyTurn(w, body)
		return
	}
	if req.Game != "goofspiel" {
		writeJSON(w, http.StatusNotImplemented, map[string]string{"error": "no_turn_handler"})
		return
	}
	var view goofspiel.View
	if err := json.Unmarshal(req.View, &view); err != nil || len(view.LegalActions) == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "no_legal_actions"})
		return
	}
	// PYYOL-PUSH-LEGAL-MOVES: the baseline's move is always one of
	// legal_actions, for the round the view names. The body's "protocol":
	// "1.0" (PYYOL-PUSH-PROTOCOL-FIELD) is the platform's to send; the agent
	// reads past it.
	writeJSON(w, http.StatusOK, goofspiel.Baseline(view))
}

// ack answers a lifecycle notification with 200 (PYYOL-PUSH-INITIALIZE,
// PYYOL-PUSH-EVENT-ACK, PYYOL-PUSH-GAME-END-ACK).
func ack(body any) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, _ *http.Request, _ []byte) { writeJSON(w, http.StatusOK, body) }
}

// signed verifies a request before its handler runs and refuses it with
// 401 {"error":"unauthorized","reason":...} otherwise.
func (a *Agent) signed(h func(http.ResponseWriter, *http.Request, []byte)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "bad_request"})
			return
		}
		if reason := a.check(r, body); reason != pushsign.OK {
			// PYYOL-SIGN-BAD, PYYOL-SIGN-STALE, PYYOL-SIGN-REPLAY,
			// PYYOL-SIGN-MISSING: the documented reasons.
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "unauthorized", "reason": string(reason)})
			return
		}
		h(w, r, body)
	})
}

// check verifies the signature headers (PYYOL-SIGN-STRING over
// PYYOL-SIGN-PATH, PYYOL-SIGN-HEADERS; PYYOL-SIGN-CONSTANT-TIME and
// PYYOL-SIGN-SKEW-WINDOW in pushsign), except where a flaw is configured.
func (a *Agent) check(r *http.Request, body []byte) pushsign.Reason {
	s := pushsign.Signed{Timestamp: r.Header.Get(pushsign.TimestampHeader), Nonce: r.Header.Get(pushsign.NonceHeader),
		Signature: r.Header.Get(pushsign.SignatureHeader), Method: r.Method, Path: r.URL.EscapedPath(), Body: body}
	switch a.opts.Flaw {
	case SkipsSignature:
		return pushsign.OK
	case IgnoresMissing:
		if s.Signature == "" {
			return pushsign.OK
		}
	case AcceptsStale:
		if s.Timestamp != "" && s.Nonce != "" && a.verify.SignatureMatches(s) {
			return pushsign.OK
		}
	case AcceptsReplay:
		return pushsign.NewVerifier([]byte(a.opts.Secret), a.opts.Now).Verify(s)
	}
	return a.verify.Verify(s)
}

// writeJSON answers JSON in the shapes of spec/pyyol/openapi.yaml
// (PYYOL-OPENAPI).
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
