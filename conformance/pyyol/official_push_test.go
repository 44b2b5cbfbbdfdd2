package pyyol_test

import (
	"fmt"
	"net"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// TestOfficialSDKPushServerBreaksOnlyWhatTheDocsContradict: the official
// SDK's own hosted server (Agent.serve, via examples/official-sdk/push.py)
// passes every pyyol-push check except the rules it breaks against the
// docs (sdkDivergences), and those fail naming their rule; a later SDK
// version that fixes one passes it.
func TestOfficialSDKPushServerBreaksOnlyWhatTheDocsContradict(t *testing.T) {
	python := pyyol.OfficialSDK(t)
	port := freePort(t)
	cmd := exec.Command(python, "../../examples/official-sdk/push.py", fmt.Sprint(port), "official-sdk-secret")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	waitListening(t, port)
	rep := runLive(t, pyyol.Push(), fmt.Sprintf("http://127.0.0.1:%d/agent/turn", port), "", suite.Settings{"secret": "official-sdk-secret"})
	var failed []string
	for _, r := range rep.Results {
		switch {
		case r.Status == verdict.Fail:
			failed = append(failed, r.FailedRule)
		case r.Status != verdict.Pass:
			t.Errorf("%s %s: %s %s", r.Status, r.Name, r.FailedRule, r.Message)
		}
	}
	for _, rule := range failed {
		if !slices.Contains(sdkDivergences, rule) {
			t.Errorf("%s failed: the official SDK breaks only %v against the docs", rule, sdkDivergences)
		}
	}
	t.Logf("the SDK's divergences this version shows: %v", slices.Compact(slices.Sorted(slices.Values(failed))))
}

// freePort is a loopback port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitListening waits up to 10 s for a listener on port.
func waitListening(t *testing.T, port int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("nothing listens on %d", port)
}
