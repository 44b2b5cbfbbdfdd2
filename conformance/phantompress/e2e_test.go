package phantompress

import (
	"context"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// summarize lists every result that did not pass, for test logs.
func summarize(rep *verdict.Report) string {
	var b strings.Builder
	for _, r := range rep.Results {
		if r.Status != verdict.Pass {
			b.WriteString(string(r.Status) + " " + r.Name + ": " + r.Message + "\n")
			for _, w := range r.Warnings {
				b.WriteString("    warning: " + w + "\n")
			}
		}
	}
	for _, e := range rep.Errors {
		b.WriteString("error: " + e + "\n")
	}
	return b.String()
}

// TestEmbeddedRunPasses runs every feature and the property machine against
// the embedded reference: the reference must satisfy its own catalogue.
func TestEmbeddedRunPasses(t *testing.T) {
	t.Parallel()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{Protocol}, Seed: 7, Checks: 10})
	if err != nil {
		t.Fatal(err)
	}
	counts := rep.Tally()["phantom-press"]
	t.Logf("results: %v", counts)
	if rep.ExitCode() != 0 || counts[verdict.Warn] > 0 || counts[verdict.Skip] > 0 {
		t.Fatalf("exit %d, %v\n%s", rep.ExitCode(), counts, summarize(rep))
	}
	if counts[verdict.Pass] < 90 {
		t.Errorf("only %d checks passed", counts[verdict.Pass])
	}
}
