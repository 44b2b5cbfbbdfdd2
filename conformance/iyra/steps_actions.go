package iyra

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// actionsSteps registers the steps of features/iyra/actions.feature.
func (w *world) actionsSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent's session quota is spent$`), w.quotaSpent)
	sc.Step(pattern(`^the agent submits "([^"]*)" with a (stale revision|revision ahead of the latest)$`), func(ctx context.Context, s, how string) error {
		if how == "stale revision" {
			return w.submitVariant(ctx, s, "stale")
		}
		return w.submitVariant(ctx, s, "ahead")
	})
	sc.Step(pattern(`^the agent submits "([^"]*)" without a revision$`), func(ctx context.Context, s string) error {
		return w.submitVariant(ctx, s, "missing")
	})
	sc.Step(pattern(`^the agent submits "([^"]*)" with the revision inside the action$`), func(ctx context.Context, s string) error {
		return w.submitVariant(ctx, s, "inside")
	})
	sc.Step(pattern(`^the agent submits an action (without a type|without an action|outside an action)$`), w.submitIncomplete)
	sc.Step(pattern(`^the agent submits a malformed action body$`), w.submitMalformed)
	sc.Step(pattern(`^the action is refused as stale$`), w.refusedStale)
	sc.Step(pattern(`^the error body has a code and a message$`), w.errorBody)
	sc.Step(pattern(`^the revision went up by one$`), w.revisionUp)
	sc.Step(pattern(`^legal_actions lists every declared action type with its parameters and public preconditions$`), w.legalCatalogue)
	sc.Step(pattern(`^legal_actions entries have the kit's shape$`), w.legalShape)
	sc.Step(pattern(`^the answer is 429 with retry_after_seconds or retry_at$`), w.rateLimited)
	sc.Step(pattern(`^no session exists for that key once the quota has reset$`), w.noSessionAfterReset)
	sc.Step(pattern(`^the agent reads the session at the contract's fallback path$`), w.readFallback)
	sc.Step(pattern(`^the agent has read the session at the contract's fallback path$`), w.readFallbackBefore)
	sc.Step(pattern(`^the answer is the session's authoritative state$`), w.sameAuthoritative)
}

// readFallbackBefore reads the fallback path and judges it before a
// write, so the read after the write shows whether the path follows the
// state or serves what it answered first (IYRA-RECOVERY-FALLBACK-PATH).
func (w *world) readFallbackBefore(ctx context.Context) error {
	if err := w.readFallback(ctx); err != nil {
		return err
	}
	return w.sameAuthoritative()
}

