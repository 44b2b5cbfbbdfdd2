// Package server is the reference Pyyol agent gateway (local-runtime.md):
// the WebSocket an agent dials out to at /v1/agent/connect, with the
// hello/register handshake, practice Goofspiel matches against the kit's
// baseline bot, turns correlated by id, events by seq, game_end,
// heartbeats, reconnection and the deterministic fallback. It also mints
// practice agent keys (PYYOL-REF-MINT).
package server

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"sync"
	"time"

	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
	"github.com/agentgames/conformance/reference/pyyol/mafia"
	"github.com/agentgames/conformance/reference/pyyol/stakes"
	"github.com/agentgames/conformance/reference/skeleton"
)

// BasePath is where the gateway is mounted; the socket is at
// BasePath+"/agent/connect", as the docs' wss://api.pyyol.com/v1/agent/connect.
const BasePath = "/v1"

// Options configures a gateway.
type Options struct {
	skeleton.Config
	// TurnTimeout bounds the wait for a turn response (default 2 s,
	// PYYOL-REF-TURN-TIMEOUT).
	TurnTimeout time.Duration
	// PingEvery is the gateway's own heartbeat (default 15 s, the
	// platform's HeartbeatInterval in backend/internal/agentgw/gateway.go).
	PingEvery time.Duration
	// OfflineAfter is how long a registered socket may stay silent (no
	// frame at all from the agent) before the gateway marks it Offline and
	// closes it (default DefaultOfflineAfter; PYYOL-REF-OFFLINE).
	OfflineAfter time.Duration
	// HeartbeatGap is how long serve --audit lets a registered socket go
	// without the agent's ping before it names PYYOL-AGENT-HEARTBEAT
	// (default DefaultHeartbeatGap); the agent scenarios shorten it.
	HeartbeatGap time.Duration
	// ReconnectGrace is how long after its match ended serve --audit lets
	// an agent whose socket dropped take to come back before it names
	// PYYOL-AGENT-RECONNECT (default DefaultReconnectGrace).
	ReconnectGrace time.Duration
	Tamper         Tamper
	// Rewrite, when set, edits the frames the gateway sends: the kit's
	// tests build broken gateways with it.
	Rewrite Rewrite
	// Referee, when set, hears of every move the gateway refused or missed
	// and of every finished match (`conformance simulate --listen` fails
	// loudly on them).
	Referee Referee
	// AdminToken authorizes the stake-tier admin API (default AdminToken).
	AdminToken string
	// SkipField names a manifest field rule the platform forgets (tests).
	SkipField string
	// MafiaFinished, when set, hears of every finished Mafia match.
	MafiaFinished func(agentID string, o mafia.Outcome)
	// PushWrap, when set, wraps the transport of the platform's push
	// client, so a test can plant a slip in every call the platform makes
	// to an agent endpoint (its headers, path or body), as Rewrite does
	// for the gateway's frames.
	PushWrap func(http.RoundTripper) http.RoundTripper
}

// Referee hears what a gateway decided about an agent's moves.
type Referee interface {
	Fallback(agentID string, round int, why string)
	Finished(agentID string, res goofspiel.Result)
}

// Gateway is the reference gateway.
type Gateway struct {
	opts Options
	mux  *http.ServeMux
	log  *log.Logger

	mu        sync.Mutex
	keys      map[string]string     // token -> agent id
	agents    map[string]*link      // agent id -> its current socket
	playing   map[string]bool       // agent ids whose seat a match is driving
	manifests map[string]*published // agent id/manifest id -> manifest
	tiers     map[string][]stakes.Tier
	wallets   map[string]stakes.Limits
	stakes    map[string]*ranked // agent id -> stake of its next match
	exposures map[string]stakes.Exposure
	audits    map[string]*agentAudit // agent id -> what serve --audit saw
	registers uint64                 // registrations so far (link.order)
	minted    uint64
	matches   uint64
}

