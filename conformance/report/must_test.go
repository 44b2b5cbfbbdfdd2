package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/verdict"
)

// TestMustRulesCheckedLine: the summary says per protocol how many MUST
// rules a check passed or failed, and the JSON report lists the others with
// the reason.
func TestMustRulesCheckedLine(t *testing.T) {
	var out bytes.Buffer
	Summary(&out, sampleReport())
	for _, want := range []string{"iyra: MUST rules checked on this target: 2/3; not checked: 1 skipped for other reasons (the JSON report's unchecked_must says why)\n",
		"pp: MUST rules checked on this target: 1/1\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q", want)
		}
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, sampleReport()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Summary map[string]struct {
			MustChecked   int                 `json:"must_checked"`
			MustTotal     int                 `json:"must_total"`
			UncheckedMust []verdict.Unchecked `json:"unchecked_must"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	iyra := doc.Summary["iyra"]
	if iyra.MustChecked != 2 || iyra.MustTotal != 3 || len(iyra.UncheckedMust) != 1 ||
		iyra.UncheckedMust[0].Rule != "IYRA-SKIPONLY" || !strings.Contains(iyra.UncheckedMust[0].Reason, "no clock") {
		t.Errorf("iyra: %+v", iyra)
	}
}

// TestADownTargetChecksNothing: when every check errored, no rule is
// covered and no MUST rule checked.
func TestADownTargetChecksNothing(t *testing.T) {
	rep := sampleReport()
	for i := range rep.Results {
		rep.Results[i].Status, rep.Results[i].FailedRule, rep.Results[i].Message = verdict.Error, "", "harness error: connection refused"
	}
	var out bytes.Buffer
	Summary(&out, rep)
	if !strings.Contains(out.String(), "iyra: MUST rules checked on this target: 0/3") || !strings.Contains(out.String(), "0/5") {
		t.Errorf("summary:\n%s", out.String())
	}
}
