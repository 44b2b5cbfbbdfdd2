package server

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/agentgames/conformance/reference/faults"
	"github.com/agentgames/conformance/reference/iyra/proof"
	"github.com/agentgames/conformance/reference/skeleton"
)

// acceptRequest is the explicit acceptance body of do_this_now.
type acceptRequest struct {
	Name         *string   `json:"name"`
	Model        *string   `json:"model"`
	Capabilities *[]string `json:"capabilities"`
	Campaign     *string   `json:"campaign"`
}

// acceptResponse is what acceptance returns (IYRA-ACCEPT-FIELDS).
type acceptResponse struct {
	AgentID     string `json:"agent_id"`
	ChallengeID string `json:"challenge_id"`
	Challenge   string `json:"challenge"`
	Difficulty  int    `json:"difficulty"`
	ExpiresAt   string `json:"expires_at"`
	VerifyURL   string `json:"verify_url"`
}

// accept registers a new agent and issues its proof-of-work challenge.
func (s *Server) accept(r *http.Request, body []byte) reply {
	var req acceptRequest
	if err := decodeObject(body, &req); err != nil {
		return fail(http.StatusBadRequest, "malformed_json", "body must be a JSON object {name, model, capabilities, campaign}: "+err.Error())
	}
	if req.Name == nil || strings.TrimSpace(*req.Name) == "" || len(*req.Name) > 128 {
		return fail(http.StatusBadRequest, "invalid_name", "name is required: a non-empty string of at most 128 bytes")
	}
	if req.Model == nil || strings.TrimSpace(*req.Model) == "" {
		return fail(http.StatusBadRequest, "invalid_model", "model is required: a non-empty string")
	}
	a := &agent{id: "agt_" + s.token(12), name: *req.Name, model: *req.Model, idem: map[string]*idemEntry{}}
	s.agents[a.id] = a
	c := &challenge{
		id: "chl_" + s.token(12), agentID: a.id, value: s.token(16),
		difficulty: s.opts.Difficulty, expires: s.opts.Now().Add(s.opts.ChallengeTTL).UTC(),
	}
	if faults.Injected(r.Context(), ChallengeExpired) {
		c.expires = s.opts.Now().UTC().Truncate(time.Second) // serve --faults: expired on arrival (IYRA-PROOF-EXPIRY)
	}
	s.chals[c.id] = c
	s.sweepAccepts(s.opts.Now())
	s.pending = append(s.pending, c.id)
	return reply{status: http.StatusCreated, body: acceptResponse{
		AgentID: a.id, ChallengeID: c.id, Challenge: c.value, Difficulty: c.difficulty,
		ExpiresAt: c.expires.Format(time.RFC3339), VerifyURL: BasePath + "/agents/verify",
	}}
}

type verifyRequest struct {
	AgentID     *string `json:"agent_id"`
	ChallengeID *string `json:"challenge_id"`
	Solution    *string `json:"solution"`
}

type verifyResponse struct {
	AgentID       string `json:"agent_id"`
	APIKey        string `json:"api_key"`
	DisclosedOnce bool   `json:"disclosed_once"`
	AssignmentURL string `json:"assignment_url"`
}

// verify checks a proof and discloses the agent's API key exactly once
// (IYRA-KEY-ONCE).
func (s *Server) verify(_ *http.Request, body []byte) reply {
	var req verifyRequest
	if err := decodeObject(body, &req); err != nil {
		return fail(http.StatusBadRequest, "malformed_json", "body must be a JSON object {agent_id, challenge_id, solution}: "+err.Error())
	}
	if req.AgentID == nil || req.ChallengeID == nil || req.Solution == nil {
		return fail(http.StatusBadRequest, "missing_field", "agent_id, challenge_id and solution are required strings")
	}
	a, ok := s.agents[*req.AgentID]
	if !ok {
		return fail(http.StatusNotFound, "agent_not_found", "no agent with that agent_id; accept first")
	}
	if a.verified {
		// IYRA-KEY-ONCE: the key was disclosed by the first verify.
		return fail(http.StatusConflict, "already_verified", "this agent is already verified; its api_key was disclosed once and is not shown again")
	}
	c, ok := s.chals[*req.ChallengeID]
	if !ok || c.used {
		return fail(http.StatusNotFound, "challenge_not_found", "no open challenge with that challenge_id")
	}
	if c.agentID != a.id {
		// IYRA-PROOF-CHALLENGE-BINDING
		return fail(http.StatusUnprocessableEntity, "challenge_mismatch", "challenge_id must come from the same acceptance as agent_id")
	}
	if err := proof.Verify(c.value, c.difficulty, c.expires, s.opts.Now(), *req.Solution); err != nil {
		return proofFailure(err)
	}
	c.used = true
	a.verified = true
	a.key = "aa_" + s.token(16)
	s.keys[a.key] = a
	return reply{status: http.StatusOK, body: verifyResponse{
		AgentID: a.id, APIKey: a.key, DisclosedOnce: true,
		AssignmentURL: BasePath + "/store/" + Slug + "/assignment",
	}}
}

// proofFailure maps a proof error to its 422 code.
func proofFailure(err error) reply {
	switch {
	case errors.Is(err, proof.ErrNotCanonical):
		return fail(http.StatusUnprocessableEntity, "invalid_solution_format", "solution must be a canonical decimal string (no sign, leading zeros, fraction or spaces)") // IYRA-PROOF-DECIMAL
	case errors.Is(err, proof.ErrExpired):
		return fail(http.StatusUnprocessableEntity, "challenge_expired", "the challenge expired at expires_at; accept again for a new one") // IYRA-PROOF-EXPIRY
	default:
		return fail(http.StatusUnprocessableEntity, "invalid_proof", "SHA-256(challenge + solution) does not start with difficulty zeroes") // IYRA-PROOF-POW
	}
}

// authenticate resolves the Bearer key of r (IYRA-AUTH-BEARER). Keys are
// accepted only in the Authorization header, never from the URL
// (IYRA-AUTH-NO-URL-KEY).
func (s *Server) authenticate(r *http.Request) (*agent, *reply) {
	scheme, key, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return nil, unauthorized("Authorization: Bearer <api_key> is required")
	}
	a, found := s.keys[strings.TrimSpace(key)]
	if !found {
		return nil, unauthorized("the Bearer key is not a verified api_key")
	}
	return a, nil
}

// unauthorized is the 401 answer with its Bearer challenge (IYRA-AUTH-BEARER).
func unauthorized(msg string) *reply {
	out := fail(http.StatusUnauthorized, "unauthorized", msg)
	out.header = map[string]string{"WWW-Authenticate": `Bearer realm="iyra"`}
	return &out
}

// decodeObject decodes a JSON object body under the shared input policy
// (reference/skeleton): a body that is not one object of valid UTF-8,
// repeats a key, has a field the endpoint does not document or a field of
// the wrong type is an error whose message names the field in the
// contract's terms, never a Go type (IYRA-BAD-INPUT, IYRA-INPUT-POLICY).
func decodeObject(body []byte, v any) error {
	if err := skeleton.DecodeStrict(body, v); err != nil {
		return err
	}
	return nil
}
