package iyra

import (
	"context"
	"encoding/json"
	"net/http"
	"path"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// sessionSteps registers the session creation and look-up steps.
func (w *world) sessionSteps(sc *godog.ScenarioContext) {
	sc.Step(pattern(`^a new session$`), func(ctx context.Context) error { return w.givenSession(ctx, "") })
	sc.Step(pattern(`^a new session of the "([^"]*)" variant$`), w.givenSession)
	sc.Step(pattern(`^the agent creates a new session$`), func(ctx context.Context) error {
		return w.createWith(ctx, Slug, freshKey(), createBody(w.id.Version, ""))
	})
	sc.Step(pattern(`^the agent creates a new session of the "([^"]*)" variant$`), func(ctx context.Context, v string) error {
		return w.createWith(ctx, Slug, freshKey(), createBody(w.id.Version, v))
	})
	sc.Step(pattern(`^the agent creates a session with a (missing|too-short|spaced|too-long) Idempotency-Key$`), w.createBadKey)
	sc.Step(pattern(`^the agent creates a session with a well-formed Idempotency-Key of (8|128) characters$`), w.createEdgeKey)
	sc.Step(pattern(`^the agent creates a session accepting version "([^"]*)"$`), func(ctx context.Context, v string) error {
		return w.createWith(ctx, Slug, freshKey(), createBody(v, ""))
	})
	sc.Step(pattern(`^the agent creates a session with ready_to_act false$`), func(ctx context.Context) error {
		return w.createWith(ctx, Slug, freshKey(), map[string]any{"ready_to_act": false, "accepted_version_id": w.id.Version})
	})
	sc.Step(pattern(`^the agent repeats the creation with the same Idempotency-Key$`), func(ctx context.Context) error {
		return w.createWith(ctx, Slug, w.key, createBody(w.id.Version, ""))
	})
	sc.Step(pattern(`^the agent reuses the Idempotency-Key for (another version|another game|another intended session)$`), w.reuseKey)
	sc.Step(pattern(`^the agent looks up the session's Idempotency-Key$`), func(ctx context.Context) error { return w.lookUp(ctx, w.key) })
	sc.Step(pattern(`^the agent looks up an unused Idempotency-Key$`), func(ctx context.Context) error { return w.lookUp(ctx, freshKey()) })
	sc.Step(pattern(`^the creation is refused$`), w.creationRefused)
	sc.Step(pattern(`^no session exists for that key$`), w.noSessionForKey)
	sc.Step(pattern(`^the agent creates a session (without credentials|with an unknown key|with a non-Bearer key)$`), w.createUnauthenticated)
	sc.Step(pattern(`^the look-up answers 404$`), w.lookUpIs404)
	sc.Step(pattern(`^the same session is returned$`), w.sameSession)
	sc.Step(pattern(`^the reuse creates no new session$`), w.noNewSession)
	sc.Step(pattern(`^the key still names the original session$`), w.keyNamesOriginal)
	sc.Step(pattern(`^the look-up names the session$`), w.lookUpNames)
	sc.Step(pattern(`^the look-up reports not found$`), w.lookUpNotFound)
	sc.Step(pattern(`^the response carries the session links and state fields$`), w.sessionShape)
	sc.Step(pattern(`^the observation has the declared fields$`), w.observationFields)
	sc.Step(pattern(`^the observation is in its initial state$`), w.observationInitial)
	sc.Step(pattern(`^the session plays the "([^"]*)" variant$`), w.playsVariant)
	sc.Step(pattern(`^the agent plays the same investigations in a second session of that variant$`), w.secondSession)
	sc.Step(pattern(`^both sessions revealed identical site facts$`), w.identicalFacts)
	sc.Step(pattern(`^the answer is 429 with retry_after_seconds or retry_at$`), w.rateLimited)
	sc.Step(pattern(`^no session exists for that key once the quota has reset$`), w.noSessionAfterReset)
	sc.Step(pattern(`^the agent reads the session at the contract's fallback path$`), w.readFallback)
	sc.Step(pattern(`^the answer is the session's authoritative state$`), w.sameAuthoritative)
	sc.Step(pattern(`^the agent reads the session, its replay and its key's status (without credentials|with an unknown key|with another agent's key)$`), w.probeReads)
	sc.Step(pattern(`^every read is refused without the session's data$`), w.probesRefused)
}

// givenSession creates the scenario's session; a variant the target does
// not honour skips the scenario, which needs that variant's facts.
func (w *world) givenSession(ctx context.Context, variant string) error {
	s, key, err := w.newSession(ctx, variant)
	if err != nil {
		return err
	}
	if variant != "" && s.Variant != variant {
		return verdict.Skipf("the target did not honour variant %q (session plays %q)", variant, s.Variant)
	}
	w.sess, w.key = s, key
	return nil
}

// createWith is a When step creating a session; the answer is kept,
// whatever its status, and a created session becomes the scenario's.
func (w *world) createWith(ctx context.Context, slug, key string, body any) error {
	w.lastKey = key
	return w.when(ctx, func() (*driver.Response, error) {
		resp, err := w.create(ctx, slug, key, body)
		if err == nil && resp.Status/100 == 2 && slug == Slug {
			if s, derr := decodeSession(resp); derr == nil && w.sess == nil {
				w.sess, w.key = s, key
			}
		}
		return resp, err
	})
}

// badKeys are Idempotency-Keys outside ^[A-Za-z0-9._:-]{8,128}$.
var badKeys = map[string]string{
	"missing":   "",
	"too-short": "k-1234x",
	"spaced":    "kit key with spaces",
	"too-long":  strings.Repeat("k", 129),
}

// createEdgeKey creates a session under a fresh key at an edge of
// ^[A-Za-z0-9._:-]{8,128}$, using every punctuation mark the format allows.
func (w *world) createEdgeKey(ctx context.Context, n int) error {
	key := "k.:_-" + freshKey()[len("kit-"):]
	for len(key) < n {
		key += freshKey()[len("kit-"):]
	}
	return w.createWith(ctx, Slug, key[:n], createBody(w.id.Version, ""))
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

// createBadKey creates with a key outside the contract's format (IYRA-SESSION-KEY-REQUIRED).
func (w *world) createBadKey(ctx context.Context, problem string) error {
	return w.createWith(ctx, Slug, badKeys[problem], createBody(w.id.Version, ""))
}

// OtherGame is the contract's alternative game a reused key is sent to
// ($.alternatives); its version comes from its own assignment.
const OtherGame = "helios-relay"

// unassignedVersion is a version no assignment names.
const unassignedVersion = "xgv_000000000000000000000000"

// reuseKey sends the session's key with a body for another game, another
// version, or another intended session (another variant). Each body is
// first sent with a fresh key, the control: only a body the target would
// accept can show what the reused key does, so a refused control skips
// rather than passing on a refusal that had nothing to do with the key
// (IYRA-SESSION-KEY-REUSE).
func (w *world) reuseKey(ctx context.Context, other string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	slug, body, err := w.reuseBody(ctx, other)
	if err != nil {
		return err
	}
	resp, err := w.create(ctx, slug, freshKey(), body)
	if err != nil {
		return err
	}
	if resp.Status/100 != 2 {
		return verdict.Skipf("the target refuses a creation for %s even with a fresh key (%d), so a reused key cannot be told apart: %s",
			other, resp.Status, clip(resp.Body))
	}
	if v, _ := body["variant"].(string); v != "" {
		s, err := decodeSession(resp)
		if err != nil {
			return err
		}
		if s.Variant != v {
			return verdict.Skipf("the target ignores the variant field (asked for %q), so no body names another intended session", v)
		}
	}
	return w.createWith(ctx, slug, w.key, body)
}

// reuseBody returns the game and creation body standing for other: the
// contract's alternative game at the version its assignment names; the
// contract's preview version when the assignment names another, else an
// unassigned one; or, since the contract's body has no other field that
// tells two intended sessions apart, another kit variant.
func (w *world) reuseBody(ctx context.Context, other string) (string, map[string]any, error) {
	switch other {
	case "another game":
		v, err := w.otherGameVersion(ctx)
		return OtherGame, createBody(v, ""), err
	case "another version":
		v := ContractVersion
		if v == w.id.Version {
			v = unassignedVersion
		}
		return Slug, createBody(v, ""), nil
	}
	return Slug, createBody(w.id.Version, otherVariant(w.sess.Variant)), nil
}

// otherGameVersion reads the version OtherGame's assignment names for the
// scenario's agent; a target without that game skips.
func (w *world) otherGameVersion(ctx context.Context) (string, error) {
	resp, err := w.do(ctx, w.authed(driver.Request{Method: http.MethodGet, Path: "/store/" + OtherGame + "/assignment"}))
	if err != nil {
		return "", err
	}
	var out struct {
		VersionID string `json:"version_id"`
	}
	_ = json.Unmarshal(resp.Body, &out)
	if resp.Status != http.StatusOK || out.VersionID == "" {
		return "", verdict.Skipf("the target assigns no version of %s (%d), so a key cannot be reused for another game", OtherGame, resp.Status)
	}
	return out.VersionID, nil
}

// otherVariant names a kit variant other than v.
func otherVariant(v string) string {
	for _, kv := range iyra.DefaultPack().Variants {
		if kv.ID != v {
			return kv.ID
		}
	}
	return ""
}

// noNewSession requires a reused key to create nothing: a refusal, or the
// key's original session (IYRA-SESSION-KEY-REUSE); the kit refuses with 409
// (IYRA-STATUS-CODES).
func (w *world) noNewSession() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if err := w.refusedBusy(); err != nil {
		return err // a rate limit answers before the key is looked at
	}
	switch {
	case w.Last.Status/100 == 4:
		if w.Last.Status != http.StatusConflict && w.Last.Status != http.StatusNotFound {
			w.note("IYRA-STATUS-CODES", 409, w.Last.Status, "a reused Idempotency-Key")
		}
		var out struct {
			SessionID string `json:"session_id"`
		}
		_ = json.Unmarshal(w.Last.Body, &out)
		if out.SessionID != "" && out.SessionID != w.sess.SessionID {
			return verdict.Failf(w.rule(), "no new session", out.SessionID, "a refusal naming another session")
		}
		return nil
	case w.Last.Status/100 == 2:
		s, err := decodeSession(w.Last)
		if err != nil {
			return err
		}
		if s.SessionID != w.sess.SessionID {
			return verdict.Failf(w.rule(), "a refusal or the original session "+w.sess.SessionID, s.SessionID, "the reused Idempotency-Key created another session")
		}
		return nil
	}
	return verdict.Failf(w.rule(), "a refusal or the original session", w.Last.Status, "%s", clip(w.Last.Body))
}

// lookUp is the When step querying /idempotency/status for key.
func (w *world) lookUp(ctx context.Context, key string) error {
	w.lastKey = key
	req := w.authed(driver.Request{Method: http.MethodGet, Path: "/idempotency/status"})
	req.Header["Idempotency-Key"] = key
	return w.when(ctx, func() (*driver.Response, error) { return w.do(ctx, req) })
}

// creationRefused requires a 4xx that names no session.
func (w *world) creationRefused() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	var out struct {
		SessionID string `json:"session_id"`
	}
	_ = json.Unmarshal(w.Last.Body, &out)
	if w.Last.Status/100 != 4 || out.SessionID != "" {
		return verdict.Failf(w.rule(), "a 4xx refusal naming no session", w.Last.Status, "%s", clip(w.Last.Body))
	}
	return nil
}

