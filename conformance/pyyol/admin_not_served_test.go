package pyyol_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// TestAnAdminRoute404IsNotARefusal: an admin API answering 404 is not
// served, so PYYOL-STAKES-ADMIN-AUTH is unchecked, never passed.
func TestAnAdminRoute404IsNotARefusal(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(adminCheckedBy(func(string) bool { return false }, http.StatusNotFound)())
	t.Cleanup(srv.Close)
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{pyyol.Gateway()}, Target: srv.URL,
		Rules: []string{"PYYOL-STAKES-ADMIN-AUTH"}, Seed: 7, NoProperties: true, CaseDir: t.TempDir(), Settings: stakeSettings})
	if err != nil {
		t.Fatal(err)
	}
	skipped := 0
	for _, r := range rep.Results {
		if r.Status != verdict.Skip {
			t.Errorf("%s %s: %s %s; want unchecked (not served)", r.Status, r.Name, r.FailedRule, r.Message)
		}
		skipped++
	}
	if skipped == 0 {
		t.Error("no PYYOL-STAKES-ADMIN-AUTH check ran")
	}
	if rep.ExitCode() == 0 {
		t.Errorf("exit 0 on a run that checked nothing")
	}
}
