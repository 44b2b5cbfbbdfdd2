// Package server is the Echoes of Iyra reference HTTP server: the whole v5
// surface of spec/iyra/openapi.yaml (acceptance, proof-of-work
// verification, Bearer keys, assignment, sessions under Idempotency-Key,
// actions, replay, trust) over the pure engine in reference/iyra. Every
// request is served under one mutex, so concurrent callers never observe or
// produce a torn state; all randomness comes from Options.Seed.
package server

import (
	"encoding/binary"
	"encoding/hex"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/agentgames/conformance/reference/httplog"
	"github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/skeleton"
)

// The published identifiers of the one game this server hosts.
const (
	BasePath  = "/api/v5"
	Slug      = "echoes-of-iyra"
	VersionID = "xgv_e3baba90b92558c7b5d8d598"
	Campaign  = "challenge-play-w1"
)

// The contract's alternative game helios-relay, which the reference also
// assigns with a version of its own, so that an Idempotency-Key reused for
// another game and version is checked live (IYRA-SESSION-KEY-REUSE). The
// contract names the game among its alternatives and publishes nothing
// else of it: its assignment and sessions are the reference's stand-in,
// playing the Iyra rules (IYRA-REF-SECOND-GAME).
const (
	OtherSlug      = "helios-relay"
	OtherVersionID = "xgv_4e110593e1a7c0de5ec0d6a1"
)

// RolloutVersionID is the second version of the game the reference rolls
// out, so that an Idempotency-Key reused for another version of one game is
// checked live too (IYRA-SESSION-KEY-REUSE). The contract says an
// assignment "may differ from this public preview during rollout" and
// names no way to join one: the reference's stand-in is an agent reading
// GET /store/{slug}/assignment?track=rollout, which assigns it this
// version beside the current one, with the same rules (IYRA-REF-ROLLOUT).
// Every other read of the assignment still names VersionID.
const (
	RolloutVersionID = "xgv_0a11bac0ffee5ec0d0000002"
	RolloutTrack     = "rollout"
)

// versionOf is the version the reference assigns for slug, and whether it
// hosts that game at all.
func versionOf(slug string) (string, bool) {
	switch slug {
	case Slug:
		return VersionID, true
	case OtherSlug:
		return OtherVersionID, true
	}
	return "", false
}

// Options configures a server. Zero values pick the documented defaults.
type Options struct {
	Seed int64
	// Now is the clock (nil: time.Now); challenge expiry and quotas read it.
	Now func() time.Time
	// Log receives one line per request when set.
	Log *log.Logger
	// Rules are the game rules (zero value: iyra.DefaultRules()). Tests pass
	// broken rules to build targets that violate one rule.
	Rules *iyra.Rules
	// Pack is the content (nil: the embedded fixtures).
	Pack *iyra.Pack
	// Difficulty is the proof-of-work difficulty in hex zeroes (0: 4).
	Difficulty int
	// ChallengeTTL is how long a challenge stays valid (0: 10 minutes).
	ChallengeTTL time.Duration
	// SessionQuota is the sessions an agent may create per UTC day (0: 100000).
	SessionQuota int
}

// Server is the reference server. Create it with New.
type Server struct {
	opts   Options
	rules  iyra.Rules
	pack   *iyra.Pack
	mu     sync.Mutex
	rng    *rand.Rand
	agents map[string]*agent
	keys   map[string]*agent
	chals  map[string]*challenge
	sess   map[string]*session
	// pending lists challenge IDs in the order they were issued, for
	// sweepAccepts.
	pending []string
	mux     *http.ServeMux
	// docs holds the answers that never change, encoded once (document).
	docs map[string]preEncoded
}

type agent struct {
	id, name, model string
	key             string
	verified        bool
	idem            map[string]*idemEntry
	quotaDay        string
	quotaUsed       int
	// rollout is set once the agent read the rollout track's assignment:
	// RolloutVersionID is then assigned to it too (IYRA-REF-ROLLOUT).
	rollout bool
}

