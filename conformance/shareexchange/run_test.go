package shareexchange_test

import (
	"context"
	"testing"

	"github.com/agentgames/conformance/conformance/shareexchange"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

func TestEmbeddedRunPasses(t *testing.T) {
	t.Parallel()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{shareexchange.Protocol()}, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Status != verdict.Pass {
			t.Errorf("%s / %s: %s (%s) %s", r.Feature, r.Name, r.Status, r.FailedRule, r.Message)
		}
	}
	if rep.ExitCode() != 0 {
		t.Errorf("exit code %d", rep.ExitCode())
	}
}
