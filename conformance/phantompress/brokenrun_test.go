package phantompress

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/conformance/verdict"
)

// failedRules runs the checks of rules against h over HTTP, through the
// shared broken-target harness, and returns the rules its failures were
// blamed on. With no rules it runs the whole suite, for tests that prove
// no other rule is blamed.
func failedRules(t *testing.T, h http.Handler, rules ...string) (int, map[string]int) {
	t.Helper()
	var rep *verdict.Report
	if len(rules) == 0 {
		rep = fullRun(t, h)
	} else {
		out, err := harness.Run(Protocol, harness.Case{Name: strings.Join(rules, ","), Rule: rules[0], Rules: rules, Target: h})
		if err != nil {
			t.Fatal(err)
		}
		rep = out.Report
	}
	got := map[string]int{}
	for _, r := range rep.Results {
		if r.Status == verdict.Fail {
			got[r.FailedRule]++
		}
	}
	return rep.ExitCode(), got
}

// fullRun runs every scenario (no properties) against h over HTTP.
func fullRun(t *testing.T, h http.Handler) *verdict.Report {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{Protocol}, Target: srv.URL, Seed: 11, Checks: -1})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
