package iyra

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// newAgentAccepts is the When step posting a fresh acceptance.
func (w *world) newAgentAccepts(ctx context.Context) error {
	return w.when(ctx, func() (*driver.Response, error) { return w.accept(ctx) })
}

// acceptanceComplete checks the acceptance fields (IYRA-ACCEPT-FIELDS).
func (w *world) acceptanceComplete() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	_, err := acceptanceOf("", w.Last)
	return err
}

// newAgentHasAccepted is the Given step: a fresh, complete acceptance.
func (w *world) newAgentHasAccepted(ctx context.Context) error {
	a, err := w.mustAccept(ctx)
	w.acc = a
	return err
}

// newAgentHasVerified registers a fresh agent and keeps its acceptance so
// the scenario can try to verify it again.
func (w *world) newAgentHasVerified(ctx context.Context) error {
	if err := w.newAgentHasAccepted(ctx); err != nil {
		return err
	}
	sol, err := solve(ctx, w.acc)
	if err != nil {
		return err
	}
	resp, key, err := w.verify(ctx, w.acc.AgentID, w.acc.ChallengeID, sol)
	if err != nil {
		return err
	}
	if resp.Status/100 != 2 || key == "" {
		if err := w.refusedLate(w.acc); err != nil {
			return err
		}
		return verdict.Failf("IYRA-PROOF-POW", "a verified agent with an api_key", resp.Status, "%s", clip(resp.Body))
	}
	return nil
}

// challengeExpired moves the embedded reference's clock past expires_at,
// or on a live target waits for it when it is near (waitPast).
func (w *world) challengeExpired(ctx context.Context) error {
	exp, err := time.Parse(time.RFC3339, w.acc.ExpiresAt)
	if err != nil {
		return verdict.Failf("IYRA-ACCEPT-FIELDS", "expires_at in RFC 3339", w.acc.ExpiresAt, "%v", err)
	}
	if w.env.Clock == nil {
		return waitPast(ctx, exp)
	}
	if d := exp.Sub(w.env.Clock.Now()); d >= 0 {
		w.env.Clock.Advance(d + time.Second)
	}
	return nil
}

// verifyValid solves the acceptance's own challenge and verifies with it.
func (w *world) verifyValid(ctx context.Context) error {
	sol, err := solve(ctx, w.acc)
	if err != nil {
		return err
	}
	return w.verifyWith(ctx, w.acc.AgentID, w.acc.ChallengeID, sol)
}

// verifyMissing submits a canonical solution whose digest has exactly
// difficulty-1 leading zeroes: the nearest miss, so a target checking one
// zero too few accepts it (IYRA-PROOF-POW).
func (w *world) verifyMissing(ctx context.Context) error {
	d := *w.acc.Difficulty
	if d == 0 {
		return verdict.Skipf("difficulty 0: every solution qualifies")
	}
	sol, err := rememberedQualifying(ctx, w.acc.Challenge, d-1, "canonical", d)
	if err != nil {
		return err
	}
	return w.verifyWith(ctx, w.acc.AgentID, w.acc.ChallengeID, sol)
}

// beyondSearchLimit is the highest difficulty+1 the kit searches a
// canonical solution for (16^6 hashes on average, a few seconds); past it
// the check of a longer zero run is left unchecked, never failed.
const beyondSearchLimit = 6

// verifyBeyond submits a canonical solution whose digest has at least one
// zero more than the difficulty: the contract's condition is that the
// digest "starts with difficulty zeroes", so a longer run qualifies too
// and must be accepted (IYRA-PROOF-POW); a target reading the condition as
// exactly that many refuses it.
func (w *world) verifyBeyond(ctx context.Context) error {
	d := *w.acc.Difficulty
	if d+1 > beyondSearchLimit {
		return verdict.Skipf("unchecked: difficulty %d; the kit searches a digest of %d zeroes at most", d, beyondSearchLimit)
	}
	sol, err := rememberedQualifying(ctx, w.acc.Challenge, d+1, "canonical", -1)
	if err != nil {
		return err
	}
	return w.verifyWith(ctx, w.acc.AgentID, w.acc.ChallengeID, sol)
}

// verifyPast64Bits submits a canonical 20-digit solution above the
// largest unsigned 64-bit integer whose digest meets the difficulty: the
// contract's input is "challenge + decimal solution string" with no
// bound, so a verifier parsing the solution into 64 bits must not refuse
// it (IYRA-PROOF-POW). Twenty digits stay within the reference's own
// bound (IYRA-PROOF-DECIMAL, REFERENCE), so no length reading is judged.
func (w *world) verifyPast64Bits(ctx context.Context) error {
	if d := *w.acc.Difficulty; d > beyondSearchLimit {
		return verdict.Skipf("unchecked: difficulty %d; the kit searches a digest of %d zeroes at most", d, beyondSearchLimit)
	}
	sol, err := rememberedQualifying(ctx, w.acc.Challenge, *w.acc.Difficulty, "past-64-bits", -1)
	if err != nil {
		return err
	}
	return w.verifyWith(ctx, w.acc.AgentID, w.acc.ChallengeID, sol)
}

