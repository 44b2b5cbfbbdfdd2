package iyra

import (
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// claimsSteps registers the steps of features/iyra/claims.feature.
func (w *world) claimsSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the selected claim is "([^"]*)"$`), w.selectedClaim)
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
