package server

import (
	"net/http"
	"strconv"
	"time"

	"github.com/agentgames/conformance/reference/faults"
	"github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/skeleton"
)

// validKey reports whether key has the Idempotency-Key format of
// execution_contract.session_key, ^[A-Za-z0-9._:-]{8,128}$
// (IYRA-SESSION-KEY-REQUIRED), read byte by byte rather than by a regexp
// on every session write.
func validKey(key string) bool {
	if len(key) < 8 || len(key) > 128 {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}

type createRequest struct {
	ReadyToAct        *bool   `json:"ready_to_act"`
	AcceptedVersionID *string `json:"accepted_version_id"`
	// Variant optionally picks the challenge variant (IYRA-VARIANTS).
	Variant *string `json:"variant"`
}

// sessionResponse is every session answer (IYRA-SESSION-SHAPE); a finished
// session's carries the terminal summary fields: outcome and score at the
// top level, the rest in the observation (IYRA-TERMINAL-SUMMARY).
type sessionResponse struct {
	SessionID  string `json:"session_id"`
	Slug       string `json:"slug"`
	VersionID  string `json:"version_id"`
	Variant    string `json:"variant"`
	StateURL   string `json:"state_url"`
	ActionsURL string `json:"actions_url"`
	ReplayURL  string `json:"replay_url"`
	iyra.View
}

// sessionBody builds the session response from the game's public view.
func (s *Server) sessionBody(ss *session) sessionResponse {
	if ss.stateURL == "" { // the session's URLs are built once, on its first answer
		ss.stateURL = BasePath + "/sessions/" + ss.id
		ss.actionsURL, ss.replayURL = ss.stateURL+"/actions", ss.stateURL+"/replay"
	}
	return sessionResponse{
		SessionID: ss.id, Slug: ss.slug, VersionID: ss.version, Variant: ss.variant,
		StateURL: ss.stateURL, ActionsURL: ss.actionsURL, ReplayURL: ss.replayURL,
		View: ss.game.View(),
	}
}

// sessionKey reads and checks the Idempotency-Key header.
func sessionKey(r *http.Request) (string, *reply) {
	key := r.Header.Get("Idempotency-Key")
	if key == "" {
		out := fail(http.StatusBadRequest, "idempotency_key_required", "Idempotency-Key header is required")
		return "", &out
	}
	if !validKey(key) {
		out := fail(http.StatusBadRequest, "invalid_idempotency_key", "Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$")
		return "", &out
	}
	return key, nil
}

// createSession answers POST /store/{slug}/sessions. One key names one
// intended session: the same key and body return that session
// (IYRA-SESSION-KEY-IDEMPOTENT); the same key for another game, version or
// body is a conflict (IYRA-SESSION-KEY-REUSE).
func (s *Server) createSession(r *http.Request, body []byte) reply {
	a, bad := s.authenticate(r)
	if bad != nil {
		return *bad
	}
	key, bad := sessionKey(r)
	if bad != nil {
		return *bad
	}
	req, err := decodeCreate(body)
	if err != nil {
		return fail(http.StatusBadRequest, "malformed_json", "body must be a JSON object {ready_to_act, accepted_version_id}: "+err.Error())
	}
	fp := fingerprint(r.PathValue("slug"), req)
	if prior, ok := a.idem[key]; ok {
		if prior.fingerprint != fp {
			return fail(http.StatusConflict, "idempotency_key_reused", "this Idempotency-Key already names a session for a different game, version or request")
		}
		ss := s.sess[prior.sessionID]
		s.expire(ss)
		return reply{status: http.StatusOK, body: s.sessionBody(ss), header: map[string]string{"Idempotent-Replayed": "true"}}
	}
	if out, ok := s.checkCreate(a, r.PathValue("slug"), req); !ok {
		return out
	}
	if out, ok := s.spendQuota(a); !ok {
		return out
	}
	ss := s.newSession(a, key, r.PathValue("slug"), req)
	a.idem[key] = &idemEntry{fingerprint: fp, sessionID: ss.id}
	return reply{status: http.StatusCreated, body: s.sessionBody(ss)}
}

// decodeCreate reads a creation request under the input policy
// (IYRA-BAD-INPUT, IYRA-INPUT-POLICY). The body clients send, a plain
// object (skeleton.PlainObject) of the documented names with a boolean
// ready_to_act and string version and variant, is read directly; any
// other body goes through decodeObject, so every refusal and every other
// reading stays the policy's.
func decodeCreate(body []byte) (createRequest, error) {
	if req, ok := plainCreate(body); ok {
		return req, nil
	}
	var req createRequest
	return req, decodeObject(body, &req)
}

// plainCreate reads a plain creation request; ok is false for anything
// plainer reading cannot decide (null, other names, other types).
func plainCreate(body []byte) (req createRequest, ok bool) {
	ms, ok := skeleton.PlainObject(body)
	if !ok {
		return req, false
	}
	for _, m := range ms {
		switch {
		case m.Name == "ready_to_act" && (m.Kind == skeleton.PlainTrue || m.Kind == skeleton.PlainFalse):
			ready := m.Kind == skeleton.PlainTrue
			req.ReadyToAct = &ready
		case m.Name == "accepted_version_id" && m.Kind == skeleton.PlainString:
			req.AcceptedVersionID = &m.Str
		case m.Name == "variant" && m.Kind == skeleton.PlainString:
			req.Variant = &m.Str
		default:
			return req, false
		}
	}
	return req, true
}

// fingerprint identifies the request a key was first used for (IYRA-SESSION-KEY-REUSE).
func fingerprint(slug string, req createRequest) string {
	str := func(p *string) string {
		if p == nil {
			return "\x00"
		}
		return *p
	}
	ready := req.ReadyToAct != nil && *req.ReadyToAct
	return slug + "\x1f" + str(req.AcceptedVersionID) + "\x1f" + strconv.FormatBool(ready) + "\x1f" + str(req.Variant)
}

// checkCreate validates a creation request: known game, ready_to_act
// (IYRA-SESSION-READY), the assigned version (IYRA-SESSION-VERSION), a
// known variant if one is asked for.
func (s *Server) checkCreate(a *agent, slug string, req createRequest) (reply, bool) {
	switch {
	case !hosted(slug):
		return fail(http.StatusNotFound, "game_not_found", "no game with slug "+slug), false
	case req.AcceptedVersionID == nil:
		return fail(http.StatusBadRequest, "missing_field", "accepted_version_id is required"), false
	case req.ReadyToAct == nil || !*req.ReadyToAct:
		return fail(http.StatusUnprocessableEntity, "not_ready", "ready_to_act must be true"), false
	case !a.assignedTo(slug, *req.AcceptedVersionID):
		return fail(http.StatusUnprocessableEntity, "version_not_assigned", "accepted_version_id must equal the assigned version_id "+assigned(slug)), false
	}
	if req.Variant != nil {
		if _, ok := s.pack.Variant(*req.Variant); !ok {
			return fail(http.StatusUnprocessableEntity, "unknown_variant", "no variant "+*req.Variant), false
		}
	}
	return reply{}, true
}

// hosted reports whether the reference hosts the game slug.
func hosted(slug string) bool { _, ok := versionOf(slug); return ok }

// assigned is the version the reference assigns for slug.
func assigned(slug string) string { v, _ := versionOf(slug); return v }

// assignedTo reports whether version is assigned to a for slug: the
// game's version, or the rollout version once a joined the rollout track
// (IYRA-SESSION-VERSION, IYRA-REF-ROLLOUT).
func (a *agent) assignedTo(slug, version string) bool {
	return version == assigned(slug) || (slug == Slug && a.rollout && version == RolloutVersionID)
}

// spendQuota counts one session against the agent's daily quota; a spent
// quota answers 429 with both retry hints (IYRA-RATE-LIMIT).
func (s *Server) spendQuota(a *agent) (reply, bool) {
	now := s.opts.Now().UTC()
	day := now.Format(time.DateOnly)
	if a.quotaDay != day {
		a.quotaDay, a.quotaUsed = day, 0
	}
	if a.quotaUsed >= s.opts.SessionQuota {
		reset := now.Truncate(24 * time.Hour).Add(24 * time.Hour)
		secs := int(reset.Sub(now).Seconds()) + 1
		out := reply{status: http.StatusTooManyRequests, body: apiError{
			Code: "session_quota_exhausted", Message: "daily session quota spent; retry after the reset",
			RetryAfterSeconds: &secs, RetryAt: reset.Format(time.RFC3339),
		}, header: map[string]string{"Retry-After": strconv.Itoa(secs)}}
		return out, false
	}
	a.quotaUsed++
	return reply{}, true
}

// SpendSessionQuota uses up the daily session quota of the agent holding
// apiKey, so a scenario can observe the 429 answer. It reports whether the
// key was known.
func (s *Server) SpendSessionQuota(apiKey string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.keys[apiKey]
	if !ok {
		return false
	}
	a.quotaDay = s.opts.Now().UTC().Format(time.DateOnly)
	a.quotaUsed = s.opts.SessionQuota
	return true
}

// newSession picks the variant, asked for or drawn from the seeded
// generator (IYRA-VARIANTS), and starts the game and its clock
// (IYRA-DURATION-LIMIT).
func (s *Server) newSession(a *agent, key, slug string, req createRequest) *session {
	var v iyra.Variant
	if req.Variant != nil {
		v, _ = s.pack.Variant(*req.Variant)
	} else {
		v = s.pack.Variants[s.rng.IntN(len(s.pack.Variants))]
	}
	id := "ses_" + s.token(12)
	version := assigned(slug)
	if req.AcceptedVersionID != nil && a.assignedTo(slug, *req.AcceptedVersionID) {
		version = *req.AcceptedVersionID // the rollout version, once joined (IYRA-REF-ROLLOUT)
	}
	ss := &session{id: id, owner: a.id, key: key, variant: v.ID, slug: slug, version: version, created: s.opts.Now(), chosen: req.Variant != nil,
		game: iyra.NewGame(s.rules, v, s.pack.Epilogues, iyra.ChainSeed(id, version))}
	s.sess[id] = ss
	return ss
}

// expire ends a session that has outlived max_duration_seconds: the first
// request touching it afterwards finds it finished budget_exhausted
// (IYRA-DURATION-LIMIT, a REFERENCE choice: the contract declares the limit
// but not its effect).
func (s *Server) expire(ss *session) {
	limit := time.Duration(ss.game.MaxDuration()) * time.Second
	if limit > 0 && s.opts.Now().Sub(ss.created) >= limit && ss.game.Expire() {
		ss.timedOut = true
	}
}

// idempotencyStatus answers GET /idempotency/status: the session a key
// created (IYRA-IDEMPOTENCY-STATUS), or 404 when the key is unknown (the
// kit's status for "not found", IYRA-IDEMPOTENCY-404).
func (s *Server) idempotencyStatus(r *http.Request, _ []byte) reply {
	a, bad := s.authenticate(r)
	if bad != nil {
		return *bad
	}
	key, bad := sessionKey(r)
	if bad != nil {
		return *bad
	}
	e, ok := a.idem[key]
	if !ok {
		return fail(http.StatusNotFound, "idempotency_key_not_found", "no committed session for this key; not found does not prove an in-flight request cannot commit, so wait and query again before another write")
	}
	return reply{status: http.StatusOK, body: map[string]any{
		"idempotency_key": key, "status": "completed", "session_id": e.sessionID,
		"state_url": BasePath + "/sessions/" + e.sessionID,
	}}
}

// owned finds a session of the authenticated agent; someone else's session
// is reported as not found so its existence does not leak.
func (s *Server) owned(r *http.Request) (*session, *reply) {
	a, bad := s.authenticate(r)
	if bad != nil {
		return nil, bad
	}
	ss, ok := s.sess[r.PathValue("id")]
	if !ok || ss.owner != a.id {
		// IYRA-AUTH-BEARER: another agent's key neither reads nor acts.
		out := fail(http.StatusNotFound, "session_not_found", "no session "+r.PathValue("id"))
		return nil, &out
	}
	s.expire(ss)
	return ss, nil
}

// readSession answers GET /sessions/{id}, the state_url and the contract's
// fallback path alike, with the authoritative state (IYRA-RECOVERY-READ,
// IYRA-RECOVERY-FALLBACK-PATH).
func (s *Server) readSession(r *http.Request, _ []byte) reply {
	ss, bad := s.owned(r)
	if bad != nil {
		return *bad
	}
	return reply{status: http.StatusOK, body: s.sessionBody(ss)}
}

// act answers POST /sessions/{id}/actions: decode the {revision, action}
// envelope, submit it, and answer the next authoritative state or the
// rejection with its status (IYRA-STATUS-CODES). A rejection changes
// nothing (IYRA-RECOVERY-READ).
func (s *Server) act(r *http.Request, body []byte) reply {
	ss, bad := s.owned(r)
	if bad != nil {
		return *bad
	}
	sub, rej := iyra.DecodeSubmission(body)
	if rej == nil {
		rej = ss.game.Check(sub.Revision)
	}
	if rej == nil {
		rej = sub.Invalid
	}
	if rej == nil {
		rej = ss.game.Apply(sub.Action)
	}
	if rej != nil {
		rev := ss.game.Revision()
		return reply{status: kindStatus(rej.Kind), body: apiError{Code: rej.Code, Message: rej.Message, Revision: &rev}}
	}
	if faults.Injected(r.Context(), AnswerLost) {
		// serve --faults: the action is applied but its answer lost, so the
		// revision it was sent with is stale now (IYRA-REVISION-STALE).
		return fail(http.StatusBadGateway, "bad_gateway", "the action's answer was lost; read the session state and revision before acting again")
	}
	return reply{status: http.StatusOK, body: s.sessionBody(ss)}
}

// kindStatus maps a rejection kind to its status (IYRA-STATUS-CODES).
func kindStatus(k iyra.Kind) int {
	switch k {
	case iyra.BadInput:
		return http.StatusBadRequest
	case iyra.Conflict:
		return http.StatusConflict
	}
	return http.StatusUnprocessableEntity
}

// replayResponse is the replay document (IYRA-REPLAY).
type replayResponse struct {
	SessionID              string           `json:"session_id"`
	Slug                   string           `json:"slug"`
	VersionID              string           `json:"version_id"`
	TrustedRankingEligible bool             `json:"trusted_ranking_eligible"`
	VoluntaryNextSteps     []map[string]any `json:"voluntary_next_steps"`
	iyra.Replay
}

// replay answers GET /sessions/{id}/replay once the session has ended: the
// run as played (IYRA-REPLAY, IYRA-REPLAY-FAITHFUL).
func (s *Server) replay(r *http.Request, _ []byte) reply {
	ss, bad := s.owned(r)
	if bad != nil {
		return *bad
	}
	if !ss.game.Terminal() {
		return fail(http.StatusConflict, "session_active", "the replay is available once the session reaches a natural terminal")
	}
	rp := ss.game.Replay()
	return reply{status: http.StatusOK, body: replayResponse{
		SessionID: ss.id, Slug: ss.slug, VersionID: ss.version,
		// IYRA-RANKING-SEPARATE: eligibility is its own check, not integrity.
		TrustedRankingEligible: rp.Integrity.Verified && !ss.chosen && !ss.timedOut, Replay: rp,
		// IYRA-NEXT-STEPS-READ-ONLY: read requests only; nothing starts a session.
		VoluntaryNextSteps: []map[string]any{
			{"method": "GET", "path": BasePath + "/store/" + ss.slug, "description": "read the game's store entry"},
			{"method": "GET", "path": BasePath + "/trust", "description": "read the operator's trust document"},
		},
	}}
}
