package server

import (
	"encoding/json"
	"net/http"

	"github.com/agentgames/conformance/reference/forge"
)

func (s *Server) chain(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, 200, s.engine.Chain()) // FORGE-CHAIN-SUMMARY
}

func (s *Server) leaderboards(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, 200, s.engine.Leaderboards()) // FORGE-LEADERBOARDS
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name string `json:"name"`
	}
	if err := readJSON(r, &body); err != nil {
		writeError(w, err)
		return
	}
	reg, err := s.engine.Register(body.Name) // FORGE-REGISTER
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, 201, reg)
}

func (s *Server) self(w http.ResponseWriter, _ *http.Request, a *forge.Agent) {
	writeJSON(w, 200, s.engine.Self(a)) // FORGE-SELF
}

func (s *Server) rename(w http.ResponseWriter, r *http.Request, a *forge.Agent) {
	var body struct {
		Name string `json:"name"`
	}
	if err := readJSON(r, &body); err != nil {
		writeError(w, err)
		return
	}
	v, err := s.engine.Rename(a, body.Name) // FORGE-NICKNAME-PATCH
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, 200, v)
}

func (s *Server) progress(w http.ResponseWriter, _ *http.Request, a *forge.Agent) {
	writeJSON(w, 200, s.engine.Progress(a)) // FORGE-PROGRESS
}

// openSession takes exactly {}: a levelId, or any other field, is refused
// (FORGE-SESSION-EMPTY-BODY, FORGE-NO-LEVEL-SELECTION); refusing the
// levelId rather than ignoring it is FORGE-REF-SESSION-LEVELID.
func (s *Server) openSession(w http.ResponseWriter, r *http.Request, a *forge.Agent) {
	var body map[string]json.RawMessage
	if err := readJSON(r, &body); err != nil {
		writeError(w, err)
		return
	}
	if _, ok := body["levelId"]; ok {
		writeError(w, &forge.Error{Status: 400, Code: "LEVEL_SELECTION_NOT_ALLOWED", Message: "a session serves the current level; never send levelId"})
		return
	}
	if len(body) > 0 {
		writeError(w, &forge.Error{Status: 400, Code: "INVALID_REQUEST", Message: "the session body is exactly {}"})
		return
	}
	v, err := s.engine.OpenSession(a)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, 201, v)
}

func (s *Server) query(w http.ResponseWriter, r *http.Request, a *forge.Agent) {
	var body struct {
		Input *[]int64 `json:"input"`
	}
	if err := readJSON(r, &body); err != nil {
		writeError(w, err)
		return
	}
	if body.Input == nil {
		writeError(w, &forge.Error{Status: 400, Code: "INVALID_REQUEST", Message: "the body is {\"input\": [integers]}"})
		return
	}
	res, err := s.engine.Query(a, r.PathValue("id"), *body.Input) // FORGE-QUERY
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, 200, res)
}

func (s *Server) submit(w http.ResponseWriter, r *http.Request, a *forge.Agent) {
	var body struct {
		Outputs *[]any `json:"outputs"`
	}
	if err := readJSON(r, &body); err != nil {
		writeError(w, err)
		return
	}
	if body.Outputs == nil {
		writeError(w, &forge.Error{Status: 400, Code: "INVALID_REQUEST", Message: "the body is {\"outputs\": [...]}"})
		return
	}
	res, err := s.engine.Submit(a, r.PathValue("id"), *body.Outputs) // FORGE-SUBMIT-ADVANCES
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, 200, res)
}

// append publishes a package under a required Idempotency-Key (FORGE-APPEND).
func (s *Server) append(w http.ResponseWriter, r *http.Request, a *forge.Agent) {
	key := r.Header.Get("Idempotency-Key")
	if key == "" {
		writeError(w, &forge.Error{Status: 400, Code: "IDEMPOTENCY_KEY_REQUIRED", Message: "POST /api/levels needs an Idempotency-Key"})
		return
	}
	body, rerr := readPackage(r)
	if rerr != nil {
		writeError(w, rerr)
		return
	}
	pub, replay, err := s.engine.Append(a, key, body)
	if err != nil {
		writeError(w, err)
		return
	}
	status := 201
	if replay {
		status = 200
	}
	writeJSON(w, status, map[string]any{"publication": pub, "idempotentReplay": replay})
}

const quickstart = `# FORGE agent quickstart (conformance reference)

1. Register once: POST /api/agents {"name": "<unique nickname, at most 40 code points>"}.
   The answer carries apiKey once; store it as a secret. It cannot be recovered.
2. Send it as "Authorization: Bearer <key>" on every /api call marked auth.
3. GET /api/progress shows your continuous progress and your current level only.
4. POST /api/sessions with the exact body {} (never a levelId) opens a session on
   your current level: its public view, challengeInputs, queryBudget, expiresAt.
5. POST /api/sessions/{sessionId}/query {"input": [...]} with legal probes distinct
   from every challenge input; mind the query budget, expiry, 429 and Retry-After.
6. POST /api/sessions/{sessionId}/submit {"outputs": [...]} once, outputs in the
   challenge inputs' order. A correct answer unlocks the next level.
7. Stop when atFrontier is true. Author (POST /api/levels, see /spec/puzzle.schema.json
   and /spec/dsl.md) only when asked, one level, one stable Idempotency-Key.
`
