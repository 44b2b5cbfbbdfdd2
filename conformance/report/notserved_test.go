package report

import (
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/verdict"
)

// TestRoutesNotServedAreOneLinePerProtocol: the checks a missing route
// left unchecked fold into one summary line per protocol that names each
// route once, and other skips stay out of it.
func TestRoutesNotServedAreOneLinePerProtocol(t *testing.T) {
	skip := func(p, name string, err error) verdict.Result {
		return verdict.Result{Protocol: p, Name: name, Status: verdict.Skip, Message: err.Error()}
	}
	r := &verdict.Report{Results: []verdict.Result{
		skip("pyyol-gateway", "menu", verdict.NotServed("GET /v1/games/{game}/stakes", 404)),
		skip("pyyol-gateway", "manifest a", verdict.NotServed("POST /v1/agents/{agent}/manifest", 404)),
		skip("pyyol-gateway", "manifest b", verdict.NotServed("POST /v1/agents/{agent}/manifest", 404)),
		skip("pyyol-gateway", "clock", verdict.Skipf("needs the embedded reference's controls")),
		skip("iyra", "replay", verdict.NotServed("GET /api/v5/sessions/{session_id}/replay", 405)),
		{Protocol: "iyra", Name: "passes", Status: verdict.Pass},
	}}
	var got []string
	for _, l := range lines(summaryOf(r)) {
		if strings.HasPrefix(l, "NOT SERVED: ") {
			got = append(got, l)
		}
	}
	want := []string{
		"NOT SERVED: iyra: 1 check unchecked, the target does not serve GET /api/v5/sessions/{session_id}/replay (a missing route is not a refusal)",
		"NOT SERVED: pyyol-gateway: 3 checks unchecked, the target does not serve GET /v1/games/{game}/stakes, POST /v1/agents/{agent}/manifest (a missing route is not a refusal)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("not-served lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
