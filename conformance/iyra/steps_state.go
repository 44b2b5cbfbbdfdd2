package iyra

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// stateSteps registers the checks of the observation.
func (w *world) stateSteps(sc *godog.ScenarioContext) {
	sc.Step(`^the resources are evidence (\d+), trust (\d+), signal (\d+)$`, w.resources)
	sc.Step(`^the allies are "([^"]*)"$`, w.allies)
	sc.Step(`^the chapter is "([^"]*)"$`, w.chapter)
	sc.Step(`^the (archive|harbor|spire) is inspected, its text revealed and collected$`, w.siteRevealed)
	sc.Step(`^the other sites are still uninspected with empty text$`, w.othersEmpty)
	sc.Step(`^the selected claim is "([^"]*)"$`, w.selectedClaim)
	sc.Step(`^(\d+) steps have been used$`, w.stepsUsed)
}

// endingSteps registers the checks of endings and terminal signals.
func (w *world) endingSteps(sc *godog.ScenarioContext) {
	sc.Step(`^the ending is "([^"]*)"$`, w.ending)
	sc.Step(`^the ending is one of the declared reason codes$`, w.reasonCode)
	sc.Step(`^the outcome is "([^"]*)"$`, w.outcome)
	sc.Step(`^the score is (\d+)$`, w.score)
	sc.Step(`^the score equals the evidence$`, w.scoreIsEvidence)
	sc.Step(`^the session is finished$`, w.finished)
	sc.Step(`^the session is still active$`, w.active)
	sc.Step(`^the epilogue is empty$`, func() error { return w.epilogue(false) })
	sc.Step(`^the epilogue is set$`, func() error { return w.epilogue(true) })
}

// resources checks evidence, trust and signal of the latest state.
func (w *world) resources(e, t, s int) error {
	if err := w.needSession(); err != nil {
		return err
	}
	o := w.sess.Observation
	if o.Evidence != e || o.Trust != t || o.Signal != s {
		return verdict.Failf("", fmt.Sprintf("evidence %d, trust %d, signal %d", e, t, s),
			fmt.Sprintf("evidence %d, trust %d, signal %d", o.Evidence, o.Trust, o.Signal), "after %s", w.lastAction())
	}
	return nil
}

// lastAction describes the last accepted action for failure messages.
func (w *world) lastAction() string {
	if w.before == nil {
		return "setup"
	}
	return fmt.Sprintf("revision %d", w.before.rev())
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
		return verdict.Failf("", want, got, "allies")
	}
	return nil
}

// chapter checks the latest state's chapter.
func (w *world) chapter(want string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	if got := w.sess.Observation.Chapter; got != want {
		return verdict.Failf("", want, got, "chapter")
	}
	return nil
}

// siteView returns the flag and text of a site in an observation.
func siteView(o iyra.Observation, site string) (bool, string) {
	switch site {
	case "archive":
		return o.ArchiveChecked, o.ArchiveTestimony
	case "harbor":
		return o.HarborChecked, o.HarborTestimony
	default:
		return o.SpireChecked, o.SpireFact
	}
}

// siteRevealed checks an inspection's flag, text and source (IYRA-SITE-REVEAL).
func (w *world) siteRevealed(site string) error {
	if err := w.accepted(); err != nil {
		return err
	}
	o := w.sess.Observation
	flag, text := siteView(o, site)
	if !flag || text == "" || !slices.Contains(o.CollectedSources, site) {
		return verdict.Failf("", site+" checked, its text non-empty and in collected_sources",
			fmt.Sprintf("checked=%v text=%q collected=%v", flag, text, o.CollectedSources), "after investigating")
	}
	return nil
}

// othersEmpty requires uninspected sites to stay unchecked and empty (IYRA-SITE-REVEAL).
func (w *world) othersEmpty() error {
	o := w.sess.Observation
	for _, s := range iyra.Sites {
		if slices.Contains(o.CollectedSources, string(s)) {
			continue
		}
		if flag, text := siteView(o, string(s)); flag || text != "" {
			return verdict.Failf("", string(s)+" unchecked with empty text", fmt.Sprintf("checked=%v text=%q", flag, text), "uninspected site")
		}
	}
	if len(o.CollectedSources) != 1 {
		return verdict.Failf("", 1, len(o.CollectedSources), "collected_sources after one inspection")
	}
	return nil
}

// selectedClaim checks the latest state's selected claim.
func (w *world) selectedClaim(want string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	if got := w.sess.Observation.SelectedClaim; got != want {
		return verdict.Failf("", want, got, "selected_claim")
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
		return verdict.Failf("", n, got, "accepted actions counted")
	}
	return nil
}

