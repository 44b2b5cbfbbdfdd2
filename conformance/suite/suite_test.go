package suite_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

func runToy(t *testing.T, f fault, live bool, cfg suite.Config) *verdict.Report {
	t.Helper()
	p := toyProtocol(f)
	cfg.Protocols = []*suite.Protocol{p}
	if live {
		srv := httptest.NewServer(p.Reference(suite.ReferenceConfig{}))
		t.Cleanup(srv.Close)
		cfg.Target = srv.URL
	}
	if cfg.CaseDir == "" {
		cfg.CaseDir = t.TempDir()
	}
	if cfg.Seed == 0 {
		cfg.Seed = 42
	}
	rep, err := suite.Run(context.Background(), cfg)
	require.NoError(t, err)
	return rep
}

func statusOf(rep *verdict.Report, name string) verdict.Status {
	for _, r := range rep.Results {
		if r.Name == name {
			return r.Status
		}
	}
	return ""
}

func TestHealthyToyPassesEmbeddedAndLive(t *testing.T) {
	for _, live := range []bool{false, true} {
		rep := runToy(t, healthy, live, suite.Config{Checks: 5})
		assert.Equal(t, 0, rep.ExitCode(), "live=%v: %+v", live, rep.Results)
		assert.Equal(t, verdict.Pass, statusOf(rep, "one increment from zero"))
		assert.Equal(t, verdict.Skip, statusOf(rep, "an unsupported capability is skipped"))
		assert.Equal(t, verdict.Pass, statusOf(rep, "counter matches model"))
		assert.Len(t, rep.Results, 8)
	}
}

func TestBrokenRuleFailsWithRuleAndShrunkSequence(t *testing.T) {
	rep := runToy(t, addsTwo, true, suite.Config{Checks: 10})
	assert.Equal(t, 1, rep.ExitCode())
	assert.True(t, rep.Failed("TOY-INCR"))
	assert.Equal(t, verdict.Pass, statusOf(rep, "one increment from zero"), "one increment is still right")
	assert.Equal(t, verdict.Fail, statusOf(rep, "two increments"))
	prop := find(t, rep, "counter matches model")
	assert.Equal(t, verdict.Fail, prop.Status)
	assert.Equal(t, []string{`{"op":"incr"}`, `{"op":"incr"}`}, prop.Sequence, "rapid shrinks to the two increments that expose the fault")
	assert.NotZero(t, prop.Seed)
	assert.FileExists(t, prop.CaseFile)
	failed := find(t, rep, "two increments")
	assert.Equal(t, "3", failed.Observed)
	assert.Equal(t, "2", failed.Expected)
	assert.NotEmpty(t, failed.Transcript)
}

func TestReferenceRuleOnlyWarns(t *testing.T) {
	rep := runToy(t, noHeader, true, suite.Config{Checks: 2})
	assert.Equal(t, 0, rep.ExitCode())
	assert.Equal(t, verdict.Warn, statusOf(rep, "the header is present"))
}

func TestOpenAPIMismatchFailsNamingTheOperation(t *testing.T) {
	rep := runToy(t, stringValue, true, suite.Config{Checks: -1})
	assert.Equal(t, 1, rep.ExitCode())
	assert.True(t, rep.Failed("TOY-OPENAPI"))
	r := find(t, rep, "the header is present")
	assert.Equal(t, verdict.Fail, r.Status)
	assert.Regexp(t, `operation (reset|read|increment)Counter`, r.Expected)
}

func TestUnreachableTargetIsAnErrorNotAFail(t *testing.T) {
	srv := httptest.NewServer(nil)
	url := srv.URL
	srv.Close()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{toyProtocol(healthy)},
		Target: url, Checks: 2, CaseDir: t.TempDir()})
	require.NoError(t, err)
	assert.Equal(t, 2, rep.ExitCode())
	for _, r := range rep.Results {
		assert.NotEqual(t, verdict.Fail, r.Status, r.Name)
	}
	assert.Equal(t, verdict.Error, statusOf(rep, "one increment from zero"))
}

