package tamper

import (
	"context"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// Faithful runs cfg against a faithful target (one that takes choices
// the contract leaves open another way than the reference) and holds it to
// what faithfulness means: no check fails or errs, and at least
// minDecided checks decide (pass or warn), so the target was judged, not
// skipped. It returns the report for further assertions.
func Faithful(t *testing.T, cfg suite.Config, minDecided int) *verdict.Report {
	t.Helper()
	if cfg.CaseDir == "" {
		cfg.CaseDir = t.TempDir()
	}
	rep, err := suite.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.NotProtocol) > 0 || len(rep.Errors) > 0 {
		t.Fatalf("the faithful target was not checked: wrong target %v, errors %v", rep.NotProtocol, rep.Errors)
	}
	decided := 0
	for _, r := range rep.Results {
		if r.Status == verdict.Fail || r.Status == verdict.Error {
			t.Errorf("%s: %s %s %s", r.Name, r.Status, r.FailedRule, clip(r.Message))
		}
		if r.Status == verdict.Pass || r.Status == verdict.Warn {
			decided++
		}
	}
	if decided < minDecided {
		t.Errorf("only %d of %d checks decided: the faithful target was hardly judged", decided, len(rep.Results))
	}
	return rep
}

// clip shortens a long failure message for a test log.
func clip(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}