// noSessionForKey checks the status look-up of the creation's key finds
// nothing. A missing key cannot be looked up; the refusal body is then
// the evidence (checked by creationRefused), and a 2xx is a failure.
func (w *world) noSessionForKey(ctx context.Context) error {
	if w.lastKey == "" {
		if w.Last.Status/100 == 2 {
			return verdict.Failf(w.rule(), "no session without a key", w.Last.Status, "%s", clip(w.Last.Body))
		}
		return nil
	}
	req := w.authed(driver.Request{Method: http.MethodGet, Path: "/idempotency/status"})
	req.Header["Idempotency-Key"] = w.lastKey
	resp, err := w.do(ctx, req)
	if err != nil {
		return err
	}
	if resp.Status/100 == 2 && statusSession(resp.Body) != "" {
		return verdict.Failf(w.rule(), "no session for the refused key", resp.Status, "%s", clip(resp.Body))
	}
	return nil
}

// refusedBusy turns a rate limit or an outage (429, 503), the answer to
// a request that had to succeed, into a harness error: the contract
// documents both (IYRA-RATE-LIMIT, IYRA-STATUS-CODES), and neither says
// anything about the rule under test.
func (w *world) refusedBusy() error {
	if s := w.Last.Status; s == http.StatusTooManyRequests || s == http.StatusServiceUnavailable {
		return verdict.Errorf("the target answered %d (rate limit or outage) where the scenario needed a success: %s", s, clip(w.Last.Body))
	}
	return nil
}