func TestSecretsNeverReachTheReport(t *testing.T) {
	rep := runToy(t, leaksSecret, true, suite.Config{Checks: 2})
	raw, err := json.Marshal(rep)
	require.NoError(t, err)
	assert.NotContains(t, string(raw), toySecret)
	assert.Contains(t, string(raw), "[REDACTED]")
}

func TestReplayReproducesAPropertyFailure(t *testing.T) {
	rep := runToy(t, addsTwo, true, suite.Config{Checks: 10})
	c, err := suite.LoadCase(find(t, rep, "counter matches model").CaseFile)
	require.NoError(t, err)
	for f, want := range map[fault]int{addsTwo: 1, healthy: 0} {
		p := toyProtocol(f)
		srv := httptest.NewServer(p.Reference(suite.ReferenceConfig{}))
		again, err := suite.Replay(context.Background(), suite.Config{Protocols: []*suite.Protocol{p}, Target: srv.URL}, c)
		srv.Close()
		require.NoError(t, err)
		assert.Equal(t, want, again.ExitCode(), "fault %d", f)
		assert.Len(t, again.Results, 1)
	}
}

func TestReplayReproducesAScenarioFailure(t *testing.T) {
	rep := runToy(t, addsTwo, true, suite.Config{Checks: -1})
	failed := find(t, rep, "two increments")
	c, err := suite.LoadCase(failed.CaseFile)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(c.Scenario, "toy/counter.feature:"), c.Scenario)
	require.NotEmpty(t, failed.Transcript)
	assert.Equal(t, failed.Transcript, c.Transcript, "the case file keeps the whole transcript the console shortens")
	again := runToyReplay(t, addsTwo, c)
	assert.Equal(t, 1, again.ExitCode())
	assert.Len(t, again.Results, 1)
}

func runToyReplay(t *testing.T, f fault, c *suite.Case) *verdict.Report {
	p := toyProtocol(f)
	srv := httptest.NewServer(p.Reference(suite.ReferenceConfig{}))
	defer srv.Close()
	rep, err := suite.Replay(context.Background(), suite.Config{Protocols: []*suite.Protocol{p}, Target: srv.URL}, c)
	require.NoError(t, err)
	return rep
}

func TestWriteBudgetSkipsInsteadOfFailing(t *testing.T) {
	rep := runToy(t, healthy, true, suite.Config{Checks: -1, MaxWrites: 1})
	assert.NotEqual(t, 1, rep.ExitCode())
	assert.Equal(t, verdict.Skip, statusOf(rep, "one increment from zero"))
}

func TestRuleSelectionRunsOnlyThatRule(t *testing.T) {
	rep := runToy(t, healthy, false, suite.Config{Rules: []string{"TOY-HINT"}})
	require.Len(t, rep.Results, 1)
	assert.Equal(t, "the header is present", rep.Results[0].Name)
}

func TestTagExpressionsSelectScenarios(t *testing.T) {
	for expr, want := range map[string]int{
		"@TOY-INCR":                        4,
		"@toy and not @TOY-INCR":           3,
		"@TOY-INCR or @TOY-HINT":           5,
		"@TOY-INCR,@TOY-HINT":              5, // godog's legacy syntax
		"@toy && ~@TOY-INCR && ~@TOY-HINT": 2,
	} {
		rep := runToy(t, healthy, false, suite.Config{Tags: expr, Checks: -1})
		assert.Len(t, rep.Results, want, expr)
	}
}

func TestBadTagExpressionIsAConfigError(t *testing.T) {
	_, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{toyProtocol(healthy)}, Tags: "@a and ("})
	assert.Error(t, err)
}

func find(t *testing.T, rep *verdict.Report, name string) verdict.Result {
	t.Helper()
	for _, r := range rep.Results {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no result named %q in %d results", name, len(rep.Results))
	return verdict.Result{}
}

// liveToy serves a toy server the test keeps a handle on.
func liveToy(t *testing.T, f fault) (*toyServer, string) {
	srv := &toyServer{fault: f}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return srv, hs.URL
}

func TestShrinkingALiveTargetIsBounded(t *testing.T) {
	srv, url := liveToy(t, addsTwo)
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{toyProtocol(addsTwo)},
		Target: url, Checks: 5, Seed: 3, Tags: "@property", CaseDir: t.TempDir()})
	require.NoError(t, err)
	prop := find(t, rep, "counter matches model")
	assert.Equal(t, verdict.Fail, prop.Status)
	assert.LessOrEqual(t, srv.resets, 5+30, "checks plus the live shrink budget")
	assert.NotEmpty(t, prop.Sequence)
}

