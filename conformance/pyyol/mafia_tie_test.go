package pyyol_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// warned reports whether a result warned naming rule.
func warned(rep *verdict.Report, rule string) bool {
	for _, r := range rep.Results {
		if r.Status == verdict.Warn && r.FailedRule == rule {
			return true
		}
	}
	return false
}

// TestMafiaTieLive: the runner, voting last at its seat, makes a real
// tie in a live match. Against the reference the tie goes to the lowest
// tied seat and the run passes; a gateway resolving it to the highest
// tied seat breaks only the reference's choice (PYYOL-MAFIA-REF-VOTE-TIE),
// so the run warns naming it and still exits 0; a gateway eliminating a
// seat outside the tie breaks plurality and fails PYYOL-MAFIA-VOTE.
func TestMafiaTieLive(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		tamper server.Tamper
		check  func(rep *verdict.Report) bool
	}{
		{"faithful", "", func(rep *verdict.Report) bool {
			return rep.ExitCode() == 0 && len(failedRules(rep)) == 0 && tied(rep)
		}},
		{"tie to the highest seat", server.MafiaTieToHighest, func(rep *verdict.Report) bool {
			return rep.ExitCode() == 0 && warned(rep, "PYYOL-MAFIA-REF-VOTE-TIE")
		}},
		{"tie to a seat outside it", server.MafiaTieToOutsider, func(rep *verdict.Report) bool {
			return rep.ExitCode() == 1 && rep.Failed("PYYOL-MAFIA-VOTE")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(server.New(server.Options{Tamper: c.tamper, TurnTimeout: 500 * time.Millisecond}))
			defer srv.Close()
			rep := runLive(t, pyyol.Gateway(), srv.URL, "PYYOL-MAFIA-REF-VOTE-TIE", gatewaySettings)
			if !c.check(rep) {
				t.Errorf("exit %d; got %v", rep.ExitCode(), failedRules(rep))
			}
		})
	}
}

// tied reports whether the tie scenario ran to a verdict (no skip).
func tied(rep *verdict.Report) bool {
	for _, r := range rep.Results {
		if r.Name == "a vote the agent ties" {
			return r.Status == verdict.Pass
		}
	}
	return false
}
