// Package server puts the reference FORGE engine on HTTP: every endpoint of
// the contract's capabilities and authentication blocks, and the documents
// it links (/spec/puzzle.schema.json, /spec/dsl.md, /docs/agent-quickstart,
// /openapi.json), mounted under BasePath.
package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/agentgames/conformance/reference/forge"
	"github.com/agentgames/conformance/reference/forge/dsl"
	"github.com/agentgames/conformance/reference/skeleton"
	"github.com/agentgames/conformance/spec"
	forgespec "github.com/agentgames/conformance/spec/forge"
)

// BasePath is where FORGE lives: the origin root, as in the contract, so a
// target URL without a path names a real deployment; `conformance serve`
// mounts it as the catch-all below the other protocols' base paths
// (FORGE-REF-BASE-PATH).
const BasePath = "/"

// AltPath is a prefix the reference also answers under, so that
// http://HOST/forge/api/... reaches it beside other protocols.
const AltPath = "/forge"

// Request body limits per route (FORGE-INPUT-POLICY, a REFERENCE choice:
// the contract states none): 64 KiB for every JSON request, 256 KiB for an
// authoring package (POST /api/levels), four times the largest package the
// schema accepts. A larger body is a 413 payload_too_large read no further
// than the limit, and a package within it but past the schema's bounds is
// refused while its tokens stream by (authoring.Prescan).
const (
	maxBody    = skeleton.DefaultMaxRequest
	maxPackage = 256 << 10
)

// Options configure a server.
type Options struct {
	skeleton.Config
	// Dialect breaks the DSL on purpose; tests only.
	Dialect dsl.Dialect
}

// Server is the HTTP face of one engine.
type Server struct {
	engine  *forge.Engine
	mux     *http.ServeMux
	limiter *limiter
	openapi []byte
}

// New builds a server; it panics only when the embedded seed chain is
// broken, which the kit's own tests rule out.
func New(o Options) *Server {
	e, err := forge.New(forge.Options{Seed: o.Seed, Now: o.Clock(), Dialect: o.Dialect})
	if err != nil {
		panic(err)
	}
	s := &Server{engine: e, mux: http.NewServeMux(), limiter: newLimiter(o.Clock()), openapi: openAPIJSON()}
	s.routes()
	return s
}

// SetEnabled flips a level's server-owned enabled field; Go only, never
// HTTP (FORGE-NO-DISABLE-API).
func (s *Server) SetEnabled(position int, enabled bool) bool {
	return s.engine.SetEnabled(position, enabled)
}

func (s *Server) routes() {
	// FORGE-DOC-SCHEMA, FORGE-DOC-DSL, FORGE-DOC-QUICKSTART: public documents.
	s.mux.HandleFunc("GET /spec/puzzle.schema.json", s.document("application/schema+json", forgespec.PuzzleSchema))
	s.mux.HandleFunc("GET /spec/dsl.md", s.document("text/markdown; charset=utf-8", forgespec.DSL))
	s.mux.HandleFunc("GET /docs/agent-quickstart", s.document("text/markdown; charset=utf-8", []byte(quickstart)))
	s.mux.HandleFunc("GET /openapi.json", s.document("application/json", s.openapi))
	s.mux.HandleFunc("GET /api/chain", s.chain)
	s.mux.HandleFunc("GET /api/leaderboards", s.leaderboards)
	s.mux.HandleFunc("POST /api/agents", s.register)
	s.mux.HandleFunc("GET /api/agent", s.authed(s.self))
	s.mux.HandleFunc("PATCH /api/agent", s.authed(s.rename))
	s.mux.HandleFunc("GET /api/progress", s.authed(s.progress))
	s.mux.HandleFunc("POST /api/sessions", s.authed(s.openSession))
	s.mux.HandleFunc("POST /api/sessions/{id}/query", s.authed(s.query))
	s.mux.HandleFunc("POST /api/sessions/{id}/submit", s.authed(s.submit))
	s.mux.HandleFunc("POST /api/levels", s.authed(s.append))
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &forge.Error{Status: 404, Code: "NOT_FOUND", Message: "no such endpoint"})
	})
}

