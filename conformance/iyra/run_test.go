package iyra_test

import (
	"context"
	"testing"

	"github.com/agentgames/conformance/conformance/iyra"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// TestEmbeddedRunPasses runs every Iyra scenario and the lockstep property
// against the embedded reference: nothing may fail, warn or error.
func TestEmbeddedRunPasses(t *testing.T) {
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{iyra.Protocol()}, Seed: 7, Checks: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rep.Errors {
		t.Errorf("run error: %s", e)
	}
	counts := rep.Tally()["iyra"]
	for _, r := range rep.Results {
		if r.Status != verdict.Pass {
			t.Errorf("%s / %s: %s (%s) %s", r.Feature, r.Name, r.Status, r.FailedRule, r.Message)
			for _, w := range r.Warnings {
				t.Logf("  warning: %s", w)
			}
		}
	}
	if rep.ExitCode() != 0 {
		t.Errorf("exit code %d, want 0 (counts %v)", rep.ExitCode(), counts)
	}
	if counts[verdict.Pass] < 80 {
		t.Errorf("only %d passing checks (%v)", counts[verdict.Pass], counts)
	}
}
