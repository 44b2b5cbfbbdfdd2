package iyra_test

import (
	"context"
	"testing"

	"github.com/agentgames/conformance/conformance/iyra"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// controlRefused names the scenario that skips on the reference because
// its control creation is refused whatever the key: the reference assigns
// an agent one version of each game, so it accepts no second version of
// the same game (IYRA-SESSION-KEY-REUSE). The another-game example is
// checked: the reference also assigns helios-relay (IYRA-REF-SECOND-GAME).
func controlRefused(name string) bool {
	return name == "reusing a key for another version creates no new session"
}

// TestEmbeddedRunPasses runs every Iyra scenario and the lockstep property
// against the embedded reference: nothing may fail, warn or error, and only
// the key-reuse examples without an acceptable control skip.
func TestEmbeddedRunPasses(t *testing.T) {
	t.Parallel()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{iyra.Protocol()}, Seed: 7, Checks: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rep.Errors {
		t.Errorf("run error: %s", e)
	}
	counts := rep.Tally()["iyra"]
	for _, r := range rep.Results {
		if r.Status == verdict.Skip && controlRefused(r.Name) {
			continue
		}
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
