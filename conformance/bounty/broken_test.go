package bounty_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/bounty"
	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/conformance/verdict"
	rbounty "github.com/agentgames/conformance/reference/bounty"
	"github.com/agentgames/conformance/reference/bounty/server"
	"github.com/agentgames/conformance/spec"
)

// fastClock runs with real time, as a live target's does, and moves step
// more on every reading, so that a live run (which cannot move the
// target's clock) still sees listings outlive their TTL.
type fastClock struct {
	mu    sync.Mutex
	now   time.Time
	step  time.Duration
	start time.Time
}

func (c *fastClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(c.step)
	return c.now.Add(time.Since(c.start))
}

// brokenTarget serves a reference platform that violates rule, on
// loopback, and returns its base URL.
func brokenTarget(t *testing.T, rule string) string {
	clock := &fastClock{now: time.Unix(1_800_000_000, 0), start: time.Now()}
	if rule == "BOUNTY-PEERS-TTL" {
		clock.step = 400 * time.Second
	}
	e := rbounty.New(3, clock.Now)
	e.Break(rule)
	srv := httptest.NewServer(server.NewServer(e))
	t.Cleanup(srv.Close)
	return srv.URL + server.BasePath
}

// TestBrokenPlatformsAreCaughtNamingTheRule runs the live runner (over
// loopback, as `conformance run --target` does) against one broken
// platform per MUST rule: each must fail, naming that rule.
func TestBrokenPlatformsAreCaughtNamingTheRule(t *testing.T) {
	t.Parallel()
	for _, fault := range rbounty.Breakable {
		rule := rbounty.RuleOf(fault) // a variant RULE#how breaks RULE another way
		t.Run(fault, func(t *testing.T) {
			rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{bounty.Protocol()},
				Target: brokenTarget(t, fault), Rules: []string{rule}, Seed: 11, Checks: 3, CaseDir: t.TempDir()}.StoppingAt(rule))
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Failed(rule) {
				for _, r := range rep.Results {
					t.Logf("%s: %s %s %s", r.Name, r.Status, r.FailedRule, r.Message)
				}
				t.Fatalf("the runner did not catch a platform breaking %s (%s)", rule, fault)
			}
			if rep.ExitCode() != 1 {
				t.Errorf("exit code %d, want 1", rep.ExitCode())
			}
			for _, r := range rep.Results {
				if r.Status == verdict.Error {
					t.Errorf("%s: harness error %s", r.Name, r.Message)
				}
			}
		})
	}
}

// untampered are the MUST rules without a tamper test, with the reason.
var untampered = map[string]string{}

// embeddedTampered are the MUST rules only the embedded reference's
// controls reach (a @control scenario: no client can end a season), each
// broken in the embedded reference by TestBrokenControlRulesAreCaught.
var embeddedTampered = []string{"BOUNTY-SEASONS"}

// TestBrokenControlRulesAreCaught runs the embedded run with a broken
// reference for each rule of embeddedTampered: each must fail, naming
// that rule; against a live target the same check skips (the control is
// not there), so the live tamper table cannot hold it.
func TestBrokenControlRulesAreCaught(t *testing.T) {
	t.Parallel()
	for _, rule := range embeddedTampered {
		t.Run(rule, func(t *testing.T) {
			c := harness.Case{Name: "the platform breaks " + rule, Rule: rule, Reference: func(cfg suite.ReferenceConfig) http.Handler {
				e := rbounty.New(cfg.Seed, cfg.Clock())
				e.Break(rule)
				return server.NewServer(e)
			}}
			if err := harness.Check(bounty.Protocol(), c); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestASeasonRuleSkipsLive: against a live target no client can end a
// season, so BOUNTY-SEASONS skips with the control's reason, never fails.
func TestASeasonRuleSkipsLive(t *testing.T) {
	t.Parallel()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{bounty.Protocol()},
		Target: brokenTarget(t, "BOUNTY-SEASONS"), Rules: []string{"BOUNTY-SEASONS"}, Seed: 11, NoProperties: true, CaseDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Status != verdict.Skip {
		t.Fatalf("want one skipped check, got %+v", rep.Results)
	}
	if !strings.Contains(rep.Results[0].Message, "controls") {
		t.Errorf("the skip does not say it needs the reference's controls: %s", rep.Results[0].Message)
	}
}

// TestEveryMustRuleHasATamperTest lists the MUST rules no broken platform
// exercises.
func TestEveryMustRuleHasATamperTest(t *testing.T) {
	t.Parallel()
	cat, err := spec.Load("bounty")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range cat.Rules {
		if r.Level != spec.Must || r.ForAgents() {
			continue // an agent's duty is audited by serve --audit, never a platform's
		}
		if !slices.Contains(rbounty.Breakable, r.ID) && !slices.Contains(embeddedTampered, r.ID) && untampered[r.ID] == "" { // a variant alone does not count
			t.Errorf("%s is a MUST rule without a tamper test", r.ID)
		}
	}
	tampered := map[string]bool{}
	for _, id := range append(slices.Clone(rbounty.Breakable), embeddedTampered...) {
		tampered[rbounty.RuleOf(id)] = true
	}
	harness.Record(t, "bounty", tampered, untampered)
}

// TestLiveRunAgainstTheReferencePasses is the control: the same live run
// against an unbroken platform passes, skipping only the @control checks.
func TestLiveRunAgainstTheReferencePasses(t *testing.T) {
	t.Parallel()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{bounty.Protocol()},
		Target: brokenTarget(t, "none"), Seed: 11, Checks: 5, CaseDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Status != verdict.Pass && r.Status != verdict.Skip {
			t.Errorf("%s: %s %s %s", r.Name, r.Status, r.FailedRule, r.Message)
		}
	}
	if rep.ExitCode() != 0 {
		t.Errorf("exit code %d, want 0", rep.ExitCode())
	}
}

// TestTheSameChecksRunOverMCP: the control run and a few broken platforms
// again, with every call the MCP tools cover played through them.
func TestTheSameChecksRunOverMCP(t *testing.T) {
	t.Parallel()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{bounty.OverMCP()},
		Target: brokenTarget(t, "none"), Seed: 12, Checks: 5, CaseDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Status != verdict.Pass && r.Status != verdict.Skip {
			t.Errorf("%s: %s %s %s", r.Name, r.Status, r.FailedRule, r.Message)
		}
	}
	for _, rule := range []string{"BOUNTY-COMBINE-AGENTS", "BOUNTY-CREDIT", "BOUNTY-NEXT-MOVE", "BOUNTY-STALE-410", "BOUNTY-MCP-GET", "BOUNTY-NO-SECRETS", "BOUNTY-METRICS-COUNTS"} {
		rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{bounty.OverMCP()},
			Target: brokenTarget(t, rule), Rules: []string{rule}, Seed: 11, Checks: 3, CaseDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Failed(rule) {
			t.Errorf("over MCP, the runner did not catch a platform breaking %s", rule)
		}
	}
}