// sameSession requires the repeated creation to name the original session (IYRA-SESSION-KEY-IDEMPOTENT).
func (w *world) sameSession() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if err := w.refusedBusy(); err != nil {
		return err
	}
	if w.Last.Status/100 != 2 {
		return verdict.Failf("IYRA-SESSION-KEY-IDEMPOTENT", "2xx with the original session", w.Last.Status, "%s", clip(w.Last.Body))
	}
	s, err := decodeSession(w.Last)
	if err != nil {
		return err
	}
	if s.SessionID != w.sess.SessionID {
		return verdict.Failf("IYRA-SESSION-KEY-IDEMPOTENT", w.sess.SessionID, s.SessionID, "the same key and body must return the same session")
	}
	return nil
}

// statusSession finds the session an idempotency status answer names: its
// session_id, a nested session object, or the last segment of its
// state_url. The contract names no shape (IYRA-IDEMPOTENCY-STATUS).
func statusSession(body []byte) string {
	var m map[string]any
	if json.Unmarshal(body, &m) != nil {
		return ""
	}
	if id := str(m["session_id"]); id != "" {
		return id
	}
	if nested, ok := m["session"].(map[string]any); ok {
		if id := str(nested["session_id"]); id != "" {
			return id
		}
		if id := str(nested["id"]); id != "" {
			return id
		}
		m = nested
	}
	if u := str(m["state_url"]); u != "" {
		return path.Base(strings.TrimRight(u, "/"))
	}
	return ""
}

