package iyra

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// sharedSteps registers the steps several feature files use.
func (w *world) sharedSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent reads its assignment(?: (without credentials|with an unknown key|with a non-Bearer key|with the key in the URL))?$`), w.readAssignment)
	sc.Step(pattern(`^a verified agent$`), w.aVerifiedAgent)
	sc.Step(pattern(`^the agent has played "([^"]*)"$`), w.playAll)
	sc.Step(pattern(`^the agent has tried "([^"]*)"$`), w.tryAll)
	sc.Step(pattern(`^the agent has gathered everything and (selected|changed to) the (corroborated|uncorroborated) claim$`), w.gatherAndSelect)
	sc.Step(pattern(`^the agent has gathered every record without an ally and selected the corroborated claim$`), w.gatherAloneAndSelect)
	sc.Step(pattern(`^the agent plays "([^"]*)"$`), w.playsOne)
	sc.Step(pattern(`^the agent reads the session$`), w.readsSession)
	sc.Step(pattern(`^the action is accepted$`), w.accepted)
	sc.Step(pattern(`^the action is rejected$`), w.rejected)
	sc.Step(pattern(`^the kit's status code is (\d+)$`), w.kitStatus)
	sc.Step(pattern(`^the session state is unchanged$`), w.unchanged)
	sc.Step(pattern(`^a new session$`), func(ctx context.Context) error { return w.givenSession(ctx, "") })
	sc.Step(pattern(`^a new session of the "([^"]*)" variant$`), w.givenSession)
	sc.Step(pattern(`^the agent creates a new session$`), func(ctx context.Context) error {
		return w.createWith(ctx, Slug, freshKey(), createBody(w.id.Version, ""))
	})
	sc.Step(pattern(`^the creation is refused$`), w.creationRefused)
	sc.Step(pattern(`^no session exists for that key$`), w.noSessionForKey)
	sc.Step(pattern(`^the resources are evidence (\d+), trust (\d+), signal (\d+)$`), w.resources)
	sc.Step(pattern(`^the allies are "([^"]*)"$`), w.allies)
	sc.Step(pattern(`^(\d+) steps have been used$`), w.stepsUsed)
	sc.Step(pattern(`^the ending is "([^"]*)"$`), w.ending)
}

// playAll plays a setup script; every action must be accepted.
func (w *world) playAll(ctx context.Context, script string) error {
	s, err := w.playScript(ctx, w.sess, script)
	if s != nil {
		w.sess = s
	}
	return err
}

// tryAll plays a script in which some actions may be refused, re-reading
// the authoritative state after each refusal (IYRA-RECOVERY-READ).
func (w *world) tryAll(ctx context.Context, script string) error {
	for _, a := range parseScript(script) {
		resp, err := w.play(ctx, a)
		if err != nil {
			return err
		}
		if resp.Status/100 == 4 {
			if _, s, err := w.read(ctx, w.sess); err != nil {
				return err
			} else {
				w.sess = s
			}
		}
	}
	return nil
}

// aVerifiedAgent adopts the run's shared identity. A scenario checking a
// game rule skips when the assignment is another version than the one the
// contract describes: that version's rules "may differ from this public
// preview".
func (w *world) aVerifiedAgent(ctx context.Context) error {
	id, err := w.sharedIdentity(ctx)
	w.id = id
	if err != nil {
		return err
	}
	if id.Version != ContractVersion && w.versionBound() {
		return verdict.Skipf("the assigned version %s is not the contract's %s; its game rules may differ", id.Version, ContractVersion)
	}
	return nil
}

