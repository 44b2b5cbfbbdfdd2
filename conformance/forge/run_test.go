package forge_test

import (
	"context"
	"testing"

	"github.com/agentgames/conformance/conformance/forge"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// TestEmbeddedRunPasses runs every FORGE scenario and the DSL differential
// property against the embedded reference: nothing may fail, warn or error.
func TestEmbeddedRunPasses(t *testing.T) {
	t.Parallel()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{forge.Protocol()}, Seed: 7, Checks: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rep.Errors {
		t.Errorf("run error: %s", e)
	}
	for _, r := range rep.Results {
		if r.Status != verdict.Pass {
			t.Errorf("%s / %s: %s (%s) %s", r.Feature, r.Name, r.Status, r.FailedRule, r.Message)
		}
		for _, w := range r.Warnings {
			t.Errorf("%s: warning: %s", r.Name, w)
		}
	}
	if rep.ExitCode() != 0 {
		t.Errorf("exit code %d", rep.ExitCode())
	}
	if n := rep.Tally()["forge"][verdict.Pass]; n < 30 {
		t.Errorf("only %d passing checks", n)
	}
}
