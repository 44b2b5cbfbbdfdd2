package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/verdict"
)

// spendingTranscript is a budget check's evidence: a registration, 25
// identical writes and the one answer that decides.
func spendingTranscript() []verdict.Exchange {
	ex := []verdict.Exchange{{Method: "POST", URL: "http://t/register", Status: 201, RespBody: `{"id":"a1"}`}}
	for i := 0; i < 25; i++ {
		ex = append(ex, verdict.Exchange{Method: "POST", URL: "http://t/act", Status: 200, ReqBody: `{"do":"look"}`, RespBody: `{"ok":true}`})
	}
	return append(ex, verdict.Exchange{Method: "POST", URL: "http://t/act", Status: 200, ReqBody: `{"do":"look"}`, RespBody: `{"ok":true,"turns":-1}`})
}

func TestTranscriptFoldsIdenticalExchanges(t *testing.T) {
	text := transcriptText(spendingTranscript(), "  ")
	assert.Equal(t, 1, strings.Count(text, "POST http://t/act -> 200")-1, "the 25 identical writes are shown once:\n%s", text)
	assert.Contains(t, text, "(then the same exchange 24 times more)")
	assert.Contains(t, text, `"turns":-1`, "the deciding answer is shown")
	assert.Contains(t, text, "27. POST http://t/act", "exchanges keep their numbers in the whole transcript")
}

func TestALongTranscriptKeepsItsStartAndItsEnd(t *testing.T) {
	var ex []verdict.Exchange
	for i := 0; i < 40; i++ {
		ex = append(ex, verdict.Exchange{Method: "GET", URL: fmt.Sprintf("http://t/item/%d", i), Status: 200})
	}
	text := transcriptText(ex, "")
	assert.Contains(t, text, "1. GET http://t/item/0 ")
	assert.Contains(t, text, "2. GET http://t/item/1 ")
	assert.NotContains(t, text, "3. GET http://t/item/2 ")
	assert.Contains(t, text, "… 32 exchanges left out (the case file and the JSON report have every exchange)")
	assert.Contains(t, text, "40. GET http://t/item/39 ")
	assert.Contains(t, text, "35. GET http://t/item/34 ")
	assert.Equal(t, 9, strings.Count(text, "\n"))
}

func TestAShortTranscriptIsShownWhole(t *testing.T) {
	ex := spendingTranscript()[:1]
	ex = append(ex, verdict.Exchange{Method: "GET", URL: "http://t/x", Status: 404})
	text := transcriptText(ex, "")
	assert.Equal(t, "1. POST http://t/register -> 201 (0ms)\n   response:\n     {\"id\":\"a1\"}\n2. GET http://t/x -> 404 (0ms)\n", text)
}

func TestABaselinedFailureIsOneLine(t *testing.T) {
	rep := &verdict.Report{Results: []verdict.Result{{Protocol: "toy", Feature: "F", Name: "known one", Rules: []string{"TOY-X"},
		Status: verdict.Warn, FailedRule: "TOY-X", Expected: "a", Observed: "b", Transcript: spendingTranscript(),
		Baseline: &verdict.BaselineEntry{Rule: "TOY-X", Reason: "TICKET-9"}}}}
	out := summaryOf(rep)
	require.Contains(t, out, "KNOWN  toy  F › known one  TOY-X (baseline: TICKET-9)\n")
	assert.NotContains(t, out, "transcript:", "a known failure's evidence stays in the JSON report")
}

func TestFindingsOnlyDropsTheTranscriptsOfCleanChecks(t *testing.T) {
	ex := spendingTranscript()
	rep := &verdict.Report{Results: []verdict.Result{
		{Name: "passed", Status: verdict.Pass, Transcript: ex},
		{Name: "passed with a warning", Status: verdict.Pass, Warnings: []string{"w"}, Transcript: ex},
		{Name: "skipped", Status: verdict.Skip, Transcript: ex},
		{Name: "failed", Status: verdict.Fail, Transcript: ex},
		{Name: "errored", Status: verdict.Error, Transcript: ex},
		{Name: "warned", Status: verdict.Warn, Transcript: ex},
	}}
	kept := map[string]bool{}
	for _, res := range FindingsOnly(rep).Results {
		kept[res.Name] = len(res.Transcript) > 0
	}
	assert.Equal(t, map[string]bool{"passed": false, "passed with a warning": true, "skipped": false,
		"failed": true, "errored": true, "warned": true}, kept)
	for _, res := range rep.Results {
		assert.NotEmpty(t, res.Transcript, "the run's own report is not changed")
	}
}

