// Package agent is the reference push agent: the agent side of Pyyol's
// legacy hosted-HTTP model (protocol.md). Its endpoint.url is
// BasePath+"/turn"; /health, /handshake, /initialize, /event and /game-end
// are its siblings, told apart by the last path segment as the official
// SDK does, so any other POST under BasePath is a turn. Every route but
// /health verifies the platform's signature with reference/pushsign before
// any handler runs.
package agent

import (
	"encoding/json"
	"log"
	"net/http"
	"path"
	"strings"
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
	// ComparesEarlyExit compares the signature with a hand-rolled loop that
	// returns at the first difference and never looks at the last
	// character: the off-by-one a constant-time compare (hmac.Equal) is
	// there to replace (PYYOL-SIGN-CONSTANT-TIME).
	ComparesEarlyExit Flaw = "compares-early-exit"
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
	routes map[string]http.Handler
}

// Name and Version are what /health and the acks report of the agent.
const (
	Name    = "conformance-reference"
	Version = "conformance-reference-1.0"
)

// New builds an agent; an empty secret is DevSecret.
func New(opts Options) *Agent {
	if opts.Secret == "" {
		opts.Secret = DevSecret
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	a := &Agent{opts: opts, verify: pushsign.NewVerifier([]byte(opts.Secret), opts.Now)}
	// PYYOL-PUSH-SIBLINGS: the routes are siblings of /turn, told apart by
	// the last path segment as the official SDK does
	// (sdk/python/pyyol/server.py); any other POST is a turn.
	a.routes = map[string]http.Handler{
		"handshake":  a.signed(a.handshake),
		"initialize": a.signed(ack(map[string]any{"ready": true, "display_name": Name})),
		"event":      a.signed(ack(map[string]bool{"ok": true})),
		"game-end":   a.signed(ack(map[string]bool{"ok": true})),
	}
	return a
}

// ServeHTTP routes r as the SDK does: GET .../health is the unsigned
// probe, another GET is 405, and every POST is verified before its route
// runs. Paths outside BasePath are no route of the agent (404).
func (a *Agent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != BasePath && !strings.HasPrefix(r.URL.Path, BasePath+"/") {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "not_found"})
		return
	}
	route := path.Base(strings.TrimRight(r.URL.Path, "/"))
	switch {
	case r.Method == http.MethodGet && route == "health":
		a.health(w, r)
	case r.Method != http.MethodPost:
		w.Header().Set("Allow", "POST")
		writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": "method_not_allowed"})
	case a.routes[route] != nil:
		a.routes[route].ServeHTTP(w, r)
	default:
		a.signed(a.turn).ServeHTTP(w, r)
	}
}

// health is the unsigned liveness probe (PYYOL-PUSH-HEALTH), with the
// agent's name and version as the platform reads them
// (backend/internal/agentclient/agentclient.go HealthBody).
func (a *Agent) health(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "healthy", "agent": Name, "version": Version})
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
	writeJSON(w, http.StatusOK, map[string]any{"accepted": true, "sdkVersion": Version, "supportedGames": games})
}

// turn answers a Goofspiel view with the baseline's move (PYYOL-PUSH-TURN);
// a game it does not play has no handler (PYYOL-PUSH-NO-TURN-HANDLER).
// The body is normalized first (TurnView): the view at the top level or
// wrapped in "view".
func (a *Agent) turn(w http.ResponseWriter, _ *http.Request, body []byte) {
	game, view, err := TurnView(body)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "bad_request", "message": err.Error()})
		return
	}
	switch {
	case game == "mafia" && a.opts.Mafia:
		a.mafiaTurn(w, view)
	case game == "monopoly" && a.opts.Monopoly:
		a.monopolyTurn(w, view)
	case game == "goofspiel":
		a.goofspielTurn(w, view)
	default:
		writeJSON(w, http.StatusNotImplemented, map[string]string{"error": "no_turn_handler", "game": game})
	}
}

// goofspielTurn answers a Goofspiel view. PYYOL-PUSH-LEGAL-MOVES: the
// baseline's move is always one of legal_actions, for the round the view
// names. The body's "protocol": "1.0" (PYYOL-PUSH-PROTOCOL-FIELD) is the
// platform's to send; the agent reads past it.
func (a *Agent) goofspielTurn(w http.ResponseWriter, raw json.RawMessage) {
	var view goofspiel.View
	if err := json.Unmarshal(raw, &view); err != nil || len(view.LegalActions) == 0 {
		handlerError(w, "the view has no legal_actions")
		return
	}
	writeJSON(w, http.StatusOK, goofspiel.Baseline(view))
}

// handlerError is the SDK's answer when a turn handler cannot decide:
// 500 {"error":"handler_error","message":...}; the platform then plays
// its fallback.
func handlerError(w http.ResponseWriter, message string) {
	writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "handler_error", "message": message})
}

// TurnView normalizes a /turn body to its game and view. The platform
// and the SDK put the view's fields at the top level beside match_id and
// game (PYYOL-REF-PUSH-BODIES); the kit's earlier layout wrapped it as
// {"view": {...}}, which is read too.
func TurnView(body []byte) (game string, view json.RawMessage, err error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return "", nil, err
	}
	view = body
	if inner := top["view"]; len(inner) > 0 && inner[0] == '{' {
		view = inner
	}
	if json.Unmarshal(top["game"], &game) != nil || game == "" {
		var in struct{ Game string }
		json.Unmarshal(view, &in)
		game = in.Game
	}
	return game, view, nil
}

// ack answers a lifecycle notification with 200 (PYYOL-PUSH-INITIALIZE,
// PYYOL-PUSH-EVENT-ACK, PYYOL-PUSH-GAME-END-ACK).
func ack(body any) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, _ *http.Request, _ []byte) { writeJSON(w, http.StatusOK, body) }
}

// MaxBody bounds a pushed request's body (a REFERENCE choice of the
// input policy, reference/skeleton): a Mafia view with its whole
// transcript stays far below it.
const MaxBody = 1 << 20

// signed verifies a request before its handler runs and refuses it with
// 401 {"error":"unauthorized","reason":...} otherwise.
func (a *Agent) signed(h func(http.ResponseWriter, *http.Request, []byte)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A body over the limit is refused whole (413) before the
		// signature is looked at, so the signature always covers every
		// byte the agent reads: a 2 MiB body signed over its first 1 MiB
		// can never be taken for a signed one.
		body, ierr := skeleton.ReadBody(r, MaxBody)
		if ierr != nil {
			writeJSON(w, ierr.Status, map[string]string{"error": ierr.Code, "reason": ierr.Message})
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
	case ComparesEarlyExit:
		want := pushsign.Header([]byte(a.opts.Secret), s.Timestamp, s.Nonce, s.Method, s.Path, s.Body)
		if earlyExitEqual(s.Signature, want) {
			s.Signature = want
		}
	}
	return a.verify.Verify(s)
}

// earlyExitEqual is the flawed compare of ComparesEarlyExit: it stops at
// the first difference and its loop bound skips the last character.
func earlyExitEqual(got, want string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := 0; i < len(want)-1; i++ {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

// writeJSON answers JSON in the shapes of spec/pyyol/openapi.yaml
// (PYYOL-OPENAPI).
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
