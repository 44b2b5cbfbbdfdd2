package iyra

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// endingsSteps registers the steps of features/iyra/endings.feature.
func (w *world) endingsSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent broadcasts each claim on the same records with "([^"]*)" inspected(?:, after (a claim change|two claim changes))?$`), w.broadcastEachClaim)
	sc.Step(pattern(`^exactly one of the two broadcasts releases the truth$`), w.exactlyOneReleased)
	sc.Step(pattern(`^neither broadcast releases the truth$`), w.neitherReleased)
	sc.Step(pattern(`^both broadcasts were made with evidence (\d+) and signal (\d+)$`), w.pairResources)
	sc.Step(pattern(`^legal_actions is empty$`), w.legalEmpty)
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

// broadcastEachClaim plays the scenario's session and a second one on the
// same Archive and Spire records: both inspect sites, the first selects
// relay_fault and the second record_omission (each after selecting the other
// first when a claim change is asked for, which costs one evidence; after
// selecting it, then the other, when two are, which cost two, so a success
// gate reading the evidence gathered rather than the evidence left is seen:
// IYRA-ENDING-UNVERIFIED), and both broadcast.
func (w *world) broadcastEachClaim(ctx context.Context, sites, change string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	first, err := w.playScript(ctx, w.sess, sites)
	if err != nil {
		return err
	}
	second, err := w.sessionOnRecords(ctx, first)
	if err != nil {
		return err
	}
	if second, err = w.playScript(ctx, second, remainingSites(sites)); err != nil {
		return err
	}
	w.pair = nil
	for i, s := range []*sessionDoc{first, second} {
		claim := []iyra.Claim{iyra.RelayFault, iyra.RecordOmission}[i]
		script := changedInto(claim, change)
		before, err := w.playScript(ctx, s, script)
		if err != nil {
			return err
		}
		after, err := w.playScript(ctx, before, "broadcast")
		if err != nil {
			return err
		}
		w.pair = append(w.pair, pairRun{claim: claim, before: before, after: after})
	}
	w.sess = w.pair[0].after
	return nil
}

// changedInto is the script that selects claim last after the claim
// changes change asks for: none (""), "a claim change" or "two claim
// changes" (claim, the other, claim again: IYRA-CLAIM-SAME compares with the
// current claim only).
func changedInto(claim iyra.Claim, change string) string {
	c, o := "select_claim "+string(claim), "select_claim "+string(otherClaim(claim))
	switch change {
	case "a claim change":
		return o + ", " + c
	case "two claim changes":
		return c + ", " + o + ", " + c
	}
	return c
}

// pairResources checks both sessions broadcast with the given evidence and
// signal, so the pair plays the threshold it means to (the sites' effects,
// IYRA-SITE-EFFECTS, and the change's cost, IYRA-CLAIM-CHANGE, fix them).
func (w *world) pairResources(evidence, signal int) error {
	for _, p := range w.pair {
		o := p.before.Observation
		if o.Evidence != evidence || o.Signal != signal {
			return verdict.Failf("IYRA-SITE-EFFECTS", fmt.Sprintf("evidence %d, signal %d", evidence, signal),
				fmt.Sprintf("evidence %d, signal %d", o.Evidence, o.Signal), "before broadcasting %s", p.claim)
		}
	}
	return nil
}

// exactlyOneReleased requires one claim, and only one, to release the
// truth on records both sites were inspected for, at the thresholds
// (IYRA-ENDING-SUCCESS): the records corroborate one of the two claims.
func (w *world) exactlyOneReleased() error {
	n, err := w.released()
	if err != nil {
		return err
	}
	if n != 1 {
		return verdict.Failf("IYRA-ENDING-SUCCESS", "one of the two claims released the truth", w.endings(),
			"evidence %d, signal %d", w.pair[0].before.Observation.Evidence, w.pair[0].before.Observation.Signal)
	}
	return nil
}

// neitherReleased requires no claim to release the truth below a threshold
// (IYRA-ENDING-UNVERIFIED).
func (w *world) neitherReleased() error {
	n, err := w.released()
	if err != nil {
		return err
	}
	if n != 0 {
		return verdict.Failf("IYRA-ENDING-UNVERIFIED", "no claim released the truth", w.endings(),
			"evidence %d, signal %d", w.pair[0].before.Observation.Evidence, w.pair[0].before.Observation.Signal)
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

// timeLimitPassed moves the embedded reference's clock past the contract's
// max_duration_seconds (IYRA-DURATION-LIMIT).
func (w *world) timeLimitPassed() error {
	if w.env.Clock == nil {
		return verdict.Skipf("needs the embedded reference's clock to pass max_duration_seconds")
	}
	w.env.Clock.Advance(181 * time.Second)
	return nil
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
