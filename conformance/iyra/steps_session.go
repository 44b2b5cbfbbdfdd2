package iyra

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sort"
	"strings"

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
	sc.Step(`^the agent creates a session accepting version "([^"]*)"$`, func(ctx context.Context, v string) error {
		return w.createWith(ctx, Slug, freshKey(), createBody(v, ""))
	})
	sc.Step(`^the agent creates a session with ready_to_act false$`, func(ctx context.Context) error {
		return w.createWith(ctx, Slug, freshKey(), map[string]any{"ready_to_act": false, "accepted_version_id": w.id.Version})
	})
	sc.Step(`^the agent repeats the creation with the same Idempotency-Key$`, func(ctx context.Context) error {
		return w.createWith(ctx, Slug, w.key, createBody(w.id.Version, ""))
	})
	sc.Step(`^the agent reuses the Idempotency-Key for (another version|another game)$`, w.reuseKey)
	sc.Step(`^the agent looks up the session's Idempotency-Key$`, func(ctx context.Context) error { return w.lookUp(ctx, w.key) })
	sc.Step(`^the agent looks up an unused Idempotency-Key$`, func(ctx context.Context) error { return w.lookUp(ctx, freshKey()) })
	sc.Step(`^the creation is refused$`, w.creationRefused)
	sc.Step(`^no session exists for that key$`, w.noSessionForKey)
	sc.Step(`^the same session is returned$`, w.sameSession)
	sc.Step(`^the key still names the original session$`, w.keyNamesOriginal)
	sc.Step(`^the look-up names the session$`, w.lookUpNames)
	sc.Step(`^the look-up reports not found$`, w.lookUpNotFound)
	sc.Step(`^the response carries the session links and state fields$`, w.sessionShape)
	sc.Step(`^the observation has exactly the declared fields$`, w.observationFields)
	sc.Step(`^the observation is in its initial state$`, w.observationInitial)
	sc.Step(`^the session plays the "([^"]*)" variant$`, w.playsVariant)
	sc.Step(`^the agent plays the same investigations in a second session of that variant$`, w.secondSession)
	sc.Step(`^both sessions revealed identical site facts$`, w.identicalFacts)
	sc.Step(`^the answer is 429 with retry_after_seconds or retry_at$`, w.rateLimited)
	sc.Step(`^the creation was sent exactly once$`, w.sentOnce)
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

// createBadKey creates with a key outside the contract's format (IYRA-SESSION-KEY-REQUIRED).
func (w *world) createBadKey(ctx context.Context, problem string) error {
	return w.createWith(ctx, Slug, badKeys[problem], createBody(w.id.Version, ""))
}

// reuseKey sends the session's key with another version or game.
func (w *world) reuseKey(ctx context.Context, other string) error {
	if other == "another game" {
		return w.createWith(ctx, "helios-relay", w.key, createBody(w.id.Version, ""))
	}
	return w.createWith(ctx, Slug, w.key, createBody("xgv_000000000000000000000000", ""))
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
		return verdict.Failf("", "a 4xx refusal naming no session", w.last.Status, "%s", clip(w.last.Body))
	}
	return nil
}

// noSessionForKey checks the status look-up of the creation's key finds
// nothing. A missing key cannot be looked up; the refusal body is then
// the evidence (checked by creationRefused), and a 2xx is a failure.
func (w *world) noSessionForKey(ctx context.Context) error {
	if w.lastKey == "" {
		if w.last.Status/100 == 2 {
			return verdict.Failf("", "no session without a key", w.last.Status, "%s", clip(w.last.Body))
		}
		return nil
	}
	req := w.authed(driver.Request{Method: http.MethodGet, Path: "/idempotency/status"})
	req.Header["Idempotency-Key"] = w.lastKey
	resp, err := w.do(ctx, req)
	if err != nil {
		return err
	}
	if resp.Status == http.StatusOK {
		return verdict.Failf("", "no session for the refused key", resp.Status, "%s", clip(resp.Body))
	}
	return nil
}

