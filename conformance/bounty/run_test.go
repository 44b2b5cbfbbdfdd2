package bounty_test

import (
	"context"
	"testing"

	"github.com/agentgames/conformance/conformance/bounty"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// TestEmbeddedRunPasses runs every bounty scenario against the embedded
// reference: nothing may fail, warn, skip or error.
func TestEmbeddedRunPasses(t *testing.T) {
	t.Parallel()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{bounty.Protocol()}, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rep.Errors {
		t.Errorf("run error: %s", e)
	}
	for _, r := range rep.Results {
		if r.Status != verdict.Pass {
			t.Errorf("%s / %s: %s (%s) %s", r.Feature, r.Name, r.Status, r.FailedRule, r.Message)
			for _, w := range r.Warnings {
				t.Logf("  warning: %s", w)
			}
		}
	}
	if rep.ExitCode() != 0 {
		t.Errorf("exit code %d, want 0", rep.ExitCode())
	}
	if n := rep.Tally()["bounty"][verdict.Pass]; n < 60 {
		t.Errorf("only %d passing checks", n)
	}
}
