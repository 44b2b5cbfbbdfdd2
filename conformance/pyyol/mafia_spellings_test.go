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

// mafiaSpellingRules are the Mafia rules that read event payloads.
var mafiaSpellingRules = []string{"PYYOL-MAFIA-EVENTS", "PYYOL-MAFIA-EVENT-ELIMINATE", "PYYOL-MAFIA-EVENT-VICTORY",
	"PYYOL-MAFIA-NIGHT-PRIVATE", "PYYOL-MAFIA-PRIVATE-OWN", "PYYOL-MAFIA-REDACTED", "PYYOL-MAFIA-INVESTIGATE",
	"PYYOL-MAFIA-PROFILE", "PYYOL-MAFIA-PROTECT", "PYYOL-MAFIA-PROTECT-SELF", "PYYOL-MAFIA-ALIVE",
	"PYYOL-MAFIA-KILL-WHEN", "PYYOL-MAFIA-DAY", "PYYOL-MAFIA-WIN-TOWN", "PYYOL-MAFIA-WIN-MAFIA",
	"PYYOL-MAFIA-TRANSCRIPT", "PYYOL-MAFIA-GAME-END", "PYYOL-MAFIA-ROLES"}

// respell applies edit to every Mafia event a frame carries: an event
// frame's own, and those of a turn view's public and private streams.
func respell(edit func(typ string, p map[string]any)) func(map[string]any) []map[string]any {
	return func(f map[string]any) []map[string]any {
		body, _ := f["payload"].(map[string]any)
		switch f["t"] {
		case "event":
			kind, _ := f["kind"].(string)
			edit(kind, body)
		case "turn":
			v := body
			if inner, ok := body["view"].(map[string]any); ok {
				v = inner
			}
			for _, stream := range []string{"public", "private"} {
				list, _ := v[stream].([]any)
				for _, x := range list {
					e, _ := x.(map[string]any)
					p, _ := e["payload"].(map[string]any)
					typ, _ := e["type"].(string)
					if p != nil {
						edit(typ, p)
					}
				}
			}
		}
		return []map[string]any{f}
	}
}

// earlierSpelling is the kit's earlier reference: a night kill's cause
// "night_kill", night results without actor and seat, a victory {team}.
func earlierSpelling(typ string, p map[string]any) {
	switch typ {
	case "eliminate":
		if p["cause"] == "mafia" {
			p["cause"] = "night_kill"
		}
	case "night":
		delete(p, "actor")
		delete(p, "seat")
	case "victory":
		delete(p, "text")
	}
}

// platformSpelling is the real platform's night result alone: actor and
// seat, the target and finding only for an investigation, no day and no
// action.
func platformSpelling(typ string, p map[string]any) {
	if typ != "night" {
		return
	}
	delete(p, "day")
	if p["action"] != "investigate" {
		delete(p, "target")
	}
	delete(p, "action")
}

// TestMafiaEventSpellingsPassLive: normalize, then judge. A gateway whose
// Mafia events use the kit's earlier spelling, and one whose night
// results carry only what the real platform's do, fail no Mafia check:
// the decoder maps both onto one model.
func TestMafiaEventSpellingsPassLive(t *testing.T) {
	t.Parallel()
	for name, edit := range map[string]func(string, map[string]any){"earlier": earlierSpelling, "platform": platformSpelling} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(server.New(server.Options{Rewrite: server.EveryFrame(respell(edit)), TurnTimeout: 600 * time.Millisecond}))
			defer srv.Close()
			rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{pyyol.Gateway()}, Target: srv.URL,
				Rules: mafiaSpellingRules, Seed: 7, NoProperties: true, CaseDir: t.TempDir(), Settings: gatewaySettings.With("turn-timeout", "600ms")})
			if err != nil {
				t.Fatal(err)
			}
			if rep.ExitCode() != 0 {
				t.Errorf("exit %d: %v", rep.ExitCode(), failedRules(rep))
			}
		})
	}
}
