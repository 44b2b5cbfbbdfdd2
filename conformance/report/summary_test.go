package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/verdict"
)

func summaryOf(r *verdict.Report) string {
	var buf bytes.Buffer
	Summary(&buf, r)
	return buf.String()
}

func TestSummaryTable(t *testing.T) {
	out := summaryOf(sampleReport())
	rows := map[string][]string{}
	for _, l := range lines(out) {
		if f := strings.Fields(l); len(f) == 8 && (f[0] == "iyra" || f[0] == "pp") {
			rows[f[0]] = f
		}
	}
	want := map[string]string{
		"iyra": "iyra 1 2 1 1 0 5 3/5",
		"pp":   "pp 3 0 0 0 1 4 2/3",
	}
	for p, w := range want {
		if got := strings.Join(rows[p], " "); got != w {
			t.Errorf("row %s = %q, want %q", p, got, w)
		}
	}
	if !strings.HasPrefix(out, "protocol  pass  fail  warn  skip  error  total  rules covered") {
		t.Errorf("table header missing:\n%s", out)
	}
}

func TestSummaryResultLine(t *testing.T) {
	got := lines(summaryOf(sampleReport()))
	want := "RESULT: FAIL (exit 1) — 2 failed, 4 passed, 1 warning, 1 skipped, 1 error"
	if last := got[len(got)-1]; last != want {
		t.Errorf("last line\n got %q\nwant %q", last, want)
	}
}

func TestSummaryFindingDetails(t *testing.T) {
	out := summaryOf(sampleReport())
	for _, want := range []string{
		"FAIL  iyra  identity proof › rejects an expired challenge " + hostile,
		"  rule:       IYRA-ID-EXPIRY (MUST) Expired challenges are rejected",
		"  expected:   401",
		"  observed:   200",
		"  message:    IYRA-ID-EXPIRY: expected 401, observed 200",
		"    1. POST http://127.0.0.1:1/api/v5/identity/prove -> 200 (2ms)",
		"       note: challenge issued 61s earlier",
		"       request:\n         {\"answer\":",
		"… (2964 more bytes)",
		"FAIL  iyra  properties › site state machine",
		"  rule:       IYRA-SITE-EFFECTS (MUST) Site effects apply",
		"  seed:       18446744073709551557",
		"  sequence:   2 actions\n    1. {\"act\":\"ally\",\"site\":1}\n    2. {\"act\":\"raid\",\"site\":1}",
		"  replay:     conformance replay /tmp/cases/iyra-0001.json",
		"ERROR  pp  session › rate limit",
		"  rule:       PP-RATE (SHOULD) Rate limit",
		"WARN  iyra  site effects › response shape",
		"  rule:       IYRA-OPENAPI (REFERENCE) Responses match the OpenAPI document",
		"PASS  pp  errors › malformed json",
		"  warning:    PP-ERRORS: error body has no code",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q", want)
		}
	}
	for _, absent := range []string{"accepts a fresh challenge", "daily reset", "key format", "ghost rule"} {
		if strings.Contains(out, absent) {
			t.Errorf("clean check %q must not be detailed", absent)
		}
	}
}

func TestSummaryCutsBodies(t *testing.T) {
	out := summaryOf(sampleReport())
	if strings.Contains(out, strings.Repeat("x", bodyLimit)) {
		t.Error("a 5000-byte body was not cut at ~2KB")
	}
	if !strings.Contains(out, strings.Repeat("x", 2000)) {
		t.Error("the first 2KB of the body are missing")
	}
}

func TestSummaryOrdersFailsErrorsWarnings(t *testing.T) {
	out := summaryOf(sampleReport())
	order := []string{"FAIL  iyra  identity proof", "FAIL  iyra  properties", "ERROR  pp", "WARN  iyra", "PASS  pp  errors"}
	last := -1
	for _, s := range order {
		i := strings.Index(out, s)
		if i <= last {
			t.Fatalf("%q at %d, after %d: findings out of order\n%s", s, i, last, out)
		}
		last = i
	}
}

func TestSummaryRunErrorsAndCleanRuns(t *testing.T) {
	broken := &verdict.Report{Errors: []string{"iyra: reference failed to start"}}
	out := summaryOf(broken)
	if !strings.Contains(out, "HARNESS ERROR: iyra: reference failed to start") {
		t.Errorf("run error not shown:\n%s", out)
	}
	if !strings.HasSuffix(out, "RESULT: ERROR (exit 2) — 0 failed, 0 passed, 0 warnings, 0 skipped, 1 error\n") {
		t.Errorf("wrong result line:\n%s", out)
	}
	warned := &verdict.Report{Results: []verdict.Result{
		{Protocol: "pp", Name: "a", Status: verdict.Pass},
		{Protocol: "pp", Name: "b", Status: verdict.Warn, FailedRule: "PP-RATE", Message: "slow"},
	}}
	if out := summaryOf(warned); !strings.HasSuffix(out, "RESULT: WARN (exit 0) — 0 failed, 1 passed, 1 warning, 0 skipped, 0 errors\n") {
		t.Errorf("wrong result line for a warned run:\n%s", out)
	}
}

// TestSummaryNeutralisesControlCharacters: a target's body with an ESC or
// NUL must not reach the terminal raw, where it could rewrite the screen.
func TestSummaryNeutralisesControlCharacters(t *testing.T) {
	r := sampleReport()
	r.Results[1].Observed = "200\x1b[2J"
	out := summaryOf(r)
	for i, c := range []byte(out) {
		if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
			t.Fatalf("raw control byte %#x at %d", c, i)
		}
	}
	for _, want := range []string{`observed:   200\x1b[2J`, `</script>\x00\x01"}`} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks escaped %q", want)
		}
	}
}