func TestAQuotaStopsThePropertyWithoutHammering(t *testing.T) {
	srv, url := liveToy(t, quotaAfter20)
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{toyProtocol(healthy)},
		Target: url, Checks: 50, Seed: 3, Tags: "@property", CaseDir: t.TempDir()})
	require.NoError(t, err)
	prop := find(t, rep, "counter matches model")
	assert.Equal(t, verdict.Error, prop.Status, "an exhausted quota is an error, not a fail")
	assert.Equal(t, 2, rep.ExitCode())
	assert.Less(t, srv.requests, 40, "after the first 429 the property stops touching the target")
}

func TestReplayRunsOnlyTheFailingOutlineRow(t *testing.T) {
	rep := runToy(t, addsTwo, true, suite.Config{Checks: -1})
	var failing []verdict.Result
	for _, r := range rep.Results {
		if r.Name == "repeated increments" {
			failing = append(failing, r)
		}
	}
	require.Len(t, failing, 2)
	assert.Equal(t, verdict.Pass, failing[0].Status, "one increment is right even when broken")
	require.Equal(t, verdict.Fail, failing[1].Status)
	c, err := suite.LoadCase(failing[1].CaseFile)
	require.NoError(t, err)
	assert.Equal(t, "toy/counter.feature:27", c.Scenario, "the example row's own line")
	again := runToyReplay(t, addsTwo, c)
	require.Len(t, again.Results, 1)
	assert.Equal(t, verdict.Fail, again.Results[0].Status)
}

func TestABudgetRunningOutWhileShrinkingKeepsTheFailure(t *testing.T) {
	// A tight write budget ends the shrinking with skips; the broken rule
	// found before must still be the verdict.
	_, url := liveToy(t, addsTwo)
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{toyProtocol(addsTwo)},
		Target: url, Checks: 5, Seed: 3, Tags: "@property", MaxWrites: 40, CaseDir: t.TempDir()})
	require.NoError(t, err)
	prop := find(t, rep, "counter matches model")
	assert.Equal(t, verdict.Fail, prop.Status, prop.Message)
	assert.Equal(t, "TOY-INCR", prop.FailedRule)
}

func TestPropertyFindingsDecideAPassingProperty(t *testing.T) {
	rep := runToy(t, resetAccepted, true, suite.Config{Checks: 3, Tags: "@property"})
	prop := find(t, rep, "counter matches model")
	assert.Equal(t, verdict.Fail, prop.Status, "the machine agreed, but a response broke the OpenAPI document")
	assert.Equal(t, "TOY-OPENAPI", prop.FailedRule)
	assert.Contains(t, prop.Expected, "resetCounter")
}

func TestAKeyQuotedInAFailureIsRedacted(t *testing.T) {
	rep := runToy(t, issuesKeyAddsTwo, true, suite.Config{Checks: -1})
	require.Equal(t, 1, rep.ExitCode())
	r := find(t, rep, "two increments")
	assert.Contains(t, r.Message, "target said")
	raw, err := json.Marshal(rep)
	require.NoError(t, err)
	assert.NotContains(t, string(raw), "toy_issued_key_0123456789")
	c, err := os.ReadFile(r.CaseFile)
	require.NoError(t, err)
	assert.NotContains(t, string(c), "toy_issued_key_0123456789")
}

func TestLiveRunsCheckEveryRuleOnceBeforeTheRest(t *testing.T) {
	// Four writes: enough for one scenario of each rule, not for all. File
	// order would spend them on TOY-INCR's examples and never reach the
	// header rule (a REFERENCE rule, so it comes after the MUST rules).
	rep := runToy(t, healthy, true, suite.Config{Checks: -1, MaxWrites: 4})
	assert.Equal(t, verdict.Pass, statusOf(rep, "one increment from zero"))
	assert.Equal(t, verdict.Pass, statusOf(rep, "the header is present"))
	assert.Equal(t, verdict.Skip, statusOf(rep, "two increments"), "the budget ran out in the second pass")
	names := []string{}
	for _, r := range rep.Results[:4] {
		names = append(names, r.Name)
	}
	assert.Equal(t, []string{"one increment from zero", "an unsupported capability is skipped",
		"the counter still reads zero after the window", "the header is present"}, names,
		"one scenario per MUST rule, then one per remaining rule, then the rest")
}

