package iyra

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

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

// keys returns an object's keys sorted.
func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
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

// ok2xx decodes a 2xx answer into a generic object.
func (w *world) ok2xx() (map[string]any, error) {
	if err := w.NeedLast(); err != nil {
		return nil, err
	}
	if err := w.refusedBusy(); err != nil {
		return nil, err
	}
	if w.Last.Status/100 != 2 {
		return nil, verdict.Failf(w.rule(), "a 2xx answer", w.Last.Status, "%s", clip(w.Last.Body))
	}
	return jsonObject("", w.Last)
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
	if err := w.NeedLast(); err != nil {
		return err
	}
	var body struct {
		RetryAfterSeconds *float64 `json:"retry_after_seconds"`
		RetryAt           string   `json:"retry_at"`
	}
	_ = json.Unmarshal(w.Last.Body, &body)
	if w.Last.Status != http.StatusTooManyRequests || (body.RetryAfterSeconds == nil && body.RetryAt == "") {
		return verdict.Failf("IYRA-RATE-LIMIT", "429 with retry_after_seconds or retry_at", w.Last.Status, "%s", clip(w.Last.Body))
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
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status != http.StatusOK {
		return verdict.Failf(w.rule(), "200 with the session state", w.Last.Status, "%s", clip(w.Last.Body))
	}
	s, err := decodeSession(w.Last)
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
