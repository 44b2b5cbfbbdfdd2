package cli_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/report"
	"github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/conformance/verdict"
	forge "github.com/agentgames/conformance/reference/forge/server"
	"github.com/agentgames/conformance/reference/skeleton"
)

// budgetIgnored is FORGE's reference answering the query past a
// session's budget as if it were within it.
func budgetIgnored() http.Handler {
	ref := forge.New(forge.Options{Config: skeleton.Config{Seed: 5}})
	return tamper.Wrap(ref, nil, func(r *http.Request, st *int, m map[string]any) {
		if e, ok := m["error"].(map[string]any); ok && strings.HasSuffix(r.URL.Path, "/query") && e["code"] == "QUERY_BUDGET_EXHAUSTED" {
			*st, m["output"] = http.StatusOK, 0
			delete(m, "error")
		}
	})
}

// TestAShortenedTranscriptNamesTheDifferingField runs the issue's own
// case, a budget check whose transcript is a run of identical-looking
// queries (FORGE-QUERY-BUDGET against a target that answers the query
// past the budget with 200), and reads the finding as the console and
// JUnit show it: the shortened transcript counts what it left out, names
// the case file that holds every exchange, and names the status that
// differs in the exchange that decided.
func TestAShortenedTranscriptNamesTheDifferingField(t *testing.T) {
	t.Parallel()
	p, ok := protocols.Lookup("forge")
	require.True(t, ok)
	out, err := tamper.Run(p, tamper.Case{Name: "budget ignored", Rule: "FORGE-QUERY-BUDGET", Target: budgetIgnored()})
	require.NoError(t, err)
	res := failureOf(out.Report, "FORGE-QUERY-BUDGET")
	require.Greater(t, len(res.Transcript), 12, "a long transcript:\n%s", out.Summary())
	last := len(res.Transcript)
	var summary, junit bytes.Buffer
	report.Summary(&summary, out.Report)
	require.NoError(t, report.WriteJUnit(&junit, out.Report))
	for name, text := range map[string]string{"console": summary.String(), "junit": junit.String()} {
		assert.Contains(t, text, "differing field: status: expected the query past the budget refused, observed 200 (exchange "+
			strconv.Itoa(last)+")", name)
		assert.Contains(t, text, " of "+strconv.Itoa(last)+" exchanges shown; all of them: the case file "+res.CaseFile, name)
	}
}

// failureOf is the result that failed rule, or an empty one.
func failureOf(rep *verdict.Report, rule string) verdict.Result {
	for _, r := range rep.Results {
		if r.FailedRule == rule && r.Status == verdict.Fail {
			return r
		}
	}
	return verdict.Result{}
}

// TestABaselinedFailureStillCountsAsChecked: a live run whose one failure
// the --baseline expects reports it in one KNOWN line, passes, and counts
// its MUST rule as checked: the target was judged on it.
func TestABaselinedFailureStillCountsAsChecked(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(budgetIgnored())
	defer srv.Close()
	dir := t.TempDir()
	known := filepath.Join(dir, "known.json")
	require.NoError(t, os.WriteFile(known, []byte(`{"known_failures":[{"rule":"FORGE-QUERY-BUDGET","reason":"TICKET-12"}]}`), 0o600))
	code, out, errOut := run("run", "--target", srv.URL, "--protocol", "forge", "--rule", "FORGE-QUERY-BUDGET",
		"--baseline", known, "--cases", dir)
	require.Equal(t, 0, code, "%s\n%s", out, errOut)
	assert.Contains(t, out, "KNOWN  forge  Playing the chain › the query past the budget is refused  FORGE-QUERY-BUDGET (baseline: TICKET-12)")
	assert.Contains(t, out, "forge: MUST rules checked on this target: 1/")
}
