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

// platformMonopolySpelling rewrites the reference's Monopoly events into
// the real platform's field names: turn_count, die1/die2/total, a
// trade's fields flat in the payload.
func platformMonopolySpelling(f map[string]any) []map[string]any {
	p, _ := f["payload"].(map[string]any)
	if f["t"] != "event" || p == nil {
		return []map[string]any{f}
	}
	switch f["kind"] {
	case "turn_started", "turn_ended":
		p["turn_count"] = p["turn"]
		delete(p, "turn")
	case "dice_rolled":
		if d, ok := p["dice"].([]any); ok && len(d) == 2 {
			p["die1"], p["die2"] = d[0], d[1]
			p["total"] = d[0].(float64) + d[1].(float64)
			delete(p, "dice")
		}
	case "trade_proposed", "trade_executed", "trade_rejected":
		if t, ok := p["trade"].(map[string]any); ok {
			for k, v := range t {
				p[k] = v
			}
			delete(p, "trade")
		}
	}
	return []map[string]any{f}
}

// TestMonopolyPlatformSpellingPassesLive: normalize, then judge. A
// gateway whose Monopoly events use the real platform's field names
// fails no check of the shadow referee, the money rules or the turn cap.
func TestMonopolyPlatformSpellingPassesLive(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(server.New(server.Options{Rewrite: server.EveryFrame(platformMonopolySpelling), TurnTimeout: 10 * time.Second}))
	defer srv.Close()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{pyyol.Gateway()}, Target: srv.URL,
		Rules: []string{"PYYOL-MONO-RENT", "PYYOL-MONO-ECONOMY", "PYYOL-MONO-VIEW-LEGAL", "PYYOL-MONO-WIN-TURN-CAP", "PYYOL-MONO-ACT-END-TURN", "PYYOL-MONO-ACT-ACCEPT-TRADE"},
		Seed:  7, NoProperties: true, CaseDir: t.TempDir(), Settings: gatewaySettings.With("turn-timeout", "10s")})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ExitCode() != 0 {
		t.Errorf("exit %d: %v", rep.ExitCode(), failedRules(rep))
	}
}