type challenge struct {
	id, agentID, value string
	difficulty         int
	expires            time.Time
	used               bool
}

type session struct {
	id, owner, key, variant string
	// slug and version are the game and version the session was created
	// for (Slug and VersionID, or the second game's).
	slug, version string
	game          *iyra.Game
	created       time.Time
	// chosen records that the caller selected the variant (IYRA-VARIANTS),
	// timedOut that the session ran past its time limit
	// (IYRA-DURATION-LIMIT); either makes it ranking-ineligible
	// (IYRA-RANKING-SEPARATE).
	chosen, timedOut bool
	// stateURL, actionsURL and replayURL are the session's URLs, set by
	// sessionBody on its first answer (under the server's lock).
	stateURL, actionsURL, replayURL string
}

type idemEntry struct {
	fingerprint string
	sessionID   string
}

// New builds a server from opts.
func New(opts Options) *Server {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Difficulty == 0 {
		opts.Difficulty = 4
	}
	if opts.ChallengeTTL == 0 {
		opts.ChallengeTTL = 10 * time.Minute
	}
	if opts.SessionQuota == 0 {
		opts.SessionQuota = 100000
	}
	s := &Server{
		opts: opts, rules: iyra.DefaultRules(), pack: opts.Pack,
		rng:    rand.New(rand.NewPCG(uint64(opts.Seed), 0x1a7a)),
		agents: map[string]*agent{}, keys: map[string]*agent{},
		chals: map[string]*challenge{}, sess: map[string]*session{},
	}
	if opts.Rules != nil {
		s.rules = *opts.Rules
	}
	if s.pack == nil {
		s.pack = iyra.DefaultPack()
	}
	s.routes()
	return s
}

// ServeHTTP serves one request, logging it when Options.Log is set.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	httplog.Handler(s.mux, s.opts.Log).ServeHTTP(w, r)
}

// maxBody is the largest request body the server reads (64 KiB); every
// body the contract describes is far smaller.
const maxBody = 1 << 16

// reply is a handler's answer: a status, a JSON body and optional headers.
type reply struct {
	status int
	body   any
	header map[string]string
}

// apiError is the error body of every 4xx (IYRA-ERROR-BODY).
type apiError struct {
	Code              string `json:"code"`
	Message           string `json:"message"`
	RetryAfterSeconds *int   `json:"retry_after_seconds,omitempty"`
	RetryAt           string `json:"retry_at,omitempty"`
	Revision          *int   `json:"revision,omitempty"`
}

// fail builds an error answer (IYRA-ERROR-BODY).
func fail(status int, code, message string) reply {
	return reply{status: status, body: apiError{Code: code, Message: message}}
}

// route adapts a handler to http: it reads the body before taking the lock,
// runs the handler under the lock and writes JSON.
func (s *Server) route(method string, h func(r *http.Request, body []byte) reply) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method {
			w.Header().Set("Allow", method)
			write(w, fail(http.StatusMethodNotAllowed, "method_not_allowed", r.Method+" is not allowed here; use "+method))
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil {
			write(w, fail(http.StatusBadRequest, "unreadable_body", "the request body could not be read"))
			return
		}
		if len(body) > maxBody {
			// IYRA-BAD-INPUT: too large is refused as such, never truncated and misread.
			write(w, fail(http.StatusRequestEntityTooLarge, "payload_too_large", "the request body exceeds 64 KiB"))
			return
		}
		if !utf8.Valid(body) {
			write(w, fail(http.StatusBadRequest, "malformed_json", "the body is not valid UTF-8")) // IYRA-INPUT-POLICY
			return
		}
		// The answer is encoded under the lock (it may share the game's
		// state) and written after it, so a client that never reads its
		// answer blocks only its own connection.
		s.mu.Lock()
		enc, buf := encodePooled(h(r, body))
		s.mu.Unlock()
		enc.Write(w)
		if buf != nil {
			*buf = enc.Body[:0] // written: the bytes go back for the next answer
			sessionBuffers.Put(buf)
		}
	}
}

