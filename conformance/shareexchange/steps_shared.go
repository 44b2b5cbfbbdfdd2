package shareexchange

import (
	"fmt"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// sharedSteps registers the steps several feature files use.
func (w *world) sharedSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the answer refuses with (\d+) "([^"]*)"$`), w.refused)
}

func (w *world) refused(status int, code string) error {
	if w.Last.Status != status || w.body["code"] != code || w.body["ok"] != false {
		return verdict.Failf(w.rule, fmt.Sprintf("%d %s", status, code), fmt.Sprintf("%d %v", w.Last.Status, w.body["code"]), "%s", w.Last.Body)
	}
	if _, leaked := w.body["share_hex"]; leaked && w.body["kind"] != "offer" {
		return verdict.Failf(w.rule, "no share_hex in a refusal", "share_hex", "")
	}
	return nil
}
