package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/verdict"
)

// TestFindingsWithOneCauseAreGrouped: a hundred checks failing for one
// reason print one finding in full and one line naming the rest.
func TestFindingsWithOneCauseAreGrouped(t *testing.T) {
	rep := &verdict.Report{Protocols: []verdict.ProtocolInfo{{Name: "iyra"}}}
	for i := 0; i < 100; i++ {
		rep.Results = append(rep.Results, verdict.Result{Protocol: "iyra", Feature: "f", Name: "check " + string(rune('a'+i%26)),
			Status: verdict.Error, Message: "harness error: GET /api/v5/sessions/ses_" + strings.Repeat("ab", i%7+4) + " answered 307 redirecting to http://127.0.0.1:1/x"})
	}
	rep.Results = append(rep.Results, verdict.Result{Protocol: "iyra", Name: "other", Status: verdict.Error, Message: "harness error: something else"})
	var out bytes.Buffer
	Summary(&out, rep)
	if n := strings.Count(out.String(), "ERROR  iyra"); n != 2 {
		t.Errorf("%d findings printed in full, want 2:\n%s", n, out.String())
	}
	if !strings.Contains(out.String(), "same cause: 99 more ERROR checks (f › check b; f › check c; f › check d; …)") {
		t.Errorf("no same-cause line:\n%s", out.String())
	}
}
