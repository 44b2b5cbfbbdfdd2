package bounty_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/agentgames/conformance/conformance/bounty"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	rbounty "github.com/agentgames/conformance/reference/bounty"
	"github.com/agentgames/conformance/reference/bounty/server"
)

// TestBrokenWindowsAreCaughtOnTheEmbeddedClock: a window one or two
// seconds off its documented limit (the TTL, the broker's and the solve
// grace) is caught by the @long boundary probes, which the embedded run
// always runs on its adjustable clock, naming the rule.
func TestBrokenWindowsAreCaughtOnTheEmbeddedClock(t *testing.T) {
	t.Parallel()
	for _, fault := range rbounty.WindowBreakable {
		rule := rbounty.RuleOf(fault)
		t.Run(fault, func(t *testing.T) {
			p := bounty.Protocol()
			p.Properties = nil // the boundary probes alone
			p.Reference = func(cfg suite.ReferenceConfig) http.Handler {
				e := rbounty.New(cfg.Seed, cfg.Clock())
				e.Break(fault)
				return server.NewServer(e)
			}
			rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{p}, Rules: []string{rule}, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Failed(rule) {
				for _, r := range rep.Results {
					t.Logf("%s: %s %s %s", r.Name, r.Status, r.FailedRule, r.Message)
				}
				t.Fatalf("the embedded run did not catch %s", fault)
			}
			for _, r := range rep.Results {
				if r.Status == verdict.Error {
					t.Errorf("%s: harness error %s", r.Name, r.Message)
				}
			}
		})
	}
}
