package suite_test

import (
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// TestFailFastSkipsEveryCheckAfterTheFirstFailure: with FailFast, the
// checks after the first failure are skipped saying why, and the run
// still exits 1; without it they all run.
func TestFailFastSkipsEveryCheckAfterTheFirstFailure(t *testing.T) {
	t.Parallel()
	full := runToy(t, addsTwo, false, suite.Config{Seed: 1})
	fast := runToy(t, addsTwo, false, suite.Config{Seed: 1, FailFast: true})
	first := firstFailure(full)
	if first < 0 || first == len(full.Results)-1 {
		t.Fatalf("the toy run needs a failure before its last check: %v", statuses(full))
	}
	if fast.ExitCode() != 1 {
		t.Errorf("exit %d under FailFast, want 1", fast.ExitCode())
	}
	for i, r := range fast.Results {
		switch {
		case i <= first && r.Status != full.Results[i].Status:
			t.Errorf("%s: %s under FailFast, %s without", r.Name, r.Status, full.Results[i].Status)
		case i > first && (r.Status != verdict.Skip || !strings.Contains(r.Message, "--fail-fast")):
			t.Errorf("%s after the first failure: %s %q, want skipped naming --fail-fast", r.Name, r.Status, r.Message)
		}
	}
}

// TestFailFastGoesOnPastAFailureThatDoesNotStopIt: StopsRun decides
// which failures stop the run (a baselined one, a tamper table's other
// rules, do not).
func TestFailFastGoesOnPastAFailureThatDoesNotStopIt(t *testing.T) {
	t.Parallel()
	rep := runToy(t, addsTwo, false, suite.Config{Seed: 1, FailFast: true, StopsRun: func(verdict.Result) bool { return false }})
	for _, r := range rep.Results {
		if strings.Contains(r.Message, "--fail-fast") {
			t.Errorf("%s stopped by a failure StopsRun lets pass", r.Name)
		}
	}
}

func firstFailure(rep *verdict.Report) int {
	for i, r := range rep.Results {
		if r.Status == verdict.Fail {
			return i
		}
	}
	return -1
}

func statuses(rep *verdict.Report) []string {
	var out []string
	for _, r := range rep.Results {
		out = append(out, r.Name+"="+string(r.Status))
	}
	return out
}
