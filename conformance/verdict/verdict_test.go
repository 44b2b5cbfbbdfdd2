package verdict_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentgames/conformance/conformance/verdict"
)

func levels(id string) verdict.Level {
	return map[string]verdict.Level{"R-MUST": verdict.Must, "R-SHOULD": verdict.Should, "R-REF": verdict.Reference}[id]
}

func TestClassify(t *testing.T) {
	cases := []struct {
		err  error
		want verdict.Status
		why  string
	}{
		{nil, verdict.Pass, "no error is a pass"},
		{verdict.Failf("R-MUST", 1, 2, ""), verdict.Fail, "a broken MUST fails"},
		{verdict.Failf("R-SHOULD", 1, 2, ""), verdict.Warn, "a broken SHOULD warns"},
		{verdict.Failf("R-REF", 1, 2, ""), verdict.Warn, "a broken reference choice only warns"},
		{fmt.Errorf("step: %w", verdict.Failf("R-MUST", 1, 2, "")), verdict.Fail, "wrapped failures are found"},
		{verdict.Skipf("no clock"), verdict.Skip, "a missing capability skips"},
		{verdict.Errorf("connection refused"), verdict.Error, "a harness problem is an error"},
		{errors.New("plain"), verdict.Error, "an untyped error cannot be a rule verdict"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, verdict.Classify(c.err, levels), c.why)
	}
}

func TestExitCodes(t *testing.T) {
	rep := func(st ...verdict.Status) *verdict.Report {
		r := &verdict.Report{}
		for _, s := range st {
			r.Results = append(r.Results, verdict.Result{Status: s})
		}
		return r
	}
	assert.Equal(t, 0, rep(verdict.Pass, verdict.Warn, verdict.Skip).ExitCode(), "warnings and skips pass")
	assert.Equal(t, 1, rep(verdict.Pass, verdict.Fail, verdict.Error).ExitCode(), "a fail outranks an error")
	assert.Equal(t, 2, rep(verdict.Pass, verdict.Error).ExitCode(), "an error without fails")
	assert.Equal(t, 2, rep(verdict.Skip, verdict.Skip).ExitCode(), "nothing tested")
	assert.Equal(t, 2, rep().ExitCode(), "no results at all")
	withErr := rep(verdict.Pass)
	withErr.Errors = []string{"protocol could not start"}
	assert.Equal(t, 2, withErr.ExitCode(), "a run-level harness error")
}

func TestRuleStatusesBlameTheFailingRuleOnly(t *testing.T) {
	stopped := verdict.Result{Rules: []string{"A", "B"}, Status: verdict.Fail, FailedRule: "C", Stopped: true}
	assert.Equal(t, map[string]verdict.Status{"A": verdict.Skip, "B": verdict.Skip, "C": verdict.Fail}, stopped.RuleStatuses(),
		"a check that stopped at C decided nothing of A and B")
	found := verdict.Result{Rules: []string{"A"}, Status: verdict.Warn, FailedRule: "OAS"}
	assert.Equal(t, map[string]verdict.Status{"A": verdict.Pass, "OAS": verdict.Warn}, found.RuleStatuses(),
		"a mismatch found in passing leaves the scenario's own rules passed")
	errored := verdict.Result{Rules: []string{"A", "B"}, Status: verdict.Error}
	assert.Equal(t, map[string]verdict.Status{"A": verdict.Error, "B": verdict.Error}, errored.RuleStatuses())
	rep := &verdict.Report{Results: []verdict.Result{stopped, {Rules: []string{"A"}, Status: verdict.Pass}}}
	assert.Equal(t, verdict.Pass, rep.RuleStatus("A"), "skip is not worse news than another check's pass")
	assert.Equal(t, verdict.Fail, rep.RuleStatus("C"))
	assert.True(t, rep.Failed("C"))
	alone := &verdict.Report{Results: []verdict.Result{stopped}}
	assert.Equal(t, verdict.Fail, alone.RuleStatus("A"),
		"a rule whose only check failed (on another rule) is not reported skip: --rule A must not read as a skip")
	skipped := &verdict.Report{Results: []verdict.Result{stopped, {Rules: []string{"B"}, Status: verdict.Skip}}}
	assert.Equal(t, verdict.Fail, skipped.RuleStatus("B"))
	assert.False(t, rep.Failed("A"))
}
