package iyra

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// sessionsSteps registers the steps of features/iyra/sessions.feature.
func (w *world) sessionsSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent creates a new session of the "([^"]*)" variant$`), func(ctx context.Context, v string) error {
		return w.createWith(ctx, Slug, freshKey(), createBody(w.id.Version, v))
	})
	sc.Step(pattern(`^the agent creates a session with a (missing|too-short|spaced|too-long|slashed|accented) Idempotency-Key$`), w.createBadKey)
	sc.Step(pattern(`^the agent creates a session with a well-formed Idempotency-Key of (8|128) characters$`), w.createEdgeKey)
	sc.Step(pattern(`^the agent creates a session accepting version "([^"]*)"$`), func(ctx context.Context, v string) error {
		return w.createWith(ctx, Slug, freshKey(), createBody(v, ""))
	})
	sc.Step(pattern(`^the agent creates a session accepting the version assigned for another game$`), w.createOtherGameVersion)
	sc.Step(pattern(`^the agent creates a session accepting the assigned version (cut by its last character|followed by one character more)$`), w.createNearVersion)
	sc.Step(pattern(`^the agent creates a session with ready_to_act false$`), func(ctx context.Context) error {
		return w.createWith(ctx, Slug, freshKey(), map[string]any{"ready_to_act": false, "accepted_version_id": w.id.Version})
	})
	sc.Step(pattern(`^the agent repeats the creation with the same Idempotency-Key( and its members in another order)?$`), w.repeatCreation)
	sc.Step(pattern(`^the agent reuses the Idempotency-Key for (another version|another game|another intended session)$`), w.reuseKey)
	sc.Step(pattern(`^the agent looks up the session's Idempotency-Key$`), func(ctx context.Context) error { return w.lookUp(ctx, w.key) })
	sc.Step(pattern(`^the agent looks up an unused Idempotency-Key$`), func(ctx context.Context) error { return w.lookUp(ctx, freshKey()) })
	sc.Step(pattern(`^the look-up answers 404$`), w.lookUpIs404)
	sc.Step(pattern(`^the same session is returned$`), w.sameSession)
	sc.Step(pattern(`^the session is as it was before the repeat$`), w.untouchedByRepeat)
	sc.Step(pattern(`^the reuse creates no new session$`), w.noNewSession)
	sc.Step(pattern(`^the key still names the original session$`), w.keyNamesOriginal)
	sc.Step(pattern(`^the look-up names the session$`), w.lookUpNames)
	sc.Step(pattern(`^the look-up reports not found$`), w.lookUpNotFound)
	sc.Step(pattern(`^the response carries the session links and state fields$`), w.sessionShape)
	sc.Step(pattern(`^the observation has the declared fields$`), w.observationFields)
	sc.Step(pattern(`^the observation is in its initial state$`), w.observationInitial)
	sc.Step(pattern(`^the session plays the "([^"]*)" variant$`), w.playsVariant)
	sc.Step(pattern(`^the agent plays the same investigations( in the reverse order)? in a second session of that variant$`), w.secondSession)
	sc.Step(pattern(`^both sessions revealed identical site facts$`), w.identicalFacts)
}

// sessionShape checks every field a session response carries (IYRA-SESSION-SHAPE).
func (w *world) sessionShape() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if err := w.refusedBusy(); err != nil {
		return err
	}
	if w.Last.Status/100 != 2 {
		return verdict.Failf(w.rule(), "a 2xx session response", w.Last.Status, "%s", clip(w.Last.Body))
	}
	m, err := jsonObject("", w.Last)
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
		_, ok := obs[k]
		switch {
		case ok:
		case k == "phase" && m["terminal"] != true:
			// The contract names observation.phase only for the finished
			// state (terminal.when); before it, phase is the kit's field.
			w.note("IYRA-OPENAPI", "observation.phase", keys(obs), "an active session's observation has no phase")
		default:
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
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status == http.StatusTooManyRequests || w.Last.Status >= 500 {
		// the creation was not judged: the target could not serve it now
		return verdict.Errorf("the target refused the creation with %d (rate limit or outage): %s", w.Last.Status, clip(w.Last.Body))
	}
	if w.Last.Status/100 != 2 {
		return verdict.Failf("IYRA-VARIANTS", "a session of variant "+v, w.Last.Status, "%s", clip(w.Last.Body))
	}
	s, err := decodeSession(w.Last)
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
func (w *world) secondSession(ctx context.Context, reversed string) error {
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
		w.second, err = w.playScript(ctx, second, secondInvestigations(reversed != ""))
		return nil, err
	})
}

