package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/verdict"
)

func staleReport(shard string) *verdict.Report {
	rep := blockedReport()
	rep.Results[0].Status, rep.Results[0].FailedRule = verdict.Pass, ""
	rep.Stale = []verdict.BaselineEntry{{Rule: "TOY-X", Reason: "TICKET-9"}}
	rep.Shard = shard
	return rep
}

// TestStaleEntriesShowInEveryFormat: a stale baseline entry fails the run,
// so every format names it; a shard's provisional ones fail nothing.
func TestStaleEntriesShowInEveryFormat(t *testing.T) {
	rep := staleReport("")
	var junit, sum, html, js bytes.Buffer
	for _, err := range []error{WriteJUnit(&junit, rep), WriteHTML(&html, rep), WriteJSON(&js, rep)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	Summary(&sum, rep)
	want := "rule TOY-X is listed as a known failure (TICKET-9) but no longer fails"
	for name, out := range map[string]string{"junit": junit.String(), "summary": sum.String(), "html": html.String()} {
		if !strings.Contains(out, want) {
			t.Errorf("%s lacks the stale entry:\n%s", name, out)
		}
	}
	if !strings.Contains(junit.String(), `type="stale-baseline"`) || !strings.Contains(sum.String(), "RESULT: STALE BASELINE (exit 1: 1 entry no longer fails) — 0 failed") {
		t.Errorf("a stale entry must fail the run in JUnit and the summary")
	}
	if !strings.Contains(html.String(), `<span id="verdict" class="verdict s-fail">STALE BASELINE</span>`) {
		t.Errorf("the HTML page's verdict names the stale baseline")
	}
	if !strings.Contains(js.String(), `"stale"`) {
		t.Error("JSON lacks the stale list")
	}
	read, err := ReadJSON(&js)
	if err != nil || len(read.Stale) != 1 || read.ExitCode() != 1 {
		t.Errorf("JSON round trip lost the stale entry: %v %+v", err, read)
	}

	shard := staleReport("1/2")
	junit.Reset()
	sum.Reset()
	if err := WriteJUnit(&junit, shard); err != nil {
		t.Fatal(err)
	}
	Summary(&sum, shard)
	if strings.Contains(junit.String(), "stale-baseline") || !strings.Contains(sum.String(), "conformance merge decides") ||
		!strings.Contains(sum.String(), "RESULT: PASS") {
		t.Errorf("a shard's stale entry is provisional:\n%s\n%s", junit.String(), sum.String())
	}
}