// New builds a gateway.
func New(opts Options) *Gateway {
	if opts.TurnTimeout <= 0 {
		opts.TurnTimeout = 2 * time.Second
	}
	if opts.PingEvery <= 0 {
		opts.PingEvery = 15 * time.Second
	}
	if opts.OfflineAfter <= 0 {
		opts.OfflineAfter = DefaultOfflineAfter
	}
	if opts.AdminToken == "" {
		opts.AdminToken = AdminToken
	}
	if opts.HeartbeatGap <= 0 {
		opts.HeartbeatGap = DefaultHeartbeatGap
	}
	if opts.ReconnectGrace <= 0 {
		opts.ReconnectGrace = DefaultReconnectGrace
	}
	g := &Gateway{opts: opts, mux: http.NewServeMux(), log: opts.Log, keys: map[string]string{}, agents: map[string]*link{},
		playing: map[string]bool{}, manifests: map[string]*published{}, tiers: map[string][]stakes.Tier{},
		wallets: map[string]stakes.Limits{}, stakes: map[string]*ranked{}, exposures: map[string]stakes.Exposure{}}
	for _, game := range games {
		g.tiers[game] = stakes.Default()
	}
	g.mux.HandleFunc("POST "+BasePath+"/practice/agents", g.mint)
	g.mux.HandleFunc("GET "+BasePath+"/agent/connect", g.connect)
	g.routePublish()
	g.routeStakes()
	g.mux.HandleFunc("/", notFound)
	return g
}

// ServeHTTP routes r; what no route takes gets the skeleton's coded JSON
// 404 or 405.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	skeleton.CodedMux(g.mux).ServeHTTP(w, r)
}

// derive makes a reproducible hex string from the seed, a label and a
// counter, for keys and match seeds.
func (g *Gateway) derive(label string, n uint64, size int) []byte {
	var buf [16]byte
	binary.BigEndian.PutUint64(buf[:8], uint64(g.opts.Seed))
	binary.BigEndian.PutUint64(buf[8:], n)
	sum := sha256.Sum256(append([]byte(label), buf[:]...))
	return sum[:size]
}

// mint answers POST /v1/practice/agents with a fresh practice key.
func (g *Gateway) mint(w http.ResponseWriter, r *http.Request) {
	// PYYOL-REF-MINT: 201 {"agent_id":"ag_<hex>","token":"sk_arena_<hex>"}.
	g.mu.Lock()
	g.minted++
	n := g.minted
	id := "ag_" + hex.EncodeToString(g.derive("agent", n, 8))
	token := "sk_arena_" + hex.EncodeToString(g.derive("token", n, 20))
	g.keys[token] = id
	g.mu.Unlock()
	// PYYOL-REF-DASHBOARD-JWT: the owner's dashboard JWT comes with the key.
	writeJSON(w, http.StatusCreated, map[string]string{"agent_id": id, "token": token, "dashboard_token": g.dashboardJWT(id)})
}

// resolve maps an agent key to its agent id (PYYOL-WS-AGENT-KEY).
func (g *Gateway) resolve(token, claimed string) (string, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.opts.Tamper == AcceptAnyToken && claimed != "" {
		return claimed, true
	}
	id, ok := g.keys[token]
	if !ok {
		id, ok = g.jwtAgent(token)
	}
	return id, ok && (claimed == "" || claimed == id)
}

func (g *Gateway) logf(format string, args ...any) {
	if g.log != nil {
		g.log.Printf(format, args...)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (g *Gateway) nextMatchID() (string, []byte) {
	g.mu.Lock()
	g.matches++
	n := g.matches
	g.mu.Unlock()
	return fmt.Sprintf("mt_%s", hex.EncodeToString(g.derive("match", n, 6))), g.derive("seed", n, 32)
}

// isPlaying reports whether a match is driving the agent's seat.
func (g *Gateway) isPlaying(agentID string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.playing[agentID]
}

// notFound answers an unknown route in JSON, as every other answer is.
func notFound(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusNotFound, map[string]string{"error": "not_found"})
}
