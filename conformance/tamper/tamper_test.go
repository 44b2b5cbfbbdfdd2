package tamper_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/iyra"
	"github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/reference/iyra/server"
)

// scoreZero reports a score of 0 in every session answer: IYRA-SCORE.
func scoreZero() http.Handler {
	return tamper.Responses(server.New(server.Options{Seed: 3}), func(_ *http.Request, _ *int, m map[string]any) {
		if _, ok := m["observation"]; ok {
			m["score"] = 0
		}
	})
}

func TestBrokenTargetFailsNamingItsRule(t *testing.T) {
	c := tamper.Case{Name: "score always zero", Rule: "IYRA-SCORE", Target: scoreZero()}
	out, err := tamper.Run(iyra.Protocol(), c)
	if err != nil {
		t.Fatal(err)
	}
	if out.Report.ExitCode() != 1 || !out.Report.Failed("IYRA-SCORE") {
		t.Fatalf("exit %d, failed %v\n%s", out.Report.ExitCode(), out.Failed(), out.Summary())
	}
	for _, r := range out.Report.Results {
		if !containsRule(r.Rules, "IYRA-SCORE") {
			t.Errorf("%s ran, but it does not check IYRA-SCORE: each tamper runs only its rules", r.Name)
		}
	}
	if err := tamper.Check(iyra.Protocol(), c); err != nil {
		t.Error(err)
	}
}

func TestHealthyTargetIsNotAPassingTamper(t *testing.T) {
	c := tamper.Case{Name: "healthy", Rule: "IYRA-SCORE", Target: server.New(server.Options{Seed: 3})}
	err := tamper.Check(iyra.Protocol(), c)
	if err == nil || !strings.Contains(err.Error(), "want exit 1 with IYRA-SCORE failed") {
		t.Fatalf("Check = %v; a target that breaks nothing must not count as caught", err)
	}
}

func TestCaseWithoutATargetIsAnError(t *testing.T) {
	if _, err := tamper.Run(iyra.Protocol(), tamper.Case{Name: "empty", Rule: "IYRA-SCORE"}); err == nil {
		t.Fatal("a case with neither Target nor Reference ran")
	}
}

func containsRule(rules []string, id string) bool {
	for _, r := range rules {
		if r == id {
			return true
		}
	}
	return false
}