func TestABodysTrailingNewlineLeavesNoLoneCloser(t *testing.T) {
	var b strings.Builder
	field(&b, "observed", "status 400 (body {\"error\":\"x\"}\n)")
	assert.Equal(t, "  observed:   status 400 (body {\"error\":\"x\"})\n", b.String())
	b.Reset()
	field(&b, "expected", "line one\nline two")
	assert.Equal(t, "  expected:   line one\n              line two\n", b.String(), "ordinary lines stay apart")
}

// TestTheMustLineAccountsForEveryUncheckedRule: the rules a run left
// unchecked are grouped by what would check them, and the plan's own
// not-live rules are not counted twice.
func TestTheMustLineAccountsForEveryUncheckedRule(t *testing.T) {
	unchecked := []verdict.Unchecked{
		{Rule: "A", Reason: "skip: skipped: appending a level is permanent; run with --allow-authoring to allow one"},
		{Rule: "B", Reason: "skip: skipped: run with --allow-authoring (a copy)"},
		{Rule: "C", Reason: "skip: skipped: needs the embedded reference's clock"},
		{Rule: "D", Reason: "skip: unchecked: the target does not serve GET /x (it answered 404)"},
		{Rule: "E", Reason: "no selected check cites it (see --tags, --rule, --checks)"},
		{Rule: "F", Reason: "skip: the plan says no live run can"},
	}
	got := uncheckedNote(unchecked, []verdict.Unchecked{{Rule: "F"}})
	assert.Equal(t, "; not checked: 2 need --allow-authoring, 1 need the embedded reference's controls, "+
		"1 not selected (--rule, --tags, --shard), 1 on routes the target does not serve", got)
	assert.Empty(t, uncheckedNote(nil, nil))
}

// TestTheSummaryNamesEveryCauseBeforeItsEvidence: right under the table,
// one line per root cause of a fail or error, before the findings in full.
func TestTheSummaryNamesEveryCauseBeforeItsEvidence(t *testing.T) {
	out := summaryOf(sampleReport())
	head := out[:strings.Index(out, "\nFAIL  ")]
	require.Contains(t, head, "WHAT BROKE (each in full below):")
	for _, id := range []string{"IYRA-ID-EXPIRY (MUST)", "IYRA-SITE-EFFECTS (MUST)"} {
		assert.Contains(t, head, "  FAIL "+id, "the cause of %s stands before the evidence", id)
	}
	assert.Contains(t, head, "expected morale 3, observed morale 2")
	assert.NotContains(t, head, "IYRA-OPENAPI", "a warning is no cause of the verdict")
}

// TestDifferingFieldPointsAtTheDecidingExchange: the line names the
// status or the response field of the last exchange that holds the
// observed value, and says nothing rather than guess.
func TestDifferingFieldPointsAtTheDecidingExchange(t *testing.T) {
	ex := spendingTranscript()
	cases := []struct {
		expected, observed, want, why string
	}{
		{"429", "200", "status: expected 429, observed 200 (exchange 27)", "a status code is the status"},
		{"a 4xx refusal", "200 ok", "status: expected a 4xx refusal, observed 200 ok (exchange 27)", "a status before its code"},
		{"turns >= 0", "-1", "response field turns: expected turns >= 0, observed -1 (exchange 27)", "a body field holding the value"},
		{"false", "true", "response field ok: expected false, observed true (exchange 27)", "a boolean reads as fmt writes it"},
		{"409", "404", "", "a status the deciding exchange did not answer"},
		{"a1", "a1", "", "a value only an earlier exchange holds is not claimed"},
		{"", "200", "", "no expected value, no comparison"},
	}
	for _, c := range cases {
		res := verdict.Result{Expected: c.expected, Observed: c.observed, Transcript: ex}
		assert.Equal(t, c.want, differingField(res), c.why)
	}
}

// TestAShortenedTranscriptSaysWhereTheRestIs: a folded transcript is
// headed by the count shown, the case file and the differing field; a
// transcript shown whole gets neither line.
func TestAShortenedTranscriptSaysWhereTheRestIs(t *testing.T) {
	res := verdict.Result{Expected: "turns >= 0", Observed: "-1", Transcript: spendingTranscript(), CaseFile: "/tmp/cases/toy-1.json"}
	var b strings.Builder
	writeTranscript(&b, res)
	lines := strings.Split(b.String(), "\n")
	require.Greater(t, len(lines), 3)
	assert.Equal(t, "  transcript:", lines[0])
	assert.Equal(t, "    3 of 27 exchanges shown; all of them: the case file /tmp/cases/toy-1.json and the JSON report", lines[1])
	assert.Equal(t, "    differing field: response field turns: expected turns >= 0, observed -1 (exchange 27)", lines[2])
	b.Reset()
	res.Transcript = res.Transcript[:2]
	writeTranscript(&b, res)
	assert.NotContains(t, b.String(), "differing field")
	assert.NotContains(t, b.String(), "exchanges shown")
}