// readAssignment reads the assignment with the given credential variant
// (IYRA-AUTH-BEARER, IYRA-AUTH-NO-URL-KEY).
func (w *world) readAssignment(ctx context.Context, how string) error {
	req := driver.Request{Method: http.MethodGet, Path: "/store/" + Slug + "/assignment"}
	if how == "with the key in the URL" {
		// A live deployment's access logs and proxies keep URLs: the
		// check spends a throwaway identity, never the run's main key.
		throwaway, err := w.sharedAs(ctx, "iyra/identity/url-throwaway")
		if err != nil {
			return err
		}
		req.Header = map[string]string{}
		// The key rides under each name a deployment might read it
		// from: none of them may authenticate.
		k := url.QueryEscape(throwaway.APIKey)
		req.Path += "?api_key=" + k + "&key=" + k + "&access_token=" + k
	} else {
		var err error
		if req, err = w.credentialed(ctx, req, how); err != nil {
			return err
		}
	}
	return w.when(ctx, func() (*driver.Response, error) { return w.do(ctx, req) })
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
// variant the session plays (IYRA-ENDING-SUCCESS, IYRA-ENDING-UNVERIFIED);
// "changed to" selects the other claim first, so the change's cost is
// paid before the ending (IYRA-SCORE: the evidence it ended with).
func (w *world) gatherAndSelect(ctx context.Context, how, which string) error {
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
	script := "select_claim " + string(claim)
	if how == "changed to" {
		script = "select_claim " + string(otherClaim(claim)) + ", " + script
	}
	return w.playAll(ctx, script)
}

// gatherAloneAndSelect inspects every site, allies with no faction and
// selects the corroborated claim: evidence 5 and signal 3 with an empty
// coalition, a verified ending the score must still be the evidence of
// (IYRA-SCORE: a score set where the allies' consequences are written
// leaves it out).
func (w *world) gatherAloneAndSelect(ctx context.Context) error {
	if err := w.playAll(ctx, "investigate archive, investigate spire, investigate harbor"); err != nil {
		return err
	}
	claim, err := w.corroborated(ctx, w.sess)
	if err != nil {
		return err
	}
	return w.playAll(ctx, "select_claim "+string(claim))
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

// kitStatus notes a status other than the exact one the kit chose
// (IYRA-STATUS-CODES) and lets the scenario go on, so the MUST step after
// it (the session state unchanged) is still decided.
func (w *world) kitStatus(code int) error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status != code {
		w.note("IYRA-STATUS-CODES", code, w.Last.Status, "%s", clip(w.Last.Body))
	}
	return nil
}

// unchanged re-reads the state and compares it with the state before the
// When step (the scenario's rule, and IYRA-RECOVERY-READ for the read).
func (w *world) unchanged(ctx context.Context) error {
	return w.sameAsBefore(ctx, "a rejected request")
}

// sameAsBefore is unchanged for the request named after: the state read
// now must be the one before the When step.
func (w *world) sameAsBefore(ctx context.Context, after string) error {
	if w.Before == nil {
		return verdict.Errorf("no state before the When step")
	}
	_, now, err := w.read(ctx, w.Before)
	if err != nil {
		return err
	}
	if now.rev() != w.Before.rev() {
		return verdict.Failf(w.rule(), w.Before.rev(), now.rev(), "revision after %s", after)
	}
	if diff := diffObs(w.Before.Observation, now.Observation); diff != "" {
		return verdict.Failf(w.rule(), "the observation before the request", "a changed one", "%s", diff)
	}
	w.sess = now
	return nil
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

// resources checks evidence, trust and signal of the latest state.
func (w *world) resources(e, t, s int) error {
	if err := w.needSession(); err != nil {
		return err
	}
	o := w.sess.Observation
	if o.Evidence != e || o.Trust != t || o.Signal != s {
		return verdict.Failf(w.rule(), fmt.Sprintf("evidence %d, trust %d, signal %d", e, t, s),
			fmt.Sprintf("evidence %d, trust %d, signal %d", o.Evidence, o.Trust, o.Signal), "after %s", w.lastAction())
	}
	return nil
}

// allies compares the coalition as a set and requires no duplicates
// (IYRA-ALLY-SET).
func (w *world) allies(list string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	var want []string
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f != "" {
			want = append(want, f)
		}
	}
	got := slices.Clone(w.sess.Observation.Allies)
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		return verdict.Failf(w.rule(), want, got, "allies")
	}
	return nil
}

// stepsUsed reads progress.steps_used, or the revision when a target has
// no progress panel (one revision per accepted action).
func (w *world) stepsUsed(n int) error {
	if err := w.needSession(); err != nil {
		return err
	}
	got := w.sess.rev()
	if w.sess.Progress != nil {
		got = w.sess.Progress.StepsUsed
	}
	if got != n {
		return verdict.Failf(w.rule(), n, got, "accepted actions counted")
	}
	return nil
}

// ending checks the latest state's ending.
func (w *world) ending(want string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	if got := w.sess.Observation.Ending; got != want {
		detail := "observation.ending"
		if w.claim != "" {
			detail += ", the selected claim's corroboration learned from " + w.claim
		}
		return verdict.Failf(w.rule(), want, got, "%s", detail)
	}
	return nil
}