// ending checks the latest state's ending.
func (w *world) ending(want string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	if got := w.sess.Observation.Ending; got != want {
		return verdict.Failf("", want, got, "observation.ending")
	}
	return nil
}

var reasonCodes = []string{iyra.TruthReleased, iyra.UnverifiedBroadcast, iyra.Withdrawn, iyra.BudgetExhausted}

// reasonCode requires one of the four declared reason codes (IYRA-REASON-CODES).
func (w *world) reasonCode() error {
	if err := w.needSession(); err != nil {
		return err
	}
	if got := w.sess.Observation.Ending; !slices.Contains(reasonCodes, got) {
		return verdict.Failf("", reasonCodes, got, "observation.ending")
	}
	return nil
}

// outcome checks the session's outcome (IYRA-OUTCOME).
func (w *world) outcome(want string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	if w.sess.Outcome != want {
		return verdict.Failf("", want, w.sess.Outcome, "outcome")
	}
	return nil
}

// score checks the session's score (IYRA-SCORE).
func (w *world) score(want int) error {
	if err := w.needSession(); err != nil {
		return err
	}
	if w.sess.Score == nil || *w.sess.Score != want {
		return verdict.Failf("", want, fmtPtr(w.sess.Score), "score")
	}
	return nil
}

// scoreIsEvidence requires a verified ending scoring its evidence (IYRA-SCORE).
func (w *world) scoreIsEvidence() error {
	if err := w.ending(iyra.TruthReleased); err != nil {
		return err
	}
	return w.score(w.sess.Observation.Evidence)
}

// fmtPtr shows an optional integer, "absent" when missing.
func fmtPtr(p *int) string {
	if p == nil {
		return "absent"
	}
	return fmt.Sprint(*p)
}

// signals returns the three terminal signals of s.
func signals(s *sessionDoc) (terminal, statusDone, phaseDone bool, ok bool) {
	if s.Terminal == nil {
		return false, false, false, false
	}
	return *s.Terminal, s.Status == iyra.StatusFinished, s.Observation.Phase == iyra.PhaseFinished, true
}

// finished requires all three terminal signals (IYRA-TERMINAL-SIGNALS).
func (w *world) finished() error {
	if err := w.needSession(); err != nil {
		return err
	}
	t, st, ph, ok := signals(w.sess)
	if !ok || !t || !st || !ph {
		return verdict.Failf("", "terminal true, status finished, observation.phase finished",
			fmt.Sprintf("terminal=%v status=%q phase=%q", fmtBool(w.sess.Terminal), w.sess.Status, w.sess.Observation.Phase), "after the ending")
	}
	return nil
}

// active requires none of the three terminal signals (IYRA-TERMINAL-SIGNALS).
func (w *world) active() error {
	if err := w.accepted(); err != nil {
		return err
	}
	t, st, ph, ok := signals(w.sess)
	if !ok || t || st || ph {
		return verdict.Failf("", "terminal false, status not finished, phase not finished",
			fmt.Sprintf("terminal=%v status=%q phase=%q", fmtBool(w.sess.Terminal), w.sess.Status, w.sess.Observation.Phase), "while investigating")
	}
	return nil
}

// fmtBool shows an optional boolean, "absent" when missing.
func fmtBool(b *bool) string {
	if b == nil {
		return "absent"
	}
	return fmt.Sprint(*b)
}

// epilogue checks whether the epilogue is set (IYRA-EPILOGUE).
func (w *world) epilogue(set bool) error {
	if err := w.accepted(); err != nil {
		return err
	}
	if got := w.sess.Observation.Epilogue; (got != "") != set {
		want := "an empty epilogue"
		if set {
			want = "a non-empty epilogue"
		}
		return verdict.Failf("", want, got, "ending %q", w.sess.Observation.Ending)
	}
	return nil
}

// replaySteps registers the visibility, progress and replay checks.
func (w *world) replaySteps(sc *godog.ScenarioContext) {
	sc.Step(`^the agent reads the replay$`, w.readsReplay)
	sc.Step(`^no public field reveals the truth or field notes$`, w.nothingPrivate)
	sc.Step(`^the replay carries integrity.verified, outcome, version_id and trusted_ranking_eligible$`, w.replayFields)
	sc.Step(`^the replay's hash chain recomputes over (\d+) accepted actions$`, w.replayChain)
	sc.Step(`^the progress panel mirrors the observation$`, w.progressMirrors)
	sc.Step(`^the milestones are "([^"]*)"$`, w.milestones)
	sc.Step(`^the personal-best dimensions are evidence (\d+), allies (\d+), steps (\d+), ending "([^"]*)"$`, w.personalBest)
}

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

