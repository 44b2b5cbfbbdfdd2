package pyyol_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// earlierLayout rewrites the reference's frames (the platform's layout:
// bodies in payload, an event's type in kind) into the kit's earlier one:
// the view in view with game and match_id beside it, initialize's fields
// at the top level, the result in result, the event type in type. The
// docs fix neither.
func earlierLayout(f map[string]any) []map[string]any {
	body, _ := f["payload"].(map[string]any)
	switch f["t"] {
	case "turn":
		f["view"], f["game"], f["match_id"] = body, body["game"], body["match_id"]
		delete(f, "payload")
	case "initialize":
		for k, v := range body {
			f[k] = v
		}
		delete(f, "payload")
	case "game_end":
		f["result"], f["seat"] = body, body["seat"]
		delete(f, "payload")
	case "event":
		f["type"] = f["kind"]
		delete(f, "kind")
	}
	return []map[string]any{f}
}

// TestEarlierLayoutOnlyWarns: normalize, then judge. A gateway speaking
// the kit's earlier frame layout, which the docs leave as open as the
// platform's, fails no check of the whole gateway suite; the runner
// notes the layout under PYYOL-REF-FRAMES, a warning.
func TestEarlierLayoutOnlyWarns(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(server.New(server.Options{Rewrite: server.EveryFrame(earlierLayout), TurnTimeout: 600 * time.Millisecond}))
	defer srv.Close()
	rep := runLive(t, pyyol.Gateway(), srv.URL, "", gatewaySettings.With("admin-token", server.AdminToken))
	if rep.ExitCode() != 0 {
		t.Errorf("exit %d: %v", rep.ExitCode(), failedRules(rep))
	}
	noted := false
	for _, r := range rep.Results {
		noted = noted || strings.Contains(strings.Join(r.Warnings, " "), "PYYOL-REF-FRAMES") || r.FailedRule == "PYYOL-REF-FRAMES"
	}
	if !noted {
		t.Error("no PYYOL-REF-FRAMES warning for the earlier layout")
	}
}
