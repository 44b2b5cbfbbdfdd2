package phantompress_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/agentgames/conformance/conformance/phantompress"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	pp "github.com/agentgames/conformance/reference/phantompress/server"
	"github.com/agentgames/conformance/reference/skeleton"
)

// exhaustRun checks the quota rules on a live target with
// --exhaust-quotas.
func exhaustRun(t *testing.T, limits pp.Limits) *verdict.Report {
	t.Helper()
	srv := httptest.NewServer(pp.New(skeleton.Config{Seed: 3}, pp.WithLimits(limits)))
	t.Cleanup(srv.Close)
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{phantompress.Protocol},
		Target: srv.URL, Seed: 3, NoProperties: true, ExhaustQuotas: true, CaseDir: t.TempDir(),
		Rules: []string{"PP-QUOTA-WRITES-AGENT", "PP-QUOTA-RUNS", "PP-QUOTA-429", "PP-STATUS-NOT-WRITE"}})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// ruleStatus folds every result's verdict on rule.
func ruleStatus(rep *verdict.Report, rule string) verdict.Status {
	return rep.Decided()[rule]
}

// A faithful live target passes the exhausted quotas, and the quota rules
// are checked (not skipped).
func TestExhaustQuotasPassOnTheReference(t *testing.T) {
	t.Parallel()
	rep := exhaustRun(t, pp.DefaultLimits)
	for _, rule := range []string{"PP-QUOTA-WRITES-AGENT", "PP-QUOTA-RUNS", "PP-QUOTA-429", "PP-STATUS-NOT-WRITE"} {
		if got := ruleStatus(rep, rule); got != verdict.Pass {
			t.Errorf("%s: %q, want pass", rule, got)
		}
	}
}
