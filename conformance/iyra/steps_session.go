package iyra

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// sessionSteps registers the session creation and look-up steps.
func (w *world) sessionSteps(sc *godog.ScenarioContext) {
	sc.Step(`^a new session$`, func(ctx context.Context) error { return w.givenSession(ctx, "") })
	sc.Step(`^a new session of the "([^"]*)" variant$`, w.givenSession)
	sc.Step(`^the agent creates a new session$`, func(ctx context.Context) error {
		return w.createWith(ctx, Slug, freshKey(), createBody(w.id.Version, ""))
	})
	sc.Step(`^the agent creates a new session of the "([^"]*)" variant$`, func(ctx context.Context, v string) error {
		return w.createWith(ctx, Slug, freshKey(), createBody(w.id.Version, v))
	})
	sc.Step(`^the agent creates a session with a (missing|too-short|spaced|too-long) Idempotency-Key$`, w.createBadKey)
	sc.Step(`^the agent creates a session with a well-formed Idempotency-Key of (8|128) characters$`, w.createEdgeKey)
	sc.Step(`^the agent creates a session accepting version "([^"]*)"$`, func(ctx context.Context, v string) error {
		return w.createWith(ctx, Slug, freshKey(), createBody(v, ""))
	})
	sc.Step(`^the agent creates a session with ready_to_act false$`, func(ctx context.Context) error {
		return w.createWith(ctx, Slug, freshKey(), map[string]any{"ready_to_act": false, "accepted_version_id": w.id.Version})
	})
	sc.Step(`^the agent repeats the creation with the same Idempotency-Key$`, func(ctx context.Context) error {
		return w.createWith(ctx, Slug, w.key, createBody(w.id.Version, ""))
	})
	sc.Step(`^the agent reuses the Idempotency-Key for (another version|another game|another intended session)$`, w.reuseKey)
	sc.Step(`^the agent looks up the session's Idempotency-Key$`, func(ctx context.Context) error { return w.lookUp(ctx, w.key) })
	sc.Step(`^the agent looks up an unused Idempotency-Key$`, func(ctx context.Context) error { return w.lookUp(ctx, freshKey()) })
	sc.Step(`^the creation is refused$`, w.creationRefused)
	sc.Step(`^no session exists for that key$`, w.noSessionForKey)
	sc.Step(`^the agent creates a session (without credentials|with an unknown key|with a non-Bearer key)$`, w.createUnauthenticated)
	sc.Step(`^the look-up answers 404$`, w.lookUpIs404)
	sc.Step(`^the same session is returned$`, w.sameSession)
	sc.Step(`^the reuse creates no new session$`, w.noNewSession)
	sc.Step(`^the key still names the original session$`, w.keyNamesOriginal)
	sc.Step(`^the look-up names the session$`, w.lookUpNames)
	sc.Step(`^the look-up reports not found$`, w.lookUpNotFound)
	sc.Step(`^the response carries the session links and state fields$`, w.sessionShape)
	sc.Step(`^the observation has the declared fields$`, w.observationFields)
	sc.Step(`^the observation is in its initial state$`, w.observationInitial)
	sc.Step(`^the session plays the "([^"]*)" variant$`, w.playsVariant)
	sc.Step(`^the agent plays the same investigations in a second session of that variant$`, w.secondSession)
	sc.Step(`^both sessions revealed identical site facts$`, w.identicalFacts)
	sc.Step(`^the answer is 429 with retry_after_seconds or retry_at$`, w.rateLimited)
	sc.Step(`^no session exists for that key once the quota has reset$`, w.noSessionAfterReset)
	sc.Step(`^the agent reads the session at the contract's fallback path$`, w.readFallback)
	sc.Step(`^the answer is the session's authoritative state$`, w.sameAuthoritative)
	sc.Step(`^the agent reads the session, its replay and its key's status (without credentials|with an unknown key|with another agent's key)$`, w.probeReads)
	sc.Step(`^every read is refused without the session's data$`, w.probesRefused)
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
	if err := w.needLast(); err != nil {
		return err
	}
	if err := w.refusedBusy(); err != nil {
		return err // a rate limit answers before the key is looked at
	}
	switch {
	case w.last.Status/100 == 4:
		if w.last.Status != http.StatusConflict && w.last.Status != http.StatusNotFound {
			w.note("IYRA-STATUS-CODES", 409, w.last.Status, "a reused Idempotency-Key")
		}
		var out struct {
			SessionID string `json:"session_id"`
		}
		_ = json.Unmarshal(w.last.Body, &out)
		if out.SessionID != "" && out.SessionID != w.sess.SessionID {
			return verdict.Failf(w.rule(), "no new session", out.SessionID, "a refusal naming another session")
		}
		return nil
	case w.last.Status/100 == 2:
		s, err := decodeSession(w.last)
		if err != nil {
			return err
		}
		if s.SessionID != w.sess.SessionID {
			return verdict.Failf(w.rule(), "a refusal or the original session "+w.sess.SessionID, s.SessionID, "the reused Idempotency-Key created another session")
		}
		return nil
	}
	return verdict.Failf(w.rule(), "a refusal or the original session", w.last.Status, "%s", clip(w.last.Body))
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
	if err := w.needLast(); err != nil {
		return err
	}
	var out struct {
		SessionID string `json:"session_id"`
	}
	_ = json.Unmarshal(w.last.Body, &out)
	if w.last.Status/100 != 4 || out.SessionID != "" {
		return verdict.Failf(w.rule(), "a 4xx refusal naming no session", w.last.Status, "%s", clip(w.last.Body))
	}
	return nil
}

