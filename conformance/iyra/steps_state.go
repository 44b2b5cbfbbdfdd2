package iyra

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// stateSteps registers the checks of the observation.
func (w *world) stateSteps(sc *godog.ScenarioContext) {
	sc.Step(pattern(`^the resources are evidence (\d+), trust (\d+), signal (\d+)$`), w.resources)
	sc.Step(pattern(`^the allies are "([^"]*)"$`), w.allies)
	sc.Step(pattern(`^the chapter is "([^"]*)"$`), w.chapter)
	sc.Step(pattern(`^the chapter is no longer "inquiry"$`), w.chapterLeftInquiry)
	sc.Step(pattern(`^the (archive|harbor|spire) is inspected, its text revealed and collected$`), w.siteRevealed)
	sc.Step(pattern(`^collected_sources names "(archive|harbor|spire)"$`), w.collectedNames)
	sc.Step(pattern(`^the other sites are still uninspected with empty text$`), w.othersEmpty)
	sc.Step(pattern(`^the selected claim is "([^"]*)"$`), w.selectedClaim)
	sc.Step(pattern(`^(\d+) steps have been used$`), w.stepsUsed)
}

// endingSteps registers the checks of endings and terminal signals.
func (w *world) endingSteps(sc *godog.ScenarioContext) {
	sc.Step(pattern(`^the ending is "([^"]*)"$`), w.ending)
	sc.Step(pattern(`^the ending is one of the declared reason codes$`), w.reasonCode)
	sc.Step(pattern(`^the outcome is "([^"]*)"$`), w.outcome)
	sc.Step(pattern(`^the score is (\d+)$`), w.score)
	sc.Step(pattern(`^the score shown is (\d+)$`), w.scoreShown)
	sc.Step(pattern(`^the score equals the evidence$`), w.scoreIsEvidence)
	sc.Step(pattern(`^the session is finished$`), w.finished)
	sc.Step(pattern(`^the session is still active$`), w.active)
	sc.Step(pattern(`^the epilogue is empty$`), func() error { return w.epilogue(false) })
	sc.Step(pattern(`^the epilogue is set$`), func() error { return w.epilogue(true) })
	sc.Step(pattern(`^the session carries every terminal summary field$`), w.terminalSummary)
	sc.Step(pattern(`^the session's time limit has passed$`), w.timeLimitPassed)
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

// lastAction describes the last accepted action for failure messages.
func (w *world) lastAction() string {
	if w.Before == nil {
		return "setup"
	}
	return fmt.Sprintf("revision %d", w.Before.rev())
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

// chapter checks the latest state's chapter.
func (w *world) chapter(want string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	if got := w.sess.Observation.Chapter; got != want {
		return verdict.Failf(w.rule(), want, got, "chapter")
	}
	return nil
}

// chapterLeftInquiry requires the chapter to have left inquiry after an
// accepted action other than an inspection: the chapter describes the
// latest activity (IYRA-CHAPTER-LATEST).
func (w *world) chapterLeftInquiry() error {
	if err := w.accepted(); err != nil {
		return err
	}
	if got := w.sess.Observation.Chapter; got == iyra.ChapterInquiry {
		return verdict.Failf("IYRA-CHAPTER-LATEST", "a chapter other than inquiry", got, "after %s", w.lastAction())
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
	grown := w.Before == nil || len(o.CollectedSources) == len(w.Before.Observation.CollectedSources)+1
	if !flag || text == "" || !grown {
		return verdict.Failf("IYRA-SITE-REVEAL", site+" checked, its text non-empty and one more collected source",
			fmt.Sprintf("checked=%v text=%q collected=%v", flag, text, o.CollectedSources), "after investigating")
	}
	if !slices.Contains(o.CollectedSources, site) {
		// The contract names collected_sources, not its entries.
		w.note("IYRA-COLLECTED-SOURCE-IDS", "an entry "+site, o.CollectedSources, "collected_sources after investigating")
	}
	return nil
}

// collectedNames requires collected_sources to hold the site's id
// (IYRA-COLLECTED-SOURCE-IDS, the kit's choice).
func (w *world) collectedNames(site string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	if got := w.sess.Observation.CollectedSources; !slices.Contains(got, site) {
		return verdict.Failf("IYRA-COLLECTED-SOURCE-IDS", "an entry "+site, got, "collected_sources")
	}
	return nil
}

// othersEmpty requires uninspected sites to stay unchecked and empty (IYRA-SITE-REVEAL).
func (w *world) othersEmpty() error {
	o := w.sess.Observation
	inspected := 0
	for _, s := range iyra.Sites {
		flag, text := siteView(o, string(s))
		switch {
		case flag:
			inspected++
		case text != "":
			return verdict.Failf("IYRA-SITE-REVEAL", string(s)+" unchecked with empty text", fmt.Sprintf("checked=%v text=%q", flag, text), "uninspected site")
		}
	}
	if inspected != 1 {
		return verdict.Failf("IYRA-SITE-REVEAL", "one site checked", inspected, "after one inspection")
	}
	if len(o.CollectedSources) != 1 {
		return verdict.Failf("IYRA-SITE-REVEAL", 1, len(o.CollectedSources), "collected_sources after one inspection")
	}
	return nil
}

// selectedClaim checks the latest state's selected claim.
func (w *world) selectedClaim(want string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	if got := w.sess.Observation.SelectedClaim; got != want {
		return verdict.Failf(w.rule(), want, got, "selected_claim")
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

var reasonCodes = []string{iyra.TruthReleased, iyra.UnverifiedBroadcast, iyra.Withdrawn, iyra.BudgetExhausted}

// reasonCode requires one of the four declared reason codes (IYRA-REASON-CODES).
func (w *world) reasonCode() error {
	if err := w.needSession(); err != nil {
		return err
	}
	if got := w.sess.Observation.Ending; !slices.Contains(reasonCodes, got) {
		return verdict.Failf("IYRA-REASON-CODES", reasonCodes, got, "observation.ending")
	}
	return nil
}

// outcome checks the session's outcome: a finished session's is the
// objective's success, failure or draw (IYRA-OUTCOME), an active one's the
// kit's in_progress (IYRA-OUTCOME-IN-PROGRESS).
func (w *world) outcome(want string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	rule := "IYRA-OUTCOME"
	if want == iyra.InProgress {
		rule = "IYRA-OUTCOME-IN-PROGRESS"
	}
	if w.sess.Outcome != want {
		return verdict.Failf(rule, want, w.sess.Outcome, "outcome with ending %q", w.sess.Observation.Ending)
	}
	return nil
}

// scoreShown checks a shown score is want; a target that shows none at this
// point is unchecked here (IYRA-TERMINAL-SUMMARY requires it at the end).
func (w *world) scoreShown(want int) error {
	if err := w.needSession(); err != nil {
		return err
	}
	if w.sess.Score == nil {
		return verdict.Skipf("unchecked: the target shows no score here")
	}
	if *w.sess.Score != want {
		return verdict.Failf(w.rule(), want, *w.sess.Score, "score with ending %q", w.sess.Observation.Ending)
	}
	return nil
}

// score checks the session's score, under the scenario's rule (IYRA-SCORE,
// IYRA-SCORE-ZERO).
func (w *world) score(want int) error {
	if err := w.needSession(); err != nil {
		return err
	}
	if w.sess.Score == nil || *w.sess.Score != want {
		return verdict.Failf(w.rule(), want, fmtPtr(w.sess.Score), "score")
	}
	return nil
}

// scoreIsEvidence requires a verified ending scoring its evidence (IYRA-SCORE).
func (w *world) scoreIsEvidence() error {
	if err := w.ending(iyra.TruthReleased); err != nil {
		return err
	}
	if want := w.sess.Observation.Evidence; w.sess.Score == nil || *w.sess.Score != want {
		return verdict.Failf("IYRA-SCORE", want, fmtPtr(w.sess.Score), "score at truth_released")
	}
	return nil
}

// summaryFields are observer.terminal_hold.summary_fields.
var summaryFields = []string{"outcome", "score", "ending", "allies", "epilogue", "selected_claim", "collected_sources"}

// summaryHolders are where a terminal summary field may sit: the answer's
// top level, its observation, or a summary object.
var summaryHolders = []string{"", "observation", "summary", "terminal_summary"}

// terminalSummary requires every terminal summary field in a finished
// session's answer, at the top level, in the observation or in a summary
// object (IYRA-TERMINAL-SUMMARY). A field is there when its key is: the
// contract never says how an empty claim, epilogue or source list is
// written, so JSON null counts as present.
func (w *world) terminalSummary() error {
	m, err := w.ok2xx()
	if err != nil {
		return err
	}
	var missing []string
	for _, f := range summaryFields {
		if !slices.ContainsFunc(summaryHolders, func(h string) bool { return hasKey(holder(m, h), f) }) {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		return verdict.Failf("IYRA-TERMINAL-SUMMARY", summaryFields, summaryKeys(m), "a finished session lacks %v in every place a summary field may sit", missing)
	}
	return nil
}

// holder returns the object named h in m (m itself for ""), nil when absent.
func holder(m map[string]any, h string) map[string]any {
	if h == "" {
		return m
	}
	obj, _ := m[h].(map[string]any)
	return obj
}

// hasKey reports whether obj holds key, whatever its value (null included).
func hasKey(obj map[string]any, key string) bool {
	_, ok := obj[key]
	return ok
}

// summaryKeys lists the keys of every place a summary field may sit, as
// "top level: [...]; observation: [...]", for the failure message.
func summaryKeys(m map[string]any) string {
	var parts []string
	for _, h := range summaryHolders {
		obj := holder(m, h)
		if obj == nil {
			continue
		}
		name := h
		if name == "" {
			name = "top level"
		}
		parts = append(parts, fmt.Sprintf("%s: %v", name, keys(obj)))
	}
	return strings.Join(parts, "; ")
}

// timeLimitPassed moves the embedded reference's clock past the contract's
// max_duration_seconds (IYRA-DURATION-LIMIT).
func (w *world) timeLimitPassed() error {
	if w.env.Clock == nil {
		return verdict.Skipf("needs the embedded reference's clock to pass max_duration_seconds")
	}
	w.env.Clock.Advance(181 * time.Second)
	return nil
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
	if !t && !st && !ph {
		// Not ended at all: the scenario's rule says it should have.
		return verdict.Failf(w.rule(), "a finished session", fmt.Sprintf("terminal=%v status=%q phase=%q", fmtBool(w.sess.Terminal), w.sess.Status, w.sess.Observation.Phase), "after the ending")
	}
	if !ok || !t || !st || !ph {
		return verdict.Failf("IYRA-TERMINAL-SIGNALS", "terminal true, status finished, observation.phase finished",
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
		return verdict.Failf("IYRA-TERMINAL-SIGNALS", "terminal false, status not finished, phase not finished",
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
		return verdict.Failf(w.rule(), want, got, "ending %q", w.sess.Observation.Ending)
	}
	return nil
}

// The field names that would carry private content: truth is server-secret
// and may appear in no response, field notes are participant-only and may
// appear in no public surface.
var (
	truthKeys = []string{"truth", "secret"}
	noteKeys  = []string{"field_notes", "fieldnotes", "notes"}
)
