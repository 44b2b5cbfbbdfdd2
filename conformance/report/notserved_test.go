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

// TestTheConsoleNamesAMissingRouteOnce: the progress prints a not-served
// skip's reason for the first check a route leaves unchecked, and only the
// check's line for the next ones; another route, or another protocol,
// gets its reason again.
func TestTheConsoleNamesAMissingRouteOnce(t *testing.T) {
	var buf strings.Builder
	c := NewConsole(&buf, ConsoleOptions{})
	skip := func(p, name, route string) verdict.Result {
		return verdict.Result{Protocol: p, Name: name, Status: verdict.Skip, Message: verdict.NotServed(route, 404).Error()}
	}
	c.Start("pyyol-gateway", 4)
	c.Done(skip("pyyol-gateway", "a", "POST /v1/agents/{agent}/manifest"))
	c.Done(skip("pyyol-gateway", "b", "POST /v1/agents/{agent}/manifest"))
	c.Done(skip("pyyol-gateway", "c", "GET /v1/games/{game}/stakes"))
	c.Done(skip("iyra", "d", "POST /v1/agents/{agent}/manifest"))
	out := buf.String()
	if n := strings.Count(out, "does not serve POST /v1/agents/{agent}/manifest"); n != 2 {
		t.Errorf("the manifest route is named %d times, want once per protocol:\n%s", n, out)
	}
	if !strings.Contains(out, "does not serve GET /v1/games/{game}/stakes") {
		t.Errorf("another route is named again:\n%s", out)
	}
	if n := strings.Count(out, " SKIP "); n != 4 {
		t.Errorf("%d check lines, want every check's own:\n%s", n, out)
	}
}
