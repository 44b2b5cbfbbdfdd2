package phantompress

import (
	"fmt"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// clientFieldSteps registers the steps of cases.feature that check the
// fields the seed's client reads, and the AP spending that leaves a
// document unread.
func clientFieldSteps(sc *godog.ScenarioContext, w *world) {
	sc.Step(pattern(`^the agent (?:has spent|spends) its AP with a document still unread$`), w.spendAPKeepingUnread)
	sc.Step(pattern(`^the answer carries ok, turn, narrative, state, events and available_actions$`), w.actionResponseFields)
	sc.Step(pattern(`^the state carries case_no, turn, trust, ap and the status "([^"]*)"$`), w.stateClientFields)
}

// actionResponseFields checks that an action's answer carries the fields
// the seed's client reads (PP-ACTION-RESPONSE).
func (w *world) actionResponseFields() error {
	for _, k := range []string{"ok", "turn", "narrative", "state", "events", "available_actions"} {
		if !hasKey(w.Body(), k) {
			return verdict.Failf("PP-ACTION-RESPONSE", "ok, turn, narrative, state, events, available_actions", clip(w.Body()), "no %q", k)
		}
	}
	return nil
}

// stateClientFields checks that the state carries the fields the seed's
// client reads, at case 1 with the initial trust and the given status
// (PP-STATE-CLIENT-FIELDS).
func (w *world) stateClientFields(status string) error {
	has := stateKeys(w.Body())
	for _, k := range []string{"case_no", "turn", "trust", "ap", "status"} {
		if !has[k] {
			return verdict.Failf("PP-STATE-CLIENT-FIELDS", "state.case_no, turn, trust, ap, status", clip(w.Body()), "no state.%s", k)
		}
	}
	if s := w.last.State; s.Status != status || s.CaseNo != 1 || s.Trust != engine.TrustInit {
		return verdict.Failf("PP-STATE-CLIENT-FIELDS", fmt.Sprintf("case 1, trust 100, status %q", status), fmt.Sprintf("case %d, trust %d, status %q", s.CaseNo, s.Trust, s.Status), "")
	}
	return nil
}