// verifySpelling finds a non-canonical spelling whose digest DOES meet the
// difficulty, so only the canonical-decimal rule can refuse it.
func (w *world) verifySpelling(ctx context.Context, kind string) error {
	if kind == "empty" {
		return w.verifyWith(ctx, w.acc.AgentID, w.acc.ChallengeID, "")
	}
	sol, err := rememberedQualifying(ctx, w.acc.Challenge, *w.acc.Difficulty, kind, -1)
	if err != nil {
		return err
	}
	return w.verifyWith(ctx, w.acc.AgentID, w.acc.ChallengeID, sol)
}

// verifyForeign pairs this agent with another acceptance's challenge and
// that challenge's valid solution.
func (w *world) verifyForeign(ctx context.Context) error {
	other, err := w.mustAccept(ctx)
	if err != nil {
		return err
	}
	sol, err := solve(ctx, other)
	if err != nil {
		return err
	}
	return w.verifyWith(ctx, w.acc.AgentID, other.ChallengeID, sol)
}

// verificationSucceeds requires a 2xx disclosing an api_key (IYRA-PROOF-POW).
func (w *world) verificationSucceeds() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	var out struct {
		APIKey string `json:"api_key"`
	}
	if err := w.Last.Decode("", &out); err != nil {
		return err
	}
	if w.Last.Status/100 != 2 || out.APIKey == "" {
		if err := w.refusedLate(w.acc); err != nil {
			return err
		}
		return verdict.Failf("IYRA-PROOF-POW", "2xx with an api_key", w.Last.Status, "%s", clip(w.Last.Body))
	}
	return nil
}

// verificationRefused requires a 4xx that discloses no key.
func (w *world) verificationRefused() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status/100 != 4 || disclosedKey(w.Last) != "" {
		return verdict.Failf(w.rule(), "a 4xx refusal without an api_key", w.Last.Status, "%s", clip(w.Last.Body))
	}
	return nil
}

// keyNotDisclosedAgain requires a repeated verification to disclose no key,
// whatever its status: the contract says the key is disclosed once, not how
// a second attempt is answered (IYRA-KEY-ONCE).
func (w *world) keyNotDisclosedAgain() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if disclosedKey(w.Last) != "" {
		return verdict.Failf("IYRA-KEY-ONCE", "no api_key in the answer to a second verification", "an api_key", "status %d", w.Last.Status)
	}
	if w.Last.Status/100 != 4 {
		w.note("IYRA-STATUS-CODES", 409, w.Last.Status, "a second verification of an agent")
	}
	return nil
}

// answerKeyless requires an answer of status class class (2 for a 2xx, 4
// for a refusal: "no later response carries it", an error envelope
// included) that carries none of the keys the run learned (IYRA-KEY-ONCE);
// client.do already refuses any answer that does, so this step states the
// expectation and checks the status.
func (w *world) answerKeyless(class int) error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status/100 != class {
		return verdict.Errorf("the request meant to show the key's absence was answered %d", w.Last.Status)
	}
	for _, k := range w.watch {
		if strings.Contains(string(w.Last.Body), k) {
			return verdict.Failf("IYRA-KEY-ONCE", "no api_key", "the api_key again", "status %d", w.Last.Status)
		}
	}
	return nil
}

// refusedUnauthenticated requires a refusal (4xx) of a request without a
// valid key; the exact 401 is the kit's choice (IYRA-STATUS-CODES).
func (w *world) refusedUnauthenticated() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if err := w.refusedBusy(); err != nil {
		return err // a rate limit answers before the key is looked at
	}
	if w.Last.Status/100 != 4 {
		return verdict.Failf(w.rule(), "a 4xx refusal", w.Last.Status, "%s", clip(w.Last.Body))
	}
	if w.Last.Status != http.StatusUnauthorized {
		w.note("IYRA-STATUS-CODES", 401, w.Last.Status, "a request without a valid Bearer key")
	}
	return nil
}