// secondInvestigations is the second session's script: the first one's
// three inspections, or the same in the reverse order. The facts are
// "fixed for this immutable release", so the order they are gathered in
// must not change them either (IYRA-SITE-FACTS-FIXED).
func secondInvestigations(reversed bool) string {
	if reversed {
		return "investigate spire, investigate harbor, investigate archive"
	}
	return "investigate archive, investigate harbor, investigate spire"
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

// createEdgeKey creates a session under a fresh key at an edge of
// ^[A-Za-z0-9._:-]{8,128}$, using every punctuation mark the format allows.
func (w *world) createEdgeKey(ctx context.Context, n int) error {
	key := "k.:_-" + freshKey()[len("kit-"):]
	for len(key) < n {
		key += freshKey()[len("kit-"):]
	}
	return w.createWith(ctx, Slug, key[:n], createBody(w.id.Version, ""))
}

// createBadKey creates with a key outside the contract's format (IYRA-SESSION-KEY-REQUIRED).
func (w *world) createBadKey(ctx context.Context, problem string) error {
	return w.createWith(ctx, Slug, badKeys[problem], createBody(w.id.Version, ""))
}

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

// repeatCreation sends the creation again under the session's key, its
// body as the kit first sent it or, reordered, the same JSON object in
// other bytes: JSON leaves member order open, so a repeat is the same
// request whichever order it writes (IYRA-SESSION-KEY-IDEMPOTENT).
func (w *world) repeatCreation(ctx context.Context, reordered string) error {
	var body any = createBody(w.id.Version, "")
	if reordered != "" {
		version, _ := json.Marshal(w.id.Version)
		body = json.RawMessage(`{"ready_to_act": true, "accepted_version_id": ` + string(version) + `}`)
	}
	return w.createWith(ctx, Slug, w.key, body)
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

// untouchedByRepeat re-reads the session after a repeated creation: the
// repeat "returns the same session, not a new one", so it leaves the
// session as it was, revision and observation alike; a creation written as
// an upsert resets it under the same id (IYRA-SESSION-KEY-IDEMPOTENT). An
// answer replaying the first creation's body is faithful: only the state
// read afterwards is judged.
func (w *world) untouchedByRepeat(ctx context.Context) error {
	return w.sameAsBefore(ctx, "a repeated creation")
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

// createNearVersion creates a session accepting a version one character
// off the assigned one: cut by its last character, or with one more. The
// contract's accepted_version_id is the "version_id from assignment", so
// either is another value and must be refused (IYRA-SESSION-VERSION); a
// server matching a prefix either way takes one of them.
func (w *world) createNearVersion(ctx context.Context, how string) error {
	v := w.id.Version
	if len(v) < 2 {
		return verdict.Skipf("the assigned version %q is too short to cut", v)
	}
	if how == "cut by its last character" {
		v = v[:len(v)-1]
	} else {
		v += "0"
	}
	return w.createWith(ctx, Slug, freshKey(), createBody(v, ""))
}

// createOtherGameVersion creates a session of the game accepting the
// version OtherGame's assignment names: a version the target knows, but
// not this game's assignment, so it must be refused as any other is
// (IYRA-SESSION-VERSION). A target assigning no such game, or the same
// version to both, skips.
func (w *world) createOtherGameVersion(ctx context.Context) error {
	v, err := w.otherGameVersion(ctx)
	if err != nil {
		return err
	}
	if strings.EqualFold(v, w.id.Version) {
		return verdict.Skipf("the target assigns %s the same version as %s (%s)", OtherGame, Slug, v)
	}
	return w.createWith(ctx, Slug, freshKey(), createBody(v, ""))
}