// keyNamesOriginal looks the session's key up again after a refused reuse.
func (w *world) keyNamesOriginal(ctx context.Context) error {
	if err := w.lookUp(ctx, w.key); err != nil {
		return err
	}
	return w.lookUpNames()
}

// lookUpNames requires the look-up to name the scenario's session.
func (w *world) lookUpNames() error {
	if w.Last.Status != http.StatusOK {
		return verdict.Failf(w.rule(), "200 naming the session", w.Last.Status, "%s", clip(w.Last.Body))
	}
	if got := statusSession(w.Last.Body); got != w.sess.SessionID {
		return verdict.Failf(w.rule(), w.sess.SessionID, got, "the session the idempotency status names: %s", clip(w.Last.Body))
	}
	return nil
}

// lookUpNotFound requires an unknown key to be reported as naming no
// session (IYRA-IDEMPOTENCY-STATUS): the contract gives no status, so a
// 404 and a 2xx that names no session are both faithful; 404 is the kit's
// choice (IYRA-IDEMPOTENCY-404), noted apart.
func (w *world) lookUpNotFound() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	st := w.Last.Status
	if statusSession(w.Last.Body) != "" || (st/100 != 2 && st/100 != 4) {
		return verdict.Failf("IYRA-IDEMPOTENCY-STATUS", "an answer naming no session (404, or a 2xx without one)", st, "%s", clip(w.Last.Body))
	}
	if st != http.StatusNotFound {
		w.note("IYRA-IDEMPOTENCY-404", 404, st, "an unused key")
	}
	return nil
}

// lookUpIs404 requires the kit's 404 for an unused key (IYRA-IDEMPOTENCY-404).
func (w *world) lookUpIs404() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status != http.StatusNotFound {
		return verdict.Failf("IYRA-IDEMPOTENCY-404", 404, w.Last.Status, "%s", clip(w.Last.Body))
	}
	return nil
}

// sessionFields are the fields every session response carries
// (IYRA-SESSION-SHAPE).
var sessionFields = []string{"session_id", "state_url", "actions_url", "replay_url", "revision", "legal_actions", "observation", "status", "terminal"}

// observationKeys are play.initial_observation plus phase.
var observationKeys = []string{"allies", "archive_checked", "archive_testimony", "chapter", "collected_sources", "ending",
	"epilogue", "evidence", "harbor_checked", "harbor_testimony", "phase", "selected_claim", "signal", "spire_checked", "spire_fact", "trust"}