// sessionBuffers recycles the session answers' bytes (a write's answer
// is 2 KiB or more): a buffer returns once its answer is written.
var sessionBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// encodePooled is encode, with a session answer written into a pooled
// buffer, returned as buf for the caller to put back once written (nil
// for any other answer).
func encodePooled(out reply) (skeleton.Encoded, *[]byte) {
	sr, ok := out.body.(sessionResponse)
	if !ok {
		return encode(out), nil
	}
	buf := sessionBuffers.Get().(*[]byte)
	return headers(skeleton.Encoded{Status: out.status, Header: http.Header{}, Body: appendSession((*buf)[:0], sr)}, out), buf
}

// encode renders a reply as JSON (IYRA-OPENAPI: the shapes of
// spec/iyra/openapi.yaml); answers are never cached because state moves.
func encode(out reply) skeleton.Encoded {
	switch body := out.body.(type) {
	case sessionResponse:
		return headers(skeleton.Encoded{Status: out.status, Header: http.Header{}, Body: appendSession(nil, body)}, out)
	case preEncoded:
		return headers(skeleton.Encoded{Status: out.status, Header: http.Header{}, Body: body}, out)
	}
	return headers(skeleton.EncodeJSON(out.status, out.body), out)
}

// headers sets an answer's headers: the reply's own, the JSON type and
// no caching.
func headers(enc skeleton.Encoded, out reply) skeleton.Encoded {
	for k, v := range out.header {
		enc.Header.Set(k, v)
	}
	enc.Header.Set("Content-Type", "application/json")
	enc.Header.Set("Cache-Control", "no-store")
	return enc
}

// write sends a reply at once; only for answers given without the lock.
func write(w http.ResponseWriter, out reply) { encode(out).Write(w) }

// routes registers the v5 surface. Patterns carry no method so a wrong
// method gets a JSON 405 instead of the mux's plain-text one.
func (s *Server) routes() {
	m := http.NewServeMux()
	m.Handle(BasePath+"/tasks/play", s.route(http.MethodGet, s.playPreview))
	m.Handle(BasePath+"/tasks/play/accept", s.route(http.MethodPost, s.accept))
	m.Handle(BasePath+"/agents/verify", s.route(http.MethodPost, s.verify))
	m.Handle(BasePath+"/store/{slug}", s.route(http.MethodGet, s.storeDetail))
	m.Handle(BasePath+"/store/{slug}/versions/{version}", s.route(http.MethodGet, s.storeVersion))
	m.Handle(BasePath+"/store/{slug}/assignment", s.route(http.MethodGet, s.assignment))
	m.Handle(BasePath+"/store/{slug}/sessions", s.route(http.MethodPost, s.createSession))
	m.Handle(BasePath+"/idempotency/status", s.route(http.MethodGet, s.idempotencyStatus))
	m.Handle(BasePath+"/sessions/{id}", s.route(http.MethodGet, s.readSession))
	m.Handle(BasePath+"/sessions/{id}/actions", s.route(http.MethodPost, s.act))
	m.Handle(BasePath+"/sessions/{id}/replay", s.route(http.MethodGet, s.replay))
	m.Handle(BasePath+"/trust", s.route(http.MethodGet, s.trust))
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		write(w, fail(http.StatusNotFound, "not_found", "no such endpoint: "+r.URL.Path))
	})
	s.mux = m
}

// token draws n random bytes from the seeded generator as hex.
func (s *Server) token(n int) string {
	buf := make([]byte, 0, n+8)
	for len(buf) < n {
		buf = binary.LittleEndian.AppendUint64(buf, s.rng.Uint64())
	}
	return hex.EncodeToString(buf[:n])
}
