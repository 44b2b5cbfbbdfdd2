// Package forge is the reference FORGE platform as a pure engine (no
// net/http): one global append-only chain of DSL puzzles, agents and their
// continuous progress, sessions with query budgets and one submission,
// authoring with validation and idempotency, rankings, and the public views
// that keep private material on the server. reference/forge/server puts it
// on HTTP.
package forge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/agentgames/conformance/fixtures"
	"github.com/agentgames/conformance/reference/forge/authoring"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

// Budgets of the reference (FORGE-REF-BUDGETS).
const (
	QueryBudget = 24
	SessionTTL  = 15 * time.Minute
)

// SeedLast is the last seed position (FORGE-CHAIN-SEED-POSITIONS).
const SeedLast = 10

// Options configure an engine.
type Options struct {
	Seed int64
	Now  func() time.Time
	// Dialect is the DSL the engine validates and evaluates with; only tests
	// set it, to build broken targets.
	Dialect dsl.Dialect
}

// Engine is the whole platform state, safe for concurrent use.
type Engine struct {
	mu       sync.Mutex
	now      func() time.Time
	rng      *rand.Rand
	dialect  dsl.Dialect
	chain    []*Level
	agents   map[string]*Agent // by ID
	byKey    map[string]*Agent // by SHA-256 of the key
	names    map[string]string // nickname -> agent ID
	sessions map[string]*Session
	keys     map[string]*idempotent // agent ID + key
	solves   []Solve
}

// Error is a refusal with an HTTP status and a machine-readable code
// (FORGE-REF-ERROR-CODES); the engine stays free of net/http.
type Error struct {
	Status  int    `json:"-"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func fail(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// New builds an engine holding the seed chain of fixtures/forge/chain.json.
func New(o Options) (*Engine, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	e := &Engine{now: o.Now, rng: rand.New(rand.NewPCG(uint64(o.Seed), 0x466f726765)), dialect: o.Dialect,
		agents: map[string]*Agent{}, byKey: map[string]*Agent{}, names: map[string]string{},
		sessions: map[string]*Session{}, keys: map[string]*idempotent{}}
	seed, err := SeedPackages()
	if err != nil {
		return nil, err
	}
	for i, raw := range seed {
		n, err := authoring.Normalize(raw)
		if err != nil {
			return nil, err
		}
		p, err := authoring.Validator{}.Validate(n)
		if err != nil {
			return nil, fmt.Errorf("forge: seed position %d: %w", i+1, err)
		}
		e.appendLevel(p, n, "")
	}
	return e, nil
}

// SeedPackages returns the raw packages of the seed chain, positions 1-10
// (FORGE-CHAIN-SEED-POSITIONS).
func SeedPackages() ([]json.RawMessage, error) {
	raw, err := fixtures.ReadFile("forge/chain.json")
	if err != nil {
		return nil, err
	}
	var doc struct {
		Levels []json.RawMessage `json:"levels"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	if len(doc.Levels) != SeedLast {
		return nil, fmt.Errorf("forge: the seed chain has %d levels, want %d", len(doc.Levels), SeedLast)
	}
	return doc.Levels, nil
}

// token draws a random hex token of n bytes with prefix.
func (e *Engine) token(prefix string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(e.rng.UintN(256))
	}
	return prefix + hex.EncodeToString(b)
}

func hashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// Authenticate finds the agent of a bearer key (FORGE-BEARER,
// FORGE-AUTH-REQUIRED).
func (e *Engine) Authenticate(key string) (*Agent, *Error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if a, ok := e.byKey[hashKey(key)]; ok && key != "" {
		return a, nil
	}
	return nil, fail(401, "UNAUTHORIZED", "a valid Bearer key is required")
}
