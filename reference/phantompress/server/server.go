// Package server is the reference server of The Phantom Press: the
// seed's HTTP API over the pure engine, with the daily quotas, a clock the
// tests control, and a per-run guard that answers 409 to concurrent
// requests instead of interleaving them.
package server

import (
	"encoding/hex"
	"fmt"
	"github.com/agentgames/conformance/reference/httplog"
	"hash/fnv"
	"log"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agentgames/conformance/fixtures"
	"github.com/agentgames/conformance/reference/phantompress/engine"
	"github.com/agentgames/conformance/reference/skeleton"
)

// BasePath is where the API is mounted; the handler serves full paths.
const BasePath = "/game/phantom-press/api"

// Server is the reference handler. Every field behind mu; a run being
// acted on is also held by its busy lock so a second request on the same
// run is refused with 409 rather than queued.
type Server struct {
	mu     sync.Mutex
	now    func() time.Time
	logger *log.Logger
	// handler is route behind Buffered and the log, built once in New
	// rather than per request.
	handler http.Handler
	rng     *rand.Rand
	packs   []engine.Pack
	apiDoc  []byte
	limits  Limits
	quota   quota

	agents   map[string]*agent // by API key
	runs     map[string]*runRec
	order    []*runRec
	down     bool
	delay    time.Duration
	agentIDs map[string]bool
}

type agent struct {
	ID      string
	Name    string
	Owner   string
	Key     string
	Created time.Time
}

// runRec is a run with its public log and owner.
type runRec struct {
	busy sync.Mutex
	// refused hears of a request refused while busy was held, and holdFor
	// (under Server.mu) bounds how long the next action waits for one
	// (HoldNextAction).
	refused    chan struct{}
	holdFor    time.Duration
	run        *engine.Run
	agent      *agent
	created    time.Time
	hidden     bool
	seed       string
	log        []LogEntry
	extensions []Extension
	review     *Review
	// cases is the last case view an action answered, encoded (under busy).
	cases caseCache
}

// Option changes a reference server; options exist for tests only, the
// served defaults are the seed's.
type Option func(*Server)

// WithLimits replaces the daily quotas (tests only).
func WithLimits(l Limits) Option { return func(s *Server) { s.limits = l } }

// WithQuotaDayIn makes the quota day turn at midnight in loc instead of
// 00:00 JST: a deliberately broken server for the runner's own tests of
// PP-QUOTA-RESET (tests only).
func WithQuotaDayIn(loc *time.Location) Option { return func(s *Server) { s.quota.zone = loc } }

// RevealOf returns what publishing the run's current case would reveal. It
// exists for the runner's broken-target tests, which build leaking servers
// from it; the runner itself never calls it (it must not see hidden truth).
func (s *Server) RevealOf(runID string) (engine.Reveal, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.runs[runID]
	if !ok {
		return engine.Reveal{}, false
	}
	return engine.RevealOf(rec.run.Case()), true
}

// New builds a reference server from the suite's configuration.
func New(cfg skeleton.Config, opts ...Option) *Server {
	s := &Server{now: cfg.Now, logger: cfg.Log, rng: rand.New(rand.NewPCG(uint64(cfg.Seed), 0x9e3779b97f4a7c15)),
		limits: DefaultLimits, agents: map[string]*agent{}, runs: map[string]*runRec{}, agentIDs: map[string]bool{}}
	if s.now == nil {
		s.now = time.Now
	}
	raw, err := fixtures.ReadFile("phantom-press/cases.json")
	if err == nil {
		s.packs, err = engine.ParsePacks(raw)
	}
	if err != nil {
		panic("phantompress: embedded case packs are broken: " + err.Error())
	}
	s.apiDoc, _ = fixtures.ReadFile("phantom-press/api.json")
	for _, o := range opts {
		o(s)
	}
	s.handler = httplog.Handler(skeleton.Buffered(http.HandlerFunc(s.route)), s.logger)
	return s
}

// Handler is the suite.Protocol Reference constructor.
func Handler(cfg skeleton.Config) http.Handler { return New(cfg) }

// SetQuotaUnavailable makes every write answer 503 quota_unavailable, as a
// deployment whose quota store is down (control for @control scenarios).
func (s *Server) SetQuotaUnavailable(down bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down = down
}

// SetActionDelay holds each action for d while its run is busy, so tests can
// overlap two requests on one run (control for @control scenarios).
func (s *Server) SetActionDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = d
}