// TestLongScenariosRunLiveOnlyWithLong: a @long scenario waits out a
// documented window in real time, so a default live run skips it with the
// flag that would run it, its plan counts it, and --long runs it; the
// embedded run always runs it (its clock can be moved).
func TestLongScenariosRunLiveOnlyWithLong(t *testing.T) {
	const name = "the counter still reads zero after the window"
	var plan strings.Builder
	rep := runToy(t, healthy, true, suite.Config{Checks: -1, Plan: &plan})
	r := find(t, rep, name)
	assert.Equal(t, verdict.Skip, r.Status)
	assert.Contains(t, r.Message, "run with --long")
	assert.Contains(t, plan.String(), "1 wait out a documented window in real time and skip without --long")
	assert.Contains(t, plan.String(), "TOY-WINDOW: waits out a documented window")
	assert.Equal(t, verdict.Pass, statusOf(runToy(t, healthy, true, suite.Config{Checks: -1, Long: true}), name))
	assert.Equal(t, verdict.Pass, statusOf(runToy(t, healthy, false, suite.Config{Checks: -1}), name))
}

func TestReplayRefusesWhatItCannotReproduce(t *testing.T) {
	p := toyProtocol(healthy)
	cfg := suite.Config{Protocols: []*suite.Protocol{p}}
	_, err := suite.Replay(context.Background(), cfg, &suite.Case{Version: 1, Protocol: "toy", Kind: "property",
		Name: "counter matches model", Property: "counter matches model"})
	assert.ErrorContains(t, err, "no action sequence to replay")
	_, err = suite.Replay(context.Background(), cfg, &suite.Case{Version: 1, Protocol: "toy", Kind: "scenario",
		Name: "gone", Scenario: "toy/counter.feature:999"})
	assert.ErrorContains(t, err, "not in the features any more")
}

func TestTargetCredentialsInTheURLAreRefused(t *testing.T) {
	_, err := suite.ResolveBase("https://user:hunter2@example.com", "/api")
	assert.ErrorContains(t, err, "credentials")
	assert.NotContains(t, err.Error(), "hunter2")
}

func TestRuleWithAnAtSignSelectsThePropertyToo(t *testing.T) {
	rep := runToy(t, healthy, false, suite.Config{Rules: []string{"@TOY-INCR"}, Checks: 2})
	find(t, rep, "counter matches model")
	rep = runToy(t, healthy, false, suite.Config{Rules: []string{"TOY-INCR"}, Tags: "not @property", Checks: 2})
	for _, r := range rep.Results {
		assert.NotEqual(t, "property", r.Kind, "--tags applies to properties under --rule too")
	}
}

// TestAReachabilityPreflightAsksOnlyForAnAnswer: a protocol whose contract
// documents no public read probes reachability only, so a target answering
// 404 there is still checked, and a down target is one harness error.
func TestAReachabilityPreflightAsksOnlyForAnAnswer(t *testing.T) {
	p := toyProtocol(healthy)
	p.Preflight, p.PreflightReachOnly = "/no-such-read", true
	_, url := liveToy(t, healthy)
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{p},
		Target: url, Checks: 2, Seed: 3, CaseDir: t.TempDir()})
	require.NoError(t, err)
	assert.Empty(t, rep.NotProtocol)
	assert.Empty(t, rep.Errors)
	assert.Equal(t, 0, rep.ExitCode())

	srv := httptest.NewServer(nil)
	down := srv.URL
	srv.Close()
	rep, err = suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{p},
		Target: down, Checks: 2, Seed: 3, CaseDir: t.TempDir()})
	require.NoError(t, err)
	assert.Len(t, rep.Errors, 1)
	assert.Empty(t, rep.Results)
	assert.Equal(t, 2, rep.ExitCode())
}