// ServeHTTP serves the contract's paths at the root and under AltPath.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if rest, ok := strings.CutPrefix(r.URL.Path, AltPath); ok && (rest == "" || rest[0] == '/') {
		r2 := r.Clone(r.Context())
		r2.URL.Path = rest
		r2.URL.RawPath = ""
		r = r2
	}
	s.mux.ServeHTTP(w, r)
}

func (s *Server) document(contentType string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write(body)
	}
}

// openAPIJSON converts spec/forge/openapi.yaml to the JSON served at
// /openapi.json (FORGE-DOC-OPENAPI), whose shapes are the kit's
// (FORGE-REF-OPENAPI).
func openAPIJSON() []byte {
	raw, err := spec.OpenAPI("forge")
	if err != nil {
		return []byte(`{}`)
	}
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		return []byte(`{}`)
	}
	out, _ := json.Marshal(doc)
	return out
}

type handler func(w http.ResponseWriter, r *http.Request, a *forge.Agent)

// authed requires a valid Bearer key (FORGE-BEARER, FORGE-AUTH-REQUIRED)
// and applies the per-key rate limit (FORGE-RATE-LIMIT).
func (s *Server) authed(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key, ok := skeleton.BearerToken(r)
		if !ok {
			writeError(w, &forge.Error{Status: 401, Code: "UNAUTHORIZED", Message: "a Bearer key is required"})
			return
		}
		a, err := s.engine.Authenticate(key)
		if err != nil {
			writeError(w, err)
			return
		}
		if wait := s.limiter.take(a.ID); wait > 0 {
			w.Header().Set("Retry-After", "1")
			writeError(w, &forge.Error{Status: 429, Code: "RATE_LIMITED", Message: "too many requests; retry after the Retry-After seconds"})
			return
		}
		h(w, r, a)
	}
}

// readJSON decodes a body into v under the kit's input policy
// (FORGE-INPUT-POLICY): one JSON object of valid UTF-8, no repeated key,
// only the documented fields; a refusal is a coded 400 (413 for size).
func readJSON(r *http.Request, v any) *forge.Error {
	raw, ierr := skeleton.ReadBody(r, maxBody)
	if ierr == nil {
		ierr = skeleton.DecodeStrict(raw, v)
	}
	return inputError(ierr)
}

// readPackage reads an authoring body: one JSON object with no repeated
// key, in valid UTF-8 (FORGE-INPUT-POLICY); its fields are the schema's
// business.
func readPackage(r *http.Request) ([]byte, *forge.Error) {
	raw, ierr := skeleton.ReadBody(r, maxPackage)
	if ierr == nil && !utf8.Valid(raw) {
		ierr = &skeleton.InputError{Status: 400, Code: skeleton.CodeInvalidUTF8, Message: "the body is not valid UTF-8"}
	}
	if ierr == nil {
		ierr = skeleton.CheckJSON(raw)
	}
	return raw, inputError(ierr)
}

func inputError(e *skeleton.InputError) *forge.Error {
	if e == nil {
		return nil
	}
	return &forge.Error{Status: e.Status, Code: e.Code, Message: e.Message}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers {error: {code, message}} (FORGE-REF-ERROR-CODES).
func writeError(w http.ResponseWriter, err error) {
	var fe *forge.Error
	if !errors.As(err, &fe) {
		fe = &forge.Error{Status: 500, Code: "INTERNAL", Message: "internal error"}
	}
	writeJSON(w, fe.Status, map[string]any{"error": fe})
}

// limiter is a per-agent token bucket (FORGE-REF-BUDGETS): bursts of 120,
// refilled at 60 a second on the server's clock, so a run against the
// embedded reference, whose clock moves only when the run waits, meets the
// same limit without spending real time.
type limiter struct {
	mu      sync.Mutex
	now     func() time.Time
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

const (
	burst  = 120
	refill = 60.0
)

func newLimiter(now func() time.Time) *limiter {
	return &limiter{now: now, buckets: map[string]*bucket{}}
}

// take spends one token of id, or returns how long to wait for one.
func (l *limiter) take(id string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b, ok := l.buckets[id]
	if !ok {
		b = &bucket{tokens: burst, last: now}
		l.buckets[id] = b
	}
	b.tokens = min(burst, b.tokens+now.Sub(b.last).Seconds()*refill)
	b.last = now
	if b.tokens < 1 {
		return time.Duration((1 - b.tokens) / refill * float64(time.Second))
	}
	b.tokens--
	return 0
}