// quotaSpent switches the scenario to a fresh agent (never the shared one)
// and spends its quota on the embedded reference.
func (w *world) quotaSpent(ctx context.Context) error {
	q, ok := w.env.Reference.(quotaSpender)
	if !ok {
		return verdict.Skipf("needs the embedded reference to spend a session quota")
	}
	id, err := w.register(ctx)
	if err != nil {
		return err
	}
	w.id = id
	if !q.SpendSessionQuota(id.APIKey) {
		return verdict.Errorf("the reference does not know the fresh agent's key")
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

// submitIncomplete sends an envelope missing the action or its type, or
// with the action's fields flat beside revision, where the contract's
// envelope has none (IYRA-ACTION-TYPE-REQUIRED: "a missing action ... is
// refused"; a server reading a flat body as its action lets it through).
func (w *world) submitIncomplete(ctx context.Context, problem string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	body := map[string]any{"revision": w.sess.rev()}
	switch problem {
	case "without a type":
		body["action"] = map[string]any{"site": "archive"}
	case "outside an action":
		body["type"], body["site"] = "investigate", "archive"
	}
	return w.when(ctx, func() (*driver.Response, error) { return w.submit(ctx, w.sess, body, nil) })
}

// submitMalformed sends a truncated JSON body (IYRA-BAD-INPUT).
func (w *world) submitMalformed(ctx context.Context) error {
	if err := w.needSession(); err != nil {
		return err
	}
	raw := []byte(`{"revision": 0, "action": {"type": "investigate", "site": "archive"`)
	return w.when(ctx, func() (*driver.Response, error) { return w.submit(ctx, w.sess, nil, raw) })
}

// refusedStale requires a refusal (4xx) of a stale or missing revision;
// the contract maps neither to a status, the kit answers 409
// (IYRA-REVISION-STALE, IYRA-STATUS-CODES).
func (w *world) refusedStale() error {
	if err := w.rejected(); err != nil {
		return err
	}
	if w.Last.Status != http.StatusConflict {
		w.note("IYRA-STATUS-CODES", 409, w.Last.Status, "a stale or missing revision")
	}
	return nil
}

// errorBody requires {code, message} in an error answer (IYRA-ERROR-BODY).
func (w *world) errorBody() error {
	m, err := jsonObject("IYRA-ERROR-BODY", w.Last)
	if err != nil {
		return err
	}
	if str(m["code"]) == "" || str(m["message"]) == "" {
		return verdict.Failf("IYRA-ERROR-BODY", "a body with code and message", clip(w.Last.Body), "status %d", w.Last.Status)
	}
	return nil
}

// revisionUp requires exactly one revision per accepted action (IYRA-REVISION-INCREMENT).
func (w *world) revisionUp() error {
	if err := w.accepted(); err != nil {
		return err
	}
	if w.sess.rev() != w.Before.rev()+1 {
		return verdict.Failf("IYRA-REVISION-INCREMENT", w.Before.rev()+1, w.sess.rev(), "revision after one accepted action")
	}
	return nil
}

// legalCatalogue checks, whatever the state of an active session, that
// legal_actions lists every declared type (as a set: a type may have one
// entry per parameter value) with its declared parameter values somewhere
// in its entries (IYRA-LEGAL-CATALOGUE). A public_preconditions list on
// every entry, the alliance's trust gate among them, and the name "claim"
// are the kit's shape, noted apart (IYRA-LEGAL-SHAPE).
func (w *world) legalCatalogue() error {
	m, err := jsonObject("IYRA-LEGAL-CATALOGUE", w.Last)
	if err != nil {
		return err
	}
	raw, _ := m["legal_actions"].([]any)
	entries := map[string][]any{}
	for _, e := range raw {
		obj, _ := e.(map[string]any)
		t := str(obj["type"])
		pre, isList := obj["public_preconditions"].([]any)
		if !isList || (t == iyra.TypeAlly && len(pre) == 0) {
			w.note("IYRA-LEGAL-SHAPE", "a public_preconditions list for "+t+" (trust >= 2 for ally)", e, "legal_actions entry")
		}
		entries[t] = append(entries[t], e)
	}
	want := slices.Sorted(slices.Values(iyra.ActionTypes))
	if got := slices.Sorted(maps.Keys(entries)); !slices.Equal(got, want) {
		return verdict.Failf("IYRA-LEGAL-CATALOGUE", want, got, "legal_actions types (ally is listed even while trust < 2)")
	}
	for t, words := range declaredParams {
		text, _ := json.Marshal(entries[t])
		for i, word := range words {
			if strings.Contains(string(text), `"`+word+`"`) {
				continue
			}
			if t == iyra.TypeSelectClaim && i == 0 {
				w.note("IYRA-LEGAL-SHAPE", "select_claim's parameter named claim", string(text), "the contract leaves the name open")
				continue
			}
			return verdict.Failf("IYRA-LEGAL-CATALOGUE", t+" declaring "+strings.Join(words, ", "), string(text), "legal_actions lacks %q", word)
		}
	}
	return nil
}

// legalShape requires the kit's shape of every legal_actions entry: a
// public_preconditions list (ally's trust gate among them) and select_claim's
// parameter named claim (IYRA-LEGAL-SHAPE, the kit's choice).
func (w *world) legalShape() error {
	if err := w.needSession(); err != nil {
		return err
	}
	m, err := jsonObject("IYRA-LEGAL-SHAPE", w.Last)
	if err != nil {
		return err
	}
	raw, _ := m["legal_actions"].([]any)
	for _, e := range raw {
		obj, _ := e.(map[string]any)
		pre, isList := obj["public_preconditions"].([]any)
		params, _ := obj["parameters"].(map[string]any)
		switch t := str(obj["type"]); {
		case !isList || (t == iyra.TypeAlly && len(pre) == 0):
			return verdict.Failf("IYRA-LEGAL-SHAPE", "a public_preconditions list (trust >= 2 for ally)", e, "legal_actions entry")
		case t == iyra.TypeSelectClaim && params["claim"] == nil:
			return verdict.Failf("IYRA-LEGAL-SHAPE", "select_claim's parameter named claim", e, "legal_actions entry")
		}
	}
	return nil
}
