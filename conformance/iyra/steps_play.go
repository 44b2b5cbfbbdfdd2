package iyra

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/cucumber/godog"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// playSteps registers the steps that submit actions and judge the answer.
func (w *world) playSteps(sc *godog.ScenarioContext) {
	sc.Step(pattern(`^the agent has played "([^"]*)"$`), w.playAll)
	sc.Step(pattern(`^the agent has tried "([^"]*)"$`), w.tryAll)
	sc.Step(pattern(`^the agent has gathered everything and selected the (corroborated|uncorroborated) claim$`), w.gatherAndSelect)
	sc.Step(pattern(`^the agent plays "([^"]*)"$`), w.playsOne)
	sc.Step(pattern(`^the agent submits "([^"]*)" with a stale revision$`), func(ctx context.Context, s string) error {
		return w.submitVariant(ctx, s, "stale")
	})
	sc.Step(pattern(`^the agent submits "([^"]*)" without a revision$`), func(ctx context.Context, s string) error {
		return w.submitVariant(ctx, s, "missing")
	})
	sc.Step(pattern(`^the agent submits "([^"]*)" with the revision inside the action$`), func(ctx context.Context, s string) error {
		return w.submitVariant(ctx, s, "inside")
	})
	sc.Step(pattern(`^the agent submits an action (without a type|without an action)$`), w.submitIncomplete)
	sc.Step(pattern(`^the agent submits a malformed action body$`), w.submitMalformed)
	sc.Step(pattern(`^the agent reads the session$`), w.readsSession)
	sc.Step(pattern(`^the action is accepted$`), w.accepted)
	sc.Step(pattern(`^the action is rejected$`), w.rejected)
	sc.Step(pattern(`^the action is refused as stale$`), w.refusedStale)
	sc.Step(pattern(`^the agent submits "([^"]*)" (without credentials|with an unknown key|with another agent's key)$`), w.submitAs)
	sc.Step(pattern(`^legal_actions is empty$`), w.legalEmpty)
	sc.Step(pattern(`^the kit's status code is (\d+)$`), w.kitStatus)
	sc.Step(pattern(`^the error body has a code and a message$`), w.errorBody)
	sc.Step(pattern(`^the session state is unchanged$`), w.unchanged)
	sc.Step(pattern(`^the revision went up by one$`), w.revisionUp)
	sc.Step(pattern(`^legal_actions lists every declared action type with its parameters and public preconditions$`), w.legalCatalogue)
	sc.Step(pattern(`^legal_actions entries have the kit's shape$`), w.legalShape)
}

