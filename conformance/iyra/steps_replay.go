package iyra

// The steps of the replay, the progress panel and the personal best.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// readsReplay is the When step reading replay_url.
func (w *world) readsReplay(ctx context.Context) error {
	if err := w.needSession(); err != nil {
		return err
	}
	if w.sess.ReplayURL == "" {
		return verdict.Failf("IYRA-SESSION-SHAPE", "a replay_url", "none", "session response")
	}
	return w.when(ctx, func() (*driver.Response, error) {
		resp, err := w.do(ctx, w.authed(driver.Request{Method: http.MethodGet, Path: w.rel(w.sess.ReplayURL)}))
		if err == nil {
			w.replay = resp.Body
		}
		return resp, err
	})
}

// nothingPrivate scans every body of the scenario, and every header
// field of its answers for the truth (IYRA-VISIBILITY).
func (w *world) nothingPrivate() error {
	for _, b := range w.bodies {
		if err := checkPrivate(b); err != nil {
			return err
		}
	}
	for _, h := range w.headers {
		if err := checkPrivateHeader(h); err != nil {
			return err
		}
	}
	return nil
}

// replayFields checks the four fields the contract says to inspect (IYRA-REPLAY).
func (w *world) replayFields() error {
	r, err := w.replayDoc()
	if err != nil {
		return err
	}
	switch {
	case r.Integrity == nil || r.Integrity.Verified == nil:
		return verdict.Failf("IYRA-REPLAY", "integrity.verified", clip(w.replay), "replay")
	case !*r.Integrity.Verified:
		return verdict.Failf("IYRA-REPLAY", "integrity.verified true for an untampered session", false, "replay")
	case r.Outcome == "" || r.TrustedRankingEligible == nil:
		return verdict.Failf("IYRA-REPLAY", "outcome and trusted_ranking_eligible", clip(w.replay), "replay")
	case r.VersionID != w.id.Version:
		return verdict.Failf("IYRA-REPLAY", w.id.Version, r.VersionID, "replay version_id")
	}
	return nil
}

// replayAgrees requires the replay's outcome, version and (when it states
// one) ending to be the finished session's (IYRA-REPLAY-FAITHFUL).
func (w *world) replayAgrees() error {
	r, err := w.replayDoc()
	if err != nil {
		return err
	}
	s := w.sess
	switch {
	case r.Outcome != s.Outcome:
		return verdict.Failf("IYRA-REPLAY-FAITHFUL", s.Outcome, r.Outcome, "replay outcome of a session that ended %s", s.Observation.Ending)
	case r.VersionID != w.id.Version:
		return verdict.Failf("IYRA-REPLAY-FAITHFUL", w.id.Version, r.VersionID, "replay version_id")
	case r.Ending != "" && r.Ending != s.Observation.Ending:
		return verdict.Failf("IYRA-REPLAY-FAITHFUL", s.Observation.Ending, r.Ending, "replay ending")
	}
	return nil
}

// replayActions requires the replay's action list to be exactly the
// session's accepted actions, in order (IYRA-REPLAY-FAITHFUL). The
// contract does not name the list: it is the "actions" array, or else the
// one top-level array whose entries are actions or hold one; a replay with
// none the runner can read skips.
func (w *world) replayActions() error {
	if _, err := w.replayDoc(); err != nil {
		return err
	}
	list, ok := actionList(w.replay)
	if !ok {
		return verdict.Skipf("the replay has no list of actions the kit can read: %s", clip(w.replay))
	}
	var got []string
	for _, raw := range list {
		var entry struct {
			Nested json.RawMessage `json:"action"`
		}
		_ = json.Unmarshal(raw, &entry)
		a := w.fromWire(raw)
		if len(entry.Nested) > 0 {
			a = w.fromWire(entry.Nested)
		}
		got = append(got, string(a.Canonical()))
	}
	var want []string
	for _, a := range w.played[w.sess.SessionID] {
		want = append(want, string(a.Canonical()))
	}
	if !slices.Equal(got, want) {
		return verdict.Failf("IYRA-REPLAY-FAITHFUL", want, got, "the replay's actions against the accepted ones")
	}
	return nil
}

// nextStepsRead requires, after a verified replay, a voluntary_next_steps
// list whose every entry is a read request (IYRA-NEXT-STEPS-READ-ONLY).
func (w *world) nextStepsRead() error {
	r, err := w.replayDoc()
	if err != nil {
		return err
	}
	if r.Integrity == nil || r.Integrity.Verified == nil || !*r.Integrity.Verified {
		return verdict.Failf("IYRA-REPLAY", "integrity.verified true for an untouched session", clip(w.replay), "replay")
	}
	if r.VoluntaryNextSteps == nil {
		return verdict.Failf("IYRA-NEXT-STEPS-READ-ONLY", "a voluntary_next_steps list", clip(w.replay), "a verified replay")
	}
	unmarked := 0
	for _, e := range r.VoluntaryNextSteps {
		m, _ := e.(map[string]any)
		method := strings.ToUpper(str(m["method"]))
		switch {
		case method == "":
			unmarked++ // the entry's shape is open; a method field is the kit's
		case method != http.MethodGet && method != http.MethodHead:
			return verdict.Failf("IYRA-NEXT-STEPS-READ-ONLY", "a read request (GET or HEAD)", e, "voluntary_next_steps entry")
		}
	}
	if unmarked > 0 {
		w.note("IYRA-OPENAPI", "a method on every voluntary_next_steps entry", clip(w.replay), "%d entries name no method", unmarked)
		if unmarked == len(r.VoluntaryNextSteps) {
			return verdict.Skipf("unchecked: no voluntary_next_steps entry names its method")
		}
	}
	return nil
}

