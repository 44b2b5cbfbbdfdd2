package pyyol_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// TestAnswersAfterTheTimeoutDecideNothing: a healthy gateway that times
// every turn out after 1 ms plays its fallback for nearly every answer, as
// a loaded machine's runner would see it play for some. Told that timeout,
// the runner fails none of the checks whose effects the fallback changes
// (they once failed the healthy reference under load, naming these rules).
func TestAnswersAfterTheTimeoutDecideNothing(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(server.New(server.Options{TurnTimeout: time.Millisecond}))
	defer srv.Close()
	rules := []string{"PYYOL-MONO-LEGAL-ACCEPTED", "PYYOL-MONO-EV-TRADE-EXECUTED", "PYYOL-MONO-ACT-COUNTER-TRADE",
		"PYYOL-MONO-ACT-PROPOSE-TRADE", "PYYOL-MONO-EV-MORTGAGED", "PYYOL-MONO-ACT-END-TURN"}
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{pyyol.Gateway()}, Target: srv.URL,
		Rules: rules, Seed: 7, NoProperties: true, CaseDir: t.TempDir(),
		Settings: gatewaySettings.With("turn-timeout", "1ms").With("frame-wait", "20s")})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) == 0 {
		t.Fatal("no scenario ran")
	}
	if rep.ExitCode() != 0 || len(failedRules(rep)) > 0 {
		t.Errorf("exit %d: %v", rep.ExitCode(), failedRules(rep))
	}
}