// noSessionForKey checks the status look-up of the creation's key finds
// nothing. A missing key cannot be looked up; the refusal body is then
// the evidence (checked by creationRefused), and a 2xx is a failure.
func (w *world) noSessionForKey(ctx context.Context) error {
	if w.lastKey == "" {
		if w.last.Status/100 == 2 {
			return verdict.Failf(w.rule(), "no session without a key", w.last.Status, "%s", clip(w.last.Body))
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
	if s := w.last.Status; s == http.StatusTooManyRequests || s == http.StatusServiceUnavailable {
		return verdict.Errorf("the target answered %d (rate limit or outage) where the scenario needed a success: %s", s, clip(w.last.Body))
	}
	return nil
}

// sameSession requires the repeated creation to name the original session (IYRA-SESSION-KEY-IDEMPOTENT).
func (w *world) sameSession() error {
	if err := w.needLast(); err != nil {
		return err
	}
	if err := w.refusedBusy(); err != nil {
		return err
	}
	if w.last.Status/100 != 2 {
		return verdict.Failf("IYRA-SESSION-KEY-IDEMPOTENT", "2xx with the original session", w.last.Status, "%s", clip(w.last.Body))
	}
	s, err := decodeSession(w.last)
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
	if w.last.Status != http.StatusOK {
		return verdict.Failf(w.rule(), "200 naming the session", w.last.Status, "%s", clip(w.last.Body))
	}
	if got := statusSession(w.last.Body); got != w.sess.SessionID {
		return verdict.Failf(w.rule(), w.sess.SessionID, got, "the session the idempotency status names: %s", clip(w.last.Body))
	}
	return nil
}

// lookUpNotFound requires an unknown key to be reported as naming no
// session (IYRA-IDEMPOTENCY-STATUS): the contract gives no status, so a
// 404 and a 2xx that names no session are both faithful; 404 is the kit's
// choice (IYRA-IDEMPOTENCY-404), noted apart.
func (w *world) lookUpNotFound() error {
	if err := w.needLast(); err != nil {
		return err
	}
	st := w.last.Status
	if statusSession(w.last.Body) != "" || (st/100 != 2 && st/100 != 4) {
		return verdict.Failf("IYRA-IDEMPOTENCY-STATUS", "an answer naming no session (404, or a 2xx without one)", st, "%s", clip(w.last.Body))
	}
	if st != http.StatusNotFound {
		w.note("IYRA-IDEMPOTENCY-404", 404, st, "an unused key")
	}
	return nil
}

// lookUpIs404 requires the kit's 404 for an unused key (IYRA-IDEMPOTENCY-404).
func (w *world) lookUpIs404() error {
	if err := w.needLast(); err != nil {
		return err
	}
	if w.last.Status != http.StatusNotFound {
		return verdict.Failf("IYRA-IDEMPOTENCY-404", 404, w.last.Status, "%s", clip(w.last.Body))
	}
	return nil
}

// sessionFields are the fields every session response carries
// (IYRA-SESSION-SHAPE).
var sessionFields = []string{"session_id", "state_url", "actions_url", "replay_url", "revision", "legal_actions", "observation", "status", "terminal"}

// sessionShape checks every field a session response carries (IYRA-SESSION-SHAPE).
func (w *world) sessionShape() error {
	if err := w.needLast(); err != nil {
		return err
	}
	if err := w.refusedBusy(); err != nil {
		return err
	}
	if w.last.Status/100 != 2 {
		return verdict.Failf(w.rule(), "a 2xx session response", w.last.Status, "%s", clip(w.last.Body))
	}
	m, err := jsonObject("", w.last)
	if err != nil {
		return err
	}
	var missing []string
	for _, f := range sessionFields {
		if _, ok := m[f]; !ok {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		return verdict.Failf("IYRA-SESSION-SHAPE", sessionFields, keys(m), "missing %v", missing)
	}
	return nil
}

// keys returns an object's keys sorted.
func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// observationKeys are play.initial_observation plus phase.
var observationKeys = []string{"allies", "archive_checked", "archive_testimony", "chapter", "collected_sources", "ending",
	"epilogue", "evidence", "harbor_checked", "harbor_testimony", "phase", "selected_claim", "signal", "spire_checked", "spire_fact", "trust"}

// observationFields requires every declared observation field; the
// contract never says "exactly", so extra fields only warn through the
// kit's document (IYRA-OBSERVATION-FIELDS, IYRA-OPENAPI).
func (w *world) observationFields() error {
	m, err := w.ok2xx()
	if err != nil {
		return err
	}
	obs, _ := m["observation"].(map[string]any)
	var missing, extra []string
	for _, k := range observationKeys {
		if _, ok := obs[k]; !ok {
			missing = append(missing, k)
		}
	}
	for _, k := range keys(obs) {
		if !slices.Contains(observationKeys, k) {
			extra = append(extra, k)
		}
	}
	if len(missing) > 0 {
		return verdict.Failf("IYRA-OBSERVATION-FIELDS", observationKeys, keys(obs), "observation lacks %v", missing)
	}
	if len(extra) > 0 {
		w.note("IYRA-OPENAPI", observationKeys, keys(obs), "observation carries undeclared fields %v", extra)
	}
	return nil
}

// ok2xx decodes a 2xx answer into a generic object.
func (w *world) ok2xx() (map[string]any, error) {
	if err := w.needLast(); err != nil {
		return nil, err
	}
	if err := w.refusedBusy(); err != nil {
		return nil, err
	}
	if w.last.Status/100 != 2 {
		return nil, verdict.Failf(w.rule(), "a 2xx answer", w.last.Status, "%s", clip(w.last.Body))
	}
	return jsonObject("", w.last)
}

// observationInitial compares the first observation with the declared
// starting point (the reference engine's fresh game, chapter aside).
func (w *world) observationInitial() error {
	if err := w.needSession(); err != nil {
		return err
	}
	want := iyra.NewGame(iyra.DefaultRules(), iyra.Variant{}, nil, "").View().Observation
	got := w.sess.Observation
	want.Chapter = got.Chapter // the chapter name is IYRA-CHAPTER-NAMES
	if got.Phase != iyra.PhaseFinished {
		want.Phase = got.Phase // the contract names only "finished"
	}
	if diff := diffObs(want, got); diff != "" {
		return verdict.Failf(w.rule(), "the initial observation", "a different one", "%s", diff)
	}
	return nil
}

// playsVariant checks the created session plays the asked variant (IYRA-VARIANTS).
func (w *world) playsVariant(v string) error {
	if err := w.needLast(); err != nil {
		return err
	}
	if w.last.Status/100 != 2 {
		return verdict.Failf("IYRA-VARIANTS", "a session of variant "+v, w.last.Status, "%s", clip(w.last.Body))
	}
	s, err := decodeSession(w.last)
	if err != nil {
		return err
	}
	if s.Variant != v {
		return verdict.Failf("IYRA-VARIANTS", v, s.Variant, "session variant")
	}
	return nil
}

// secondSession replays the three inspections in another session of the
// same variant: asked for by the variant field, or found among new
// sessions when the target refuses the field. A target that names no
// variant cannot show which sessions share one, and skips.
func (w *world) secondSession(ctx context.Context) error {
	first := w.sess
	if first.Variant == "" {
		return verdict.Skipf("the target names no variant, so two sessions of one variant cannot be told apart")
	}
	var second *sessionDoc
	for range sameRecordsTries {
		s, _, err := w.anySession(ctx, first.Variant)
		if err != nil {
			return err
		}
		if s.Variant == first.Variant {
			second = s
			break
		}
	}
	if second == nil {
		return verdict.Skipf("no second session of variant %s in %d tries", first.Variant, sameRecordsTries)
	}
	return w.when(ctx, func() (*driver.Response, error) {
		var err error
		w.second, err = w.playScript(ctx, second, "investigate archive, investigate harbor, investigate spire")
		return nil, err
	})
}

// identicalFacts compares the texts two sessions of one variant revealed (IYRA-SITE-FACTS-FIXED).
func (w *world) identicalFacts() error {
	if w.second == nil {
		return verdict.Errorf("no second session")
	}
	a, b := w.sess.Observation, w.second.Observation
	if a.ArchiveTestimony == "" || a.HarborTestimony == "" || a.SpireFact == "" {
		return verdict.Failf("IYRA-SITE-REVEAL", "revealed site texts", a, "first session")
	}
	if a.ArchiveTestimony != b.ArchiveTestimony || a.HarborTestimony != b.HarborTestimony || a.SpireFact != b.SpireFact {
		return verdict.Failf("IYRA-SITE-FACTS-FIXED", []string{a.ArchiveTestimony, a.HarborTestimony, a.SpireFact},
			[]string{b.ArchiveTestimony, b.HarborTestimony, b.SpireFact}, "site facts of two %s sessions", w.sess.Variant)
	}
	return nil
}

// rateLimited checks a 429 carries a retry hint (IYRA-RATE-LIMIT).
func (w *world) rateLimited() error {
	if err := w.needLast(); err != nil {
		return err
	}
	var body struct {
		RetryAfterSeconds *float64 `json:"retry_after_seconds"`
		RetryAt           string   `json:"retry_at"`
	}
	_ = json.Unmarshal(w.last.Body, &body)
	if w.last.Status != http.StatusTooManyRequests || (body.RetryAfterSeconds == nil && body.RetryAt == "") {
		return verdict.Failf("IYRA-RATE-LIMIT", "429 with retry_after_seconds or retry_at", w.last.Status, "%s", clip(w.last.Body))
	}
	return nil
}

// noSessionAfterReset moves the embedded clock past the quota reset and
// looks the refused creation's key up again: a platform that retried the
// write on its own would now show a session (IYRA-RECOVERY-NO-RETRY).
func (w *world) noSessionAfterReset(ctx context.Context) error {
	if w.env.Clock == nil {
		return verdict.Skipf("needs the embedded reference's clock to pass the quota reset")
	}
	w.env.Clock.Advance(25 * time.Hour)
	return w.noSessionForKey(ctx)
}

// readFallback is the When step reading the contract's fallback path
// /sessions/{session_id} under the base path (IYRA-RECOVERY-FALLBACK-PATH).
func (w *world) readFallback(ctx context.Context) error {
	if err := w.needSession(); err != nil {
		return err
	}
	req := w.authed(driver.Request{Method: http.MethodGet, Path: "/sessions/" + url.PathEscape(w.sess.SessionID)})
	return w.when(ctx, func() (*driver.Response, error) { return w.do(ctx, req) })
}

// sameAuthoritative requires the answer to be the scenario session's
// state: same session, revision and observation.
func (w *world) sameAuthoritative() error {
	if err := w.needLast(); err != nil {
		return err
	}
	if w.last.Status != http.StatusOK {
		return verdict.Failf(w.rule(), "200 with the session state", w.last.Status, "%s", clip(w.last.Body))
	}
	s, err := decodeSession(w.last)
	if err != nil {
		return err
	}
	if s.SessionID != w.sess.SessionID || s.rev() != w.sess.rev() {
		return verdict.Failf(w.rule(), fmt.Sprintf("session %s at revision %d", w.sess.SessionID, w.sess.rev()),
			fmt.Sprintf("session %s at revision %d", s.SessionID, s.rev()), "the fallback path")
	}
	if diff := diffObs(w.sess.Observation, s.Observation); diff != "" {
		return verdict.Failf(w.rule(), "the observation at state_url", "a different one", "%s", diff)
	}
	return nil
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
	w.markWhen()
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
	w.last = w.probes[len(w.probes)-1]
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
