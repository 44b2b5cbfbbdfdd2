package iyra

import (
	"context"
	"fmt"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// boundarySteps registers the steps that play the success thresholds at
// their edges without knowing which claim a target's records corroborate:
// the same records are played once per claim, and exactly one claim (or
// neither, below a threshold) may release the truth.
func (w *world) boundarySteps(sc *godog.ScenarioContext) {
	sc.Step(pattern(`^the agent broadcasts each claim on the same records with "([^"]*)" inspected(, after a claim change)?$`), w.broadcastEachClaim)
	sc.Step(pattern(`^exactly one of the two broadcasts releases the truth$`), w.exactlyOneReleased)
	sc.Step(pattern(`^neither broadcast releases the truth$`), w.neitherReleased)
	sc.Step(pattern(`^both broadcasts were made with evidence (\d+) and signal (\d+)$`), w.pairResources)
}

// pairRun is one session of a boundary pair: its claim and its last state
// before and after the broadcast.
type pairRun struct {
	claim  iyra.Claim
	before *sessionDoc
	after  *sessionDoc
}

// broadcastEachClaim plays the scenario's session and a second one on the
// same Archive and Spire records: both inspect sites, the first selects
// relay_fault and the second record_omission (each after selecting the other
// first when a claim change is asked for, which costs one evidence), and
// both broadcast.
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
		script := "select_claim " + string(claim)
		if change != "" {
			script = "select_claim " + string(otherClaim(claim)) + ", " + script
		}
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

// remainingSites drops the Archive and the Spire, which sessionOnRecords
// has already inspected, from a script of inspections.
func remainingSites(script string) string {
	out := ""
	for _, a := range parseScript(script) {
		if a.Type == iyra.TypeInvestigate && a.Site != string(iyra.Archive) && a.Site != string(iyra.Spire) {
			if out != "" {
				out += ", "
			}
			out += "investigate " + a.Site
		}
	}
	return out
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

// endings lists the pair's endings by claim, for failure messages.
func (w *world) endings() string {
	out := ""
	for _, p := range w.pair {
		out += fmt.Sprintf("%s: %s; ", p.claim, p.after.Observation.Ending)
	}
	return out
}

// released counts the pair's broadcasts that released the truth.
func (w *world) released() (int, error) {
	if len(w.pair) != 2 {
		return 0, verdict.Errorf("the scenario played no pair of broadcasts")
	}
	n := 0
	for _, p := range w.pair {
		if p.after.Observation.Ending == iyra.TruthReleased {
			n++
		}
	}
	return n, nil
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
