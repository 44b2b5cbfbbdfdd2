package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentgames/conformance/conformance/verdict"
)

// blockedReport is a `--rule X` run whose only check of X failed on another
// rule (Y) and stopped there before deciding X.
func blockedReport() *verdict.Report {
	return &verdict.Report{Tool: "conformance", Protocols: []verdict.ProtocolInfo{{Name: "toy", Rules: []verdict.RuleInfo{
		{ID: "TOY-X", Level: verdict.Must, Title: "x", Quote: "x", Path: "$.x"},
		{ID: "TOY-Y", Level: verdict.Must, Title: "y", Quote: "y", Path: "$.y"},
	}}}, Results: []verdict.Result{{Protocol: "toy", Name: "checks X", Kind: "scenario", Rules: []string{"TOY-X"},
		Status: verdict.Fail, FailedRule: "TOY-Y", Stopped: true, Message: "TOY-Y broken"}}}
}

// TestRuleStatusesAgreeEverywhere: the summary counts the check as failed,
// so neither the JSON rule view nor the HTML matrix may call its rule skipped.
func TestRuleStatusesAgreeEverywhere(t *testing.T) {
	rep := blockedReport()
	var js bytes.Buffer
	if err := WriteJSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Rules map[string]struct {
			Status string `json:"status"`
		} `json:"rules"`
		Summary map[string]struct {
			Counts map[string]int `json:"counts"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Summary["toy"].Counts["fail"] != 1 {
		t.Fatalf("summary counts %v, want one fail", doc.Summary["toy"].Counts)
	}
	for _, id := range []string{"TOY-X", "TOY-Y"} {
		if got := doc.Rules[id].Status; got != "fail" {
			t.Errorf("JSON rule %s status %q, want fail", id, got)
		}
	}
	root := parsePage(t, htmlOf(t, rep))
	for _, id := range []string{"TOY-X", "TOY-Y"} {
		if c := root.byID("rule-" + id).cells(); c[3] != "FAIL" {
			t.Errorf("HTML rule %s badge %q, want FAIL", id, c[3])
		}
	}
	var sum bytes.Buffer
	Summary(&sum, rep)
	if !bytes.Contains(sum.Bytes(), []byte("2/2")) {
		t.Errorf("summary should count both rules covered:\n%s", sum.String())
	}
	if !bytes.Contains(sum.Bytes(), []byte("MUST rules checked on this target: 2/2")) {
		t.Errorf("the MUST line should agree with the rules covered:\n%s", sum.String())
	}
}
