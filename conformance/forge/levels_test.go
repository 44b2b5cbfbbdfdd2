package forge_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/forge"
	"github.com/agentgames/conformance/conformance/report"
	harness "github.com/agentgames/conformance/conformance/tamper"
)

// TestAReferenceRuleStoppedShortOfIsAWarningInEveryReport: the query
// budget's check fails on its MUST rule (FORGE-QUERY-BUDGET) and stops
// before its REFERENCE rule (FORGE-REF-BUDGETS). The JSON rule view and
// the HTML matrix used to show that REFERENCE rule as FAIL; it is a
// warning, while the MUST rule fails.
func TestAReferenceRuleStoppedShortOfIsAWarningInEveryReport(t *testing.T) {
	t.Parallel()
	var target *brokenCase
	for _, c := range brokenCases() {
		if c.rule == "FORGE-QUERY-BUDGET" {
			target = &c
		}
	}
	out, err := harness.Run(forge.Protocol(), harness.Case{Name: "query budget", Rule: "FORGE-QUERY-BUDGET", Target: target.target()})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Report.Failed("FORGE-QUERY-BUDGET") {
		t.Fatalf("the MUST rule should fail:\n%s", out.Summary())
	}
	var js bytes.Buffer
	if err := report.WriteJSON(&js, out.Report); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Rules map[string]struct{ Status string } `json:"rules"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Rules["FORGE-REF-BUDGETS"].Status; got != "warn" {
		t.Errorf("JSON: FORGE-REF-BUDGETS is %q, want warn", got)
	}
	if got := doc.Rules["FORGE-QUERY-BUDGET"].Status; got != "fail" {
		t.Errorf("JSON: FORGE-QUERY-BUDGET is %q, want fail", got)
	}
	var page bytes.Buffer
	if err := report.WriteHTML(&page, out.Report); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), `<tr id="rule-FORGE-REF-BUDGETS" class="rule r-warn">`) {
		t.Error("HTML: the matrix row of FORGE-REF-BUDGETS is not a warning")
	}
}