// HoldNextAction holds the next action on the run id, while the run is
// busy, until another request on it has been refused or max has passed,
// so a test overlaps two requests on one run however slowly the second
// arrives (control for @control scenarios): the overlap ends the hold, not
// the machine's speed, and no other action or run is held.
func (s *Server) HoldNextAction(id string, max time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.runs[id]
	if !ok {
		return fmt.Errorf("no run %q", id)
	}
	rec.holdFor = max
	return nil
}

// SpendWrites charges n writes of today's quota to the agent holding key, as
// if it had made them (control: exhausting 1000 writes by HTTP is slow).
func (s *Server) SpendWrites(key string, n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.agents[key]
	if !ok {
		return fmt.Errorf("no agent holds that key")
	}
	s.quota.roll(s.now())
	s.quota.writes[a.ID] += n
	s.quota.total += n
	return nil
}

// SpendAllWrites charges n writes to today's server-wide pool only.
func (s *Server) SpendAllWrites(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quota.roll(s.now())
	s.quota.total += n
}

// SpendRegistrations charges n registrations to today's pool.
func (s *Server) SpendRegistrations(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quota.roll(s.now())
	s.quota.regs += n
}

// Limits returns the quotas in force.
func (s *Server) Limits() Limits { return s.limits }

// hexID draws n random bytes from the server's seeded generator.
func (s *Server) hexID(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(s.rng.UintN(256))
	}
	return hex.EncodeToString(b)
}

// caseRNG returns the generator for a run's cases: from the custom seed when
// one is given (the same seed, the same run), else from the server's.
func (s *Server) caseRNG(seed string) *rand.Rand {
	if seed == "" {
		return rand.New(rand.NewPCG(s.rng.Uint64(), s.rng.Uint64()))
	}
	h := fnv.New64a()
	h.Write([]byte(seed))
	return rand.New(rand.NewPCG(h.Sum64(), 0x5eed))
}

// ServeHTTP routes a request under BasePath, logging it when a logger is set.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Buffered: handlers write while holding s.mu; the answer reaches the
	// client only after every lock is released, so a client that never
	// reads cannot freeze the server.
	s.handler.ServeHTTP(w, r)
}

// route dispatches on method and path segments.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, BasePath)
	if !ok || (rest != "" && !strings.HasPrefix(rest, "/")) {
		writeError(w, http.StatusNotFound, "not_found", "no such endpoint")
		return
	}
	seg := strings.Split(strings.Trim(rest, "/"), "/")
	if rest == "" || rest == "/" {
		seg = nil
	}
	h, allowed := s.pick(r.Method, seg)
	switch {
	case h != nil:
		h(w, r, seg)
	case allowed != "":
		w.Header().Set("Allow", allowed)
		writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "use "+allowed)
	default:
		writeError(w, http.StatusNotFound, "not_found", "no such endpoint")
	}
}

type handlerFunc func(w http.ResponseWriter, r *http.Request, seg []string)

// pick finds the handler for method on seg, or the allowed method when only
// the method is wrong.
func (s *Server) pick(method string, seg []string) (handlerFunc, string) {
	type route struct {
		method string
		h      handlerFunc
	}
	var rs []route
	switch {
	case len(seg) == 0:
		rs = []route{{http.MethodGet, s.getAPI}}
	case len(seg) == 1 && seg[0] == "register":
		rs = []route{{http.MethodPost, s.register}}
	case len(seg) == 1 && seg[0] == "leaderboard":
		rs = []route{{http.MethodGet, s.leaderboard}}
	case len(seg) == 1 && seg[0] == "runs":
		rs = []route{{http.MethodPost, s.createRun}, {http.MethodGet, s.recent}}
	case len(seg) == 2 && seg[0] == "runs":
		rs = []route{{http.MethodGet, s.getRun}}
	case len(seg) == 3 && seg[0] == "runs":
		switch seg[2] {
		case "action":
			rs = []route{{http.MethodPost, s.action}}
		case "extend":
			rs = []route{{http.MethodPost, s.extend}}
		case "visibility":
			rs = []route{{http.MethodPost, s.visibility}}
		case "review":
			rs = []route{{http.MethodPost, s.reviewRun}}
		}
	}
	var names []string
	for _, rt := range rs {
		if rt.method == method {
			return rt.h, ""
		}
		names = append(names, rt.method)
	}
	return nil, strings.Join(names, ", ")
}

// getAPI serves the contract document itself (GET /api).
// PP-API-DOC; every answer follows spec/phantom-press/openapi.yaml (PP-OPENAPI).
func (s *Server) getAPI(w http.ResponseWriter, r *http.Request, _ []string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(s.apiDoc)
}
