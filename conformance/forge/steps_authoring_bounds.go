package forge

import (
	"context"
	"fmt"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// authoringBoundsSteps registers the steps of authoring.feature's rule on
// the safe-integer boundary of every arithmetic step.
func (w *world) authoringBoundsSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent sends, for every arithmetic step, a package reaching the safe-integer boundary and one going past it$`), w.sendSafeCases)
	sc.Step(pattern(`^each package at the boundary is refused only for its contradicting example and each past it is rejected, the chain unchanged$`), w.safeCasesJudged)
}

// safeAnswer is what the target answered one safe case.
type safeAnswer struct {
	c        safeCase
	at, past *driver.Response
}

// sendSafeCases sends the control, then each step's boundary package and
// its past-the-boundary package. Every one of them must be rejected, so
// nothing is appended by a conforming target; a target that accepts one
// breaks the rule the check names.
func (w *world) sendSafeCases(ctx context.Context) error {
	if err := w.kitDSL(ctx); err != nil {
		return err
	}
	before, err := w.chainLength(ctx)
	if err != nil {
		return err
	}
	w.Before = before
	w.Last, err = w.publish(ctx, w.me, "kit-"+randomHex(8), controlPackage())
	if err != nil {
		return err
	}
	for _, c := range safeCases() {
		a := safeAnswer{c: c}
		if a.at, err = w.publish(ctx, w.me, "kit-"+randomHex(8), c.boundaryPackage()); err != nil {
			return err
		}
		if c.overProgram.Steps != nil {
			if a.past, err = w.publish(ctx, w.me, "kit-"+randomHex(8), c.pastPackage()); err != nil {
				return err
			}
		}
		w.safe = append(w.safe, a)
	}
	return nil
}

// safeCasesJudged: each boundary package gets the control's refusal (the
// same status and code: its contradicting example, not an overflow); each
// past package is refused (FORGE-DSL-OVERFLOW-REJECTED); nothing appended.
func (w *world) safeCasesJudged(ctx context.Context) error {
	control := w.Last
	if control.Status/100 != 4 {
		return verdict.Failf("FORGE-VALID-EXAMPLES", "a contradicting example rejected", control.Status, "%s", w.env.HTTP.Secrets().Clip(control.Body))
	}
	want := fmt.Sprintf("%d %s", control.Status, code(control))
	for _, a := range w.safe {
		if got := fmt.Sprintf("%d %s", a.at.Status, code(a.at)); got != want {
			return verdict.Failf("FORGE-DSL-OVERFLOW-REJECTED", "the control's refusal, "+want+": "+a.c.reach+" is inside the range", got,
				"%s reaching %s on %v: %s", a.c.step, a.c.reach, a.c.at, w.env.HTTP.Secrets().Clip(a.at.Body))
		}
		if a.past != nil && a.past.Status/100 != 4 {
			return verdict.Failf("FORGE-DSL-OVERFLOW-REJECTED", "a package going past the safe range rejected", a.past.Status,
				"%s one step past %s on the hidden input %v: %s", a.c.step, a.c.reach, a.c.past, w.env.HTTP.Secrets().Clip(a.past.Body))
		}
	}
	return w.chainUnchanged(ctx, "FORGE-DSL-OVERFLOW-REJECTED")
}