// verifiedNotEligible requires a verified replay that is not
// ranking-eligible: the kit's reference makes eligibility a separate check
// that a caller-selected variant fails (IYRA-RANKING-SEPARATE).
func (w *world) verifiedNotEligible() error {
	r, err := w.replayDoc()
	if err != nil {
		return err
	}
	verified := r.Integrity != nil && r.Integrity.Verified != nil && *r.Integrity.Verified
	if !verified || r.TrustedRankingEligible == nil || *r.TrustedRankingEligible {
		return verdict.Failf("IYRA-RANKING-SEPARATE", "integrity.verified true, trusted_ranking_eligible false", clip(w.replay), "replay of a session whose variant the caller chose")
	}
	return nil
}

// replayChain recomputes the hash chain (IYRA-REPLAY-INTEGRITY).
func (w *world) replayChain(n int) error {
	r, err := w.replayDoc()
	if err != nil {
		return err
	}
	if len(r.Actions) != n {
		return verdict.Failf("IYRA-REPLAY-INTEGRITY", n, len(r.Actions), "accepted actions in the replay")
	}
	seed := iyra.ChainSeed(w.sess.SessionID, w.id.Version)
	if r.Integrity == nil || r.Integrity.Seed != seed || !iyra.VerifyChain(seed, r.Actions, r.Integrity.Head) {
		return verdict.Failf("IYRA-REPLAY-INTEGRITY", "a chain recomputing from "+seed, clip(w.replay), "replay integrity")
	}
	return nil
}

// progressMirrors checks the progress panel restates the observation (IYRA-PROGRESS).
func (w *world) progressMirrors() error {
	if err := w.needSession(); err != nil {
		return err
	}
	p, o := w.sess.Progress, w.sess.Observation
	if p == nil {
		return verdict.Failf("IYRA-PROGRESS", "a progress object", "none", "session response")
	}
	var inspected []string
	for _, s := range iyra.Sites {
		if flag, _ := siteView(o, string(s)); flag {
			inspected = append(inspected, string(s))
		}
	}
	ok := p.Evidence == iyra.Gauge{Value: o.Evidence, Target: 4} && p.Signal == iyra.Gauge{Value: o.Signal, Target: 3} &&
		p.Trust == o.Trust && sameStrings(p.Allies, o.Allies) && p.Chapter == o.Chapter && p.Epilogue == o.Epilogue &&
		p.SelectedClaim == o.SelectedClaim && sameStrings(p.CollectedSources, o.CollectedSources) &&
		sameStrings(p.InspectedSites, inspected) && p.StepsUsed+p.StepsRemaining == 9
	if !ok {
		return verdict.Failf("IYRA-PROGRESS", fmt.Sprintf("%+v", o), fmt.Sprintf("%+v", *p), "progress vs observation")
	}
	return nil
}

// milestones checks the milestones reached, in order (IYRA-MILESTONES).
func (w *world) milestones(list string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	var want []string
	for _, m := range strings.Split(list, ",") {
		if m = strings.TrimSpace(m); m != "" {
			want = append(want, m)
		}
	}
	if w.sess.Progress == nil {
		return verdict.Failf("IYRA-MILESTONES", want, "no progress", "milestones")
	}
	if !sameStrings(w.sess.Progress.Milestones, want) {
		return verdict.Failf("IYRA-MILESTONES", want, w.sess.Progress.Milestones, "progress.milestones")
	}
	return nil
}

// personalBest checks the replay's personal-best dimensions (IYRA-PERSONAL-BEST).
func (w *world) personalBest(e, allies, steps int, ending string) error {
	r, err := w.replayDoc()
	if err != nil {
		return err
	}
	want := iyra.PersonalBest{Evidence: e, Allies: allies, Steps: steps, Ending: ending}
	if r.PersonalBest == nil || *r.PersonalBest != want {
		return verdict.Failf("IYRA-PERSONAL-BEST", want, r.PersonalBest, "replay personal_best_dimensions")
	}
	return nil
}

// replaySteps registers the steps of features/iyra/replay.feature.
func (w *world) replaySteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent reads the replay$`), w.readsReplay)
	sc.Step(pattern(`^no public field reveals the truth or field notes$`), w.nothingPrivate)
	sc.Step(pattern(`^the replay carries integrity.verified, outcome, version_id and trusted_ranking_eligible$`), w.replayFields)
	sc.Step(pattern(`^the replay reports the session's outcome, ending and version$`), w.replayAgrees)
	sc.Step(pattern(`^the replay lists exactly the accepted actions$`), w.replayActions)
	sc.Step(pattern(`^every voluntary next step is a read request$`), w.nextStepsRead)
	sc.Step(pattern(`^the replay is verified but not ranking-eligible$`), w.verifiedNotEligible)
	sc.Step(pattern(`^the replay's hash chain recomputes over (\d+) accepted actions$`), w.replayChain)
	sc.Step(pattern(`^the progress panel mirrors the observation$`), w.progressMirrors)
	sc.Step(pattern(`^the milestones are "([^"]*)"$`), w.milestones)
	sc.Step(pattern(`^the personal-best dimensions are evidence (\d+), allies (\d+), steps (\d+), ending "([^"]*)"$`), w.personalBest)
}