// identitySteps registers the steps of features/iyra/identity.feature.
func (w *world) identitySteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the request is refused as unauthenticated$`), w.refusedUnauthenticated)
	sc.Step(pattern(`^a new agent accepts the play task$`), w.newAgentAccepts)
	sc.Step(pattern(`^the acceptance carries agent_id, challenge_id, challenge, difficulty and expires_at$`), w.acceptanceComplete)
	sc.Step(pattern(`^a new agent has accepted the play task$`), w.newAgentHasAccepted)
	sc.Step(pattern(`^a new agent has verified$`), w.newAgentHasVerified)
	sc.Step(pattern(`^the challenge has expired$`), w.challengeExpired)
	sc.Step(pattern(`^the agent verifies (?:again )?with a valid solution$`), w.verifyValid)
	sc.Step(pattern(`^the agent verifies with a solution whose digest misses the difficulty$`), w.verifyMissing)
	sc.Step(pattern(`^the agent verifies with a valid solution whose digest has one zero more than the difficulty$`), w.verifyBeyond)
	sc.Step(pattern(`^the agent verifies with a valid solution past 64 bits$`), w.verifyPast64Bits)
	sc.Step(pattern(`^the agent verifies with a qualifying (leading-zero|plus-sign|fraction|empty|negative) solution$`), w.verifySpelling)
	sc.Step(pattern(`^the agent verifies with a valid solution to another acceptance's challenge$`), w.verifyForeign)
	sc.Step(pattern(`^the verification succeeds and discloses an api_key$`), w.verificationSucceeds)
	sc.Step(pattern(`^the verification is refused without a key$`), w.verificationRefused)
	sc.Step(pattern(`^the verification does not disclose the key again$`), w.keyNotDisclosedAgain)
	sc.Step(pattern(`^the answer does not carry the api_key$`), func() error { return w.answerKeyless(2) })
	sc.Step(pattern(`^the refusal does not carry the api_key$`), func() error { return w.answerKeyless(4) })
	sc.Step(pattern(`^the agent submits "([^"]*)" (without credentials|with an unknown key|with a non-Bearer key|with another agent's key)$`), w.submitAs)
	sc.Step(pattern(`^the agent creates a session (without credentials|with an unknown key|with a non-Bearer key)$`), w.createUnauthenticated)
	sc.Step(pattern(`^the agent reads the session, its replay and its key's status (without credentials|with an unknown key|with a non-Bearer key|with another agent's key)$`), w.probeReads)
	sc.Step(pattern(`^every read is refused without the session's data$`), w.probesRefused)
}

// probeReads is the When step reading the session's state, replay and
// idempotency status with a missing, unknown or foreign credential
// (IYRA-AUTH-BEARER).
func (w *world) probeReads(ctx context.Context, how string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	paths := []string{w.rel(w.sess.StateURL), w.rel(w.sess.ReplayURL), "/idempotency/status"}
	w.probes, w.probeHow = nil, how
	w.MarkWhen()
	for _, p := range paths {
		req, err := w.credentialed(ctx, driver.Request{Method: http.MethodGet, Path: p}, how)
		if err != nil {
			return err
		}
		req.Header["Idempotency-Key"] = w.key
		resp, err := w.do(ctx, req)
		if err != nil {
			return err
		}
		w.probes = append(w.probes, resp)
	}
	w.Last = w.probes[len(w.probes)-1]
	return nil
}

// probesRefused requires every probe refused with a 4xx that carries none
// of the session's data; the kit answers 401 without a valid key and 404
// for another agent's session (IYRA-STATUS-CODES).
func (w *world) probesRefused() error {
	if len(w.probes) == 0 {
		return verdict.Errorf("no credential probe was made")
	}
	for i, resp := range w.probes {
		var m map[string]any
		_ = json.Unmarshal(resp.Body, &m)
		leaked := m["observation"] != nil || m["integrity"] != nil || m["actions"] != nil || statusSession(resp.Body) == w.sess.SessionID
		// Another agent's valid key may look its own keys up: a 2xx that
		// names no session is its faithful "not found" (IYRA-IDEMPOTENCY-STATUS).
		ownLookUp := i == len(w.probes)-1 && w.probeHow == "with another agent's key" && resp.Status/100 == 2 && statusSession(resp.Body) == ""
		if (resp.Status/100 != 4 && !ownLookUp) || leaked {
			return verdict.Failf(w.rule(), "a 4xx refusal without the session's data", resp.Status, "%s", clip(resp.Body))
		}
		if !ownLookUp && resp.Status != http.StatusUnauthorized && resp.Status != http.StatusNotFound {
			w.note("IYRA-STATUS-CODES", "401 or 404", resp.Status, "a read without the session owner's key")
		}
	}
	return nil
}

// submitAs is the When step submitting a legal action with a missing,
// unknown or foreign credential (IYRA-AUTH-BEARER).
func (w *world) submitAs(ctx context.Context, script, how string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	a := parseScript(script)[0]
	req, err := w.credentialed(ctx, driver.Request{Method: http.MethodPost, Path: w.rel(w.sess.ActionsURL), JSON: w.envelope(w.sess, w.sess.rev(), a)}, how)
	if err != nil {
		return err
	}
	return w.when(ctx, func() (*driver.Response, error) { return w.do(ctx, req) })
}

// createUnauthenticated posts a well-formed session creation with a fresh
// Idempotency-Key but without the agent's own Bearer key (IYRA-AUTH-BEARER:
// session creation is an authenticated endpoint, after_assignment's
// Authorization header).
func (w *world) createUnauthenticated(ctx context.Context, how string) error {
	key := freshKey()
	w.lastKey = key
	req := driver.Request{Method: http.MethodPost, Path: "/store/" + Slug + "/sessions", JSON: createBody(w.id.Version, ""),
		Allow: []int{http.StatusTooManyRequests, http.StatusServiceUnavailable}}
	req, err := w.credentialed(ctx, req, how)
	if err != nil {
		return err
	}
	req.Header["Idempotency-Key"] = key
	return w.when(ctx, func() (*driver.Response, error) { return w.do(ctx, req) })
}
