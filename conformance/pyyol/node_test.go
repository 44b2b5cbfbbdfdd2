package pyyol_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/nodetest"
	"github.com/agentgames/conformance/conformance/protocols"
)

// TestDocsOnlyNodeAgentPlaysServesGateway: an agent written in JavaScript
// from the docs' frame tables alone (testdata/agent.mjs) mints a key,
// registers with `conformance serve`'s gateway and plays a Goofspiel match
// to game_end.
func TestDocsOnlyNodeAgentPlaysServesGateway(t *testing.T) {
	t.Parallel()
	cmd := nodetest.WithWebSocket(t)
	srv := httptest.NewServer(cli.ServeMux(protocols.All(), 1, log.New(io.Discard, "", 0)))
	defer srv.Close()
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/v1/agent/connect"
	var out, errOut bytes.Buffer
	run := exec.Command(cmd[0], append(cmd[1:], "testdata/agent.mjs", url)...)
	run.Stdout, run.Stderr = &out, &errOut
	done := make(chan error, 1)
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- run.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("node agent: %v\n%s", err, errOut.String())
		}
	case <-time.After(90 * time.Second):
		run.Process.Kill()
		t.Fatal("node agent did not finish")
	}
	var res struct {
		Winner int   `json:"winner"`
		Scores []int `json:"scores"`
		Rounds int   `json:"rounds"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &res); err != nil || res.Rounds != 13 || len(res.Scores) != 2 {
		t.Fatalf("want a 13-round result, got %q (%v)", out.String(), err)
	}
}