// sameSession requires the repeated creation to name the original session (IYRA-SESSION-KEY-IDEMPOTENT).
func (w *world) sameSession() error {
	if err := w.needLast(); err != nil {
		return err
	}
	if w.last.Status/100 != 2 {
		return verdict.Failf("", "2xx with the original session", w.last.Status, "%s", clip(w.last.Body))
	}
	s, err := decodeSession(w.last)
	if err != nil {
		return err
	}
	if s.SessionID != w.sess.SessionID {
		return verdict.Failf("", w.sess.SessionID, s.SessionID, "the same key and body must return the same session")
	}
	return nil
}

type statusDoc struct {
	SessionID string `json:"session_id"`
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
		return verdict.Failf("", "200 naming the session", w.last.Status, "%s", clip(w.last.Body))
	}
	var st statusDoc
	if err := w.last.Decode("", &st); err != nil {
		return err
	}
	if st.SessionID != w.sess.SessionID {
		return verdict.Failf("", w.sess.SessionID, st.SessionID, "idempotency status session_id")
	}
	return nil
}

// lookUpNotFound requires an unknown key to be reported not found (IYRA-IDEMPOTENCY-STATUS).
func (w *world) lookUpNotFound() error {
	if err := w.needLast(); err != nil {
		return err
	}
	var st statusDoc
	_ = json.Unmarshal(w.last.Body, &st)
	if w.last.Status != http.StatusNotFound || st.SessionID != "" {
		return verdict.Failf("", "404 not found", w.last.Status, "%s", clip(w.last.Body))
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
	if w.last.Status/100 != 2 {
		return verdict.Failf("", "a 2xx session response", w.last.Status, "%s", clip(w.last.Body))
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
		return verdict.Failf("", sessionFields, keys(m), "missing %v", missing)
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

// observationFields requires exactly the declared observation fields (IYRA-OBSERVATION-FIELDS).
func (w *world) observationFields() error {
	m, err := w.ok2xx()
	if err != nil {
		return err
	}
	obs, _ := m["observation"].(map[string]any)
	if got := keys(obs); !slices.Equal(got, observationKeys) {
		return verdict.Failf("", observationKeys, got, "observation fields")
	}
	return nil
}

// ok2xx decodes a 2xx answer into a generic object.
func (w *world) ok2xx() (map[string]any, error) {
	if err := w.needLast(); err != nil {
		return nil, err
	}
	if w.last.Status/100 != 2 {
		return nil, verdict.Failf("", "a 2xx answer", w.last.Status, "%s", clip(w.last.Body))
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
	if diff := diffObs(want, got); diff != "" {
		return verdict.Failf("", "the initial observation", "a different one", "%s", diff)
	}
	return nil
}

// playsVariant checks the created session plays the asked variant (IYRA-VARIANTS).
func (w *world) playsVariant(v string) error {
	if err := w.needLast(); err != nil {
		return err
	}
	s, err := decodeSession(w.last)
	if err != nil {
		return err
	}
	if s.Variant != v {
		return verdict.Failf("", v, s.Variant, "session variant")
	}
	return nil
}

// secondSession replays the three inspections in another session of the
// same variant.
func (w *world) secondSession(ctx context.Context) error {
	first, firstKey := w.sess, w.key
	if err := w.givenSession(ctx, first.Variant); err != nil {
		return err
	}
	err := w.when(ctx, func() (*driver.Response, error) {
		return nil, w.playAll(ctx, "investigate archive, investigate harbor, investigate spire")
	})
	w.second, w.sess, w.key = w.sess, first, firstKey
	return err
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
		return verdict.Failf("", []string{a.ArchiveTestimony, a.HarborTestimony, a.SpireFact},
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
		return verdict.Failf("", "429 with retry_after_seconds or retry_at", w.last.Status, "%s", clip(w.last.Body))
	}
	return nil
}

// sentOnce counts the creation writes the When step sent
// (IYRA-RECOVERY-NO-RETRY): a refused write is never repeated blindly.
func (w *world) sentOnce() error {
	rec := w.env.HTTP.Recorder()
	if rec == nil {
		return verdict.Errorf("no transcript recorder")
	}
	n := 0
	for _, x := range rec.Exchanges()[w.mark:] {
		if x.Method == http.MethodPost && strings.Contains(x.URL, "/sessions") {
			n++
		}
	}
	if n != 1 || w.last.Status/100 == 2 {
		return verdict.Failf("", "one refused creation request", n, "status %d", w.last.Status)
	}
	return nil
}