// playsOne is the When step submitting one scripted action. After a
// rejection it reads the authoritative state, as the contract asks
// (IYRA-RECOVERY-READ), so the Then steps judge the state after the
// request, not the one before it.
func (w *world) playsOne(ctx context.Context, script string) error {
	acts := parseScript(script)
	if len(acts) != 1 {
		return verdict.Errorf("a When step plays exactly one action, got %q", script)
	}
	if err := w.needSession(); err != nil {
		return err
	}
	return w.when(ctx, func() (*driver.Response, error) {
		resp, err := w.play(ctx, acts[0])
		if err != nil || resp.Status/100 != 4 {
			return resp, err
		}
		_, s, err := w.read(ctx, w.sess)
		if s != nil {
			w.sess = s
		}
		return resp, err
	})
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

// submitVariant submits an action with a deliberately wrong envelope.
func (w *world) submitVariant(ctx context.Context, script, how string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	a := parseScript(script)[0]
	rev := w.sess.rev()
	w.learnParams(w.sess)
	var body map[string]any
	switch how {
	case "stale":
		stale := rev - 1
		if stale < 0 {
			stale = rev + 1
		}
		body = w.envelope(w.sess, stale, a)
	case "missing":
		body = map[string]any{"action": w.wire(a)}
	case "inside":
		inner := map[string]any{"type": a.Type, "revision": rev}
		w.addParam(inner, a)
		body = map[string]any{"action": inner}
	}
	return w.when(ctx, func() (*driver.Response, error) { return w.submit(ctx, w.sess, body, nil) })
}

// addParam copies an action's declared parameter into a raw action object.
func (w *world) addParam(m map[string]any, a iyra.Action) {
	for k, v := range map[string]string{"site": a.Site, "faction": a.Faction, w.claimName(): a.Claim} {
		if v != "" {
			m[k] = v
		}
	}
}

// submitIncomplete sends an envelope missing the action or its type (IYRA-ACTION-TYPE-REQUIRED).
func (w *world) submitIncomplete(ctx context.Context, problem string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	body := map[string]any{"revision": w.sess.rev()}
	if problem == "without a type" {
		body["action"] = map[string]any{"site": "archive"}
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

// readsSession is a When step reading state_url.
func (w *world) readsSession(ctx context.Context) error {
	if err := w.needSession(); err != nil {
		return err
	}
	return w.when(ctx, func() (*driver.Response, error) {
		resp, s, err := w.read(ctx, w.sess)
		if err == nil {
			w.sess = s
		}
		return resp, err
	})
}

// gatherAndSelect inspects every site, allies with the keepers and selects
// the claim the gathered records do or do not corroborate, whichever
// variant the session plays (IYRA-ENDING-SUCCESS, IYRA-ENDING-UNVERIFIED).
func (w *world) gatherAndSelect(ctx context.Context, which string) error {
	if err := w.playAll(ctx, "investigate archive, investigate spire, investigate harbor, ally keepers"); err != nil {
		return err
	}
	claim, err := w.corroborated(ctx, w.sess)
	if err != nil {
		return err
	}
	if which == "uncorroborated" {
		claim = otherClaim(claim)
	}
	return w.playAll(ctx, "select_claim "+string(claim))
}

// otherClaim returns the claim that is not c.
func otherClaim(c iyra.Claim) iyra.Claim {
	if c == iyra.RelayFault {
		return iyra.RecordOmission
	}
	return iyra.RelayFault
}

// accepted requires a 2xx answer carrying a session.
func (w *world) accepted() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status/100 != 2 {
		return verdict.Failf(w.rule(), "the action accepted (2xx)", w.Last.Status, "%s", clip(w.Last.Body))
	}
	_, err := decodeSession(w.Last)
	return err
}

// rejected requires a 4xx answer.
func (w *world) rejected() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status/100 != 4 {
		return verdict.Failf(w.rule(), "a rejection (4xx)", w.Last.Status, "%s", clip(w.Last.Body))
	}
	return nil
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

// kitStatus checks an exact status the kit chose (IYRA-STATUS-CODES).
func (w *world) kitStatus(code int) error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status != code {
		return verdict.Failf("IYRA-STATUS-CODES", code, w.Last.Status, "%s", clip(w.Last.Body))
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

// unchanged re-reads the state and compares it with the state before the
// When step (the scenario's rule, and IYRA-RECOVERY-READ for the read).
func (w *world) unchanged(ctx context.Context) error {
	if w.Before == nil {
		return verdict.Errorf("no state before the When step")
	}
	_, now, err := w.read(ctx, w.Before)
	if err != nil {
		return err
	}
	if now.rev() != w.Before.rev() {
		return verdict.Failf(w.rule(), w.Before.rev(), now.rev(), "revision after a rejected request")
	}
	if diff := diffObs(w.Before.Observation, now.Observation); diff != "" {
		return verdict.Failf(w.rule(), "the observation before the request", "a changed one", "%s", diff)
	}
	w.sess = now
	return nil
}

// diffObs compares observations, ignoring the order of the set-valued
// allies (IYRA-ALLY-SET) but not of collected_sources.
func diffObs(want, got iyra.Observation) string {
	sortSet := cmpopts.SortSlices(func(a, b string) bool { return a < b })
	return cmp.Diff(want, got, cmp.FilterPath(func(p cmp.Path) bool {
		return strings.Contains(p.GoString(), "Allies")
	}, sortSet), cmpopts.EquateEmpty())
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

// declaredParams are the parameter values each parameterised action type
// declares in the contract (world.locations, world.factions,
// investigation.claims), the parameter's name first. The contract names
// investigate's (site, learning.first_move) and ally's (faction,
// invalid_action_examples) but not select_claim's: "claim" is the kit's
// (IYRA-LEGAL-SHAPE).
var declaredParams = map[string][]string{
	iyra.TypeInvestigate: {"site", "archive", "harbor", "spire"},
	iyra.TypeAlly:        {"faction", "keepers", "drifters"},
	iyra.TypeSelectClaim: {"claim", "relay_fault", "record_omission"},
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

// legalEmpty requires a finished session to list no legal action
// (IYRA-LEGAL-AFTER-END).
func (w *world) legalEmpty() error {
	if err := w.needSession(); err != nil {
		return err
	}
	if len(w.sess.LegalActions) != 0 {
		return verdict.Failf("IYRA-LEGAL-AFTER-END", "no legal_actions", len(w.sess.LegalActions), "legal_actions of a finished session")
	}
	return nil
}
