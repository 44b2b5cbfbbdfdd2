package pyyol_test

import (
	"bufio"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// sdkDivergences are the rules the SDK-shaped push server
// (testdata/sdk_push_server.py) breaks because the official SDK does what
// the docs say otherwise about; every other check must pass.
//
// PYYOL-SIGN-PATH — protocol.md: "`path` is the request path (no query
// string)." The SDK's built-in server hands the path with its query to
// the verifier, so a signed request to a URL with a query string is
// refused bad_signature.
var sdkDivergences = []string{"PYYOL-SIGN-PATH"}

// startSDKServer runs the SDK-shaped push server with secret and the games
// it plays, or skips without python3; it returns the endpoint.url.
func startSDKServer(t *testing.T, secret, games string, flags ...string) string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: the SDK-shaped push server needs it")
	}
	args := append([]string{"testdata/sdk_push_server.py", "--secret", secret, "--port", "0", "--games", games}, flags...)
	cmd := exec.Command(python, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	var port int
	if _, perr := fmt.Sscanf(line, "listening %d", &port); err != nil || perr != nil {
		t.Fatalf("the SDK-shaped server did not start: %q %v", line, err)
	}
	return fmt.Sprintf("http://127.0.0.1:%d/pyyol-agent/turn", port)
}

// TestSDKShapedPushServerPasses: the SDK-shaped push server, which reads
// the /turn view at the top level and answers moves as the SDK's
// dataclasses serialize them, passes every pyyol-push check but the ones
// the SDK breaks against the docs, and those fail naming their rule.
func TestSDKShapedPushServerPasses(t *testing.T) {
	t.Parallel()
	target := startSDKServer(t, "sdk-secret", "goofspiel,mafia,monopoly")
	rep := runLive(t, pyyol.Push(), target, "", suite.Settings{"secret": "sdk-secret"})
	var failed []string
	for _, r := range rep.Results {
		switch {
		case r.Status == verdict.Fail:
			failed = append(failed, r.FailedRule)
		case r.Status != verdict.Pass:
			t.Errorf("%s %s: %s %s", r.Status, r.Name, r.FailedRule, r.Message)
		}
	}
	slices.Sort(failed)
	if !slices.Equal(slices.Compact(failed), sdkDivergences) {
		t.Errorf("failed %v, want exactly the SDK's divergences %v: %v", failed, sdkDivergences, failedRules(rep))
	}
}

// TestSDKShapedServerWithoutTheQueryPasses: mounted as the SDK's handle()
// asks (the path without its query string), the same server passes every
// check: its one failure above is the built-in server's alone.
func TestSDKShapedServerWithoutTheQueryPasses(t *testing.T) {
	t.Parallel()
	target := startSDKServer(t, "sdk-secret", "goofspiel,mafia,monopoly", "--path-without-query")
	rep := runLive(t, pyyol.Push(), target, "", suite.Settings{"secret": "sdk-secret"})
	for _, r := range rep.Results {
		if r.Status != verdict.Pass {
			t.Errorf("%s %s: %s %s", r.Status, r.Name, r.FailedRule, r.Message)
		}
	}
	if rep.ExitCode() != 0 || len(rep.Results) == 0 {
		t.Errorf("exit %d over %d checks", rep.ExitCode(), len(rep.Results))
	}
}

// TestSDKShapedServerWithGoofspielOnly: an SDK agent with only a Goofspiel
// handler is not judged on Mafia or Monopoly (skips), and a Mafia turn
// gets its 501 no_turn_handler.
func TestSDKShapedServerWithGoofspielOnly(t *testing.T) {
	t.Parallel()
	target := startSDKServer(t, "sdk-secret", "goofspiel")
	rep := runLive(t, pyyol.Push(), target, "", suite.Settings{"secret": "sdk-secret"})
	skips := 0
	for _, r := range rep.Results {
		switch {
		case r.Status == verdict.Skip && (strings.Contains(r.Feature, "Mafia") || strings.Contains(r.Feature, "Monopoly")):
			skips++
		case r.Status == verdict.Fail && slices.Contains(sdkDivergences, r.FailedRule):
		case r.Status != verdict.Pass:
			t.Errorf("%s %s: %s %s", r.Status, r.Name, r.FailedRule, r.Message)
		}
	}
	if skips != 7 {
		t.Errorf("%d Mafia and Monopoly skips, want 7: %v", skips, failedRules(rep))
	}
}