// nothingPrivate scans every body of the scenario (IYRA-VISIBILITY).
func (w *world) nothingPrivate() error {
	for _, b := range w.bodies {
		if err := checkPrivate(b); err != nil {
			return err
		}
	}
	return nil
}

// privateKeys are field names that would carry private content.
var privateKeys = []string{"truth", "field_notes", "fieldnotes", "notes", "secret"}

// checkPrivate fails when a body has a private-looking key anywhere, or
// any truth or field-notes text of the kit's variants.
func checkPrivate(body []byte) error {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return nil
	}
	if k := privateKey(v); k != "" {
		return verdict.Failf("IYRA-VISIBILITY", "no private field", k, "a public response carries %q", k)
	}
	text := string(body)
	for _, vr := range iyra.DefaultPack().Variants {
		for _, secret := range []string{vr.Truth, vr.FieldNotes} {
			if secret != "" && strings.Contains(text, jsonText(secret)) {
				return verdict.Failf("IYRA-VISIBILITY", "no private text", secret, "variant %s private text in a public response", vr.ID)
			}
		}
	}
	return nil
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// privateKey finds a private-looking key at any depth of a JSON value.
func privateKey(v any) string {
	switch t := v.(type) {
	case map[string]any:
		for k, child := range t {
			if slices.Contains(privateKeys, strings.ToLower(k)) {
				return k
			}
			if found := privateKey(child); found != "" {
				return found
			}
		}
	case []any:
		for _, child := range t {
			if found := privateKey(child); found != "" {
				return found
			}
		}
	}
	return ""
}

// replayDoc is the replay as the runner reads it.
type replayDoc struct {
	SessionID              string       `json:"session_id"`
	VersionID              string       `json:"version_id"`
	Outcome                string       `json:"outcome"`
	TrustedRankingEligible *bool        `json:"trusted_ranking_eligible"`
	Actions                []iyra.Entry `json:"actions"`
	Integrity              *struct {
		Verified *bool  `json:"verified"`
		Seed     string `json:"seed"`
		Head     string `json:"head"`
	} `json:"integrity"`
	PersonalBest *iyra.PersonalBest `json:"personal_best_dimensions"`
}

// replayDoc decodes a 200 replay answer (IYRA-REPLAY).
func (w *world) replayDoc() (*replayDoc, error) {
	if err := w.needLast(); err != nil {
		return nil, err
	}
	if w.last.Status != http.StatusOK {
		return nil, verdict.Failf("IYRA-REPLAY", "200 with the replay", w.last.Status, "%s", clip(w.last.Body))
	}
	var r replayDoc
	return &r, w.last.Decode("IYRA-REPLAY", &r)
}

// replayFields checks the four fields the contract says to inspect (IYRA-REPLAY).
func (w *world) replayFields() error {
	r, err := w.replayDoc()
	if err != nil {
		return err
	}
	switch {
	case r.Integrity == nil || r.Integrity.Verified == nil:
		return verdict.Failf("", "integrity.verified", clip(w.replay), "replay")
	case !*r.Integrity.Verified:
		return verdict.Failf("", "integrity.verified true for an untampered session", false, "replay")
	case r.Outcome == "" || r.TrustedRankingEligible == nil:
		return verdict.Failf("", "outcome and trusted_ranking_eligible", clip(w.replay), "replay")
	case r.VersionID != w.id.Version:
		return verdict.Failf("", w.id.Version, r.VersionID, "replay version_id")
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
		return verdict.Failf("", n, len(r.Actions), "accepted actions in the replay")
	}
	seed := iyra.ChainSeed(w.sess.SessionID, w.id.Version)
	if r.Integrity == nil || r.Integrity.Seed != seed || !iyra.VerifyChain(seed, r.Actions, r.Integrity.Head) {
		return verdict.Failf("", "a chain recomputing from "+seed, clip(w.replay), "replay integrity")
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
		return verdict.Failf("", "a progress object", "none", "session response")
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
		return verdict.Failf("", fmt.Sprintf("%+v", o), fmt.Sprintf("%+v", *p), "progress vs observation")
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
		return verdict.Failf("", want, "no progress", "milestones")
	}
	if !sameStrings(w.sess.Progress.Milestones, want) {
		return verdict.Failf("", want, w.sess.Progress.Milestones, "progress.milestones")
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
		return verdict.Failf("", want, r.PersonalBest, "replay personal_best_dimensions")
	}
	return nil
}
