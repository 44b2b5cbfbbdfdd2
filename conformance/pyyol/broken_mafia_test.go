package pyyol_test

import (
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/reference/pyyol/server"
)

// ofRole applies edit to the turn views of one role only.
func ofRole(role string, edit func(v map[string]any)) server.Rewrite {
	return set("turn", "", func(f map[string]any) {
		if v := view(f); v["your_role"] == role {
			edit(v)
		}
	})
}

// privates applies edit to every private night payload of one role.
func privates(role string, edit func(p map[string]any)) server.Rewrite {
	return ofRole(role, func(v map[string]any) {
		for _, e := range ints(v["private"]) {
			edit(e.(map[string]any)["payload"].(map[string]any))
		}
	})
}

// nextSeat is a JSON seat number plus one, round the table.
func nextSeat(x any) float64 { return float64((int(x.(float64)) + 1) % 12) }

// after appends an extra event frame after each event of a type.
func after(eventType string, extra func(f map[string]any) map[string]any) server.Rewrite {
	return frameEdit("event", eventType, func(f map[string]any) []map[string]any {
		if x := extra(f); x != nil {
			return []map[string]any{f, x}
		}
		return []map[string]any{f}
	})
}

func eventLike(f map[string]any, typ string, p map[string]any) map[string]any {
	return map[string]any{"t": "event", "match_id": f["match_id"], "seq": f["seq"], "type": typ, "payload": p}
}

// brokenMafiaGateways lists, for every Mafia MUST rule a live run can
// check, a gateway that breaks it (the list: a role leaked to
// another seat, a vote resolved against the rule, a game that never ends).
func brokenMafiaGateways() []struct {
	rule string
	opts server.Options
} {
	flipWinner := set("game_end", "", func(f map[string]any) {
		r := result(f)
		r["winner"] = map[any]string{"town": "mafia", "mafia": "town"}[r["winner"]]
	})
	return []struct {
		rule string
		opts server.Options
	}{
		{"PYYOL-MAFIA-TABLE", server.Options{Rewrite: set("game_end", "", func(f map[string]any) {
			roles := ints(result(f)["roles"])
			for i, r := range roles {
				if r == "Villager" {
					roles[i] = "Mafia"
					break
				}
			}
		})}},
		{"PYYOL-MAFIA-TEAMS", server.Options{Rewrite: set("game_end", "", func(f map[string]any) { result(f)["winner"] = "villagers" })}},
		{"PYYOL-MAFIA-PHASES", server.Options{Rewrite: frameEdit("event", "phase", func(f map[string]any) []map[string]any {
			if payload(f)["phase"] == "discussion" {
				return nil
			}
			return []map[string]any{f}
		})}},
		{"PYYOL-MAFIA-REDACTED", server.Options{Rewrite: set("turn", "", func(f map[string]any) {
			if v := view(f); v["your_role"] != "Mafia" {
				v["seat_roles"] = map[string]any{"0": "Mafia"}
			}
		})}},
		{"PYYOL-MAFIA-FALLBACK", server.Options{Tamper: server.NoFallback}},
		{"PYYOL-MAFIA-WIN-TOWN", server.Options{Rewrite: flipWinner}},
		// The agent never hears of an elimination, so the Mafia "won" short of the Town.
		{"PYYOL-MAFIA-WIN-MAFIA", server.Options{Rewrite: drop("event", "eliminate")}},
		{"PYYOL-MAFIA-VIEW", server.Options{Rewrite: set("turn", "", func(f map[string]any) { delete(view(f), "alive") })}},
		{"PYYOL-MAFIA-ALLIES", server.Options{Rewrite: ofRole("Villager", func(v map[string]any) { v["allies"] = []any{0, 1} })}},
		{"PYYOL-MAFIA-LEGAL", server.Options{Rewrite: set("turn", "", func(f map[string]any) {
			if v := view(f); v["phase"] == "discussion" {
				v["legal"] = []any{}
			}
		})}},
		{"PYYOL-MAFIA-PRIVATE-OWN", server.Options{Rewrite: ofRole("Villager", func(v map[string]any) {
			v["private"] = []any{map[string]any{"seq": 1, "type": "night", "payload": map[string]any{"action": "investigate", "target": 0, "finding": "TOWN"}}}
		})}},
		{"PYYOL-MAFIA-MOVE", server.Options{Rewrite: set("event", "vote", func(f map[string]any) {
			if p := payload(f); p["from"] == 11.0 {
				p["target"] = nextSeat(p["target"])
			}
		})}},
		{"PYYOL-MAFIA-PHASE-NIGHT", server.Options{Rewrite: ofRole("Villager", func(v map[string]any) {
			if v["phase"] == "discussion" {
				v["phase"] = "night"
			}
		})}},
		{"PYYOL-MAFIA-PHASE-MORNING", server.Options{Rewrite: drop("event", "moderator")}},
		{"PYYOL-MAFIA-DISCUSSION", server.Options{Rewrite: frameEdit("event", "message", func(f map[string]any) []map[string]any { return []map[string]any{f, f} })}},
		{"PYYOL-MAFIA-VOTE", server.Options{Rewrite: set("event", "eliminate", func(f map[string]any) {
			if p := payload(f); p["cause"] == "vote" {
				p["target"] = nextSeat(p["target"])
			}
		})}},
		{"PYYOL-MAFIA-RESULT", server.Options{Rewrite: server.EveryFrame(func(f map[string]any) []map[string]any {
			// A game that never ends: no victory, no result, no game_end.
			if f["t"] == "game_end" || (f["t"] == "event" && (evType(f) == "victory" || payload(f)["phase"] == "result")) {
				return nil
			}
			return []map[string]any{f}
		})}},
		{"PYYOL-MAFIA-ROLES", server.Options{Rewrite: after("eliminate", func(f map[string]any) map[string]any {
			if p := payload(f); p["cause"] != "vote" {
				return eventLike(f, "eliminate", map[string]any{"target": nextSeat(p["target"]), "cause": "night_kill"})
			}
			return nil
		})}},
		{"PYYOL-MAFIA-PROTECT", server.Options{Rewrite: after("phase", func(f map[string]any) map[string]any {
			if payload(f)["phase"] == "morning" {
				return eventLike(f, "eliminate", map[string]any{"target": 11, "cause": "night_kill"})
			}
			return nil
		})}},
		{"PYYOL-MAFIA-PROTECT-SELF", server.Options{Rewrite: privates("Doctor", func(p map[string]any) { p["target"] = nextSeat(p["target"]) })}},
		{"PYYOL-MAFIA-INVESTIGATE", server.Options{Rewrite: privates("Detective", func(p map[string]any) {
			p["finding"] = map[any]string{"MAFIA": "TOWN", "TOWN": "MAFIA"}[p["finding"]]
		})}},
		{"PYYOL-MAFIA-PROFILE", server.Options{Rewrite: privates("Sheriff", func(p map[string]any) { p["finding"] = "TOWN" })}},
		{"PYYOL-MAFIA-ACTIONS", server.Options{Rewrite: set("turn", "", func(f map[string]any) {
			if v := view(f); v["phase"] == "discussion" {
				v["legal"] = []any{"message", "night_kill"}
			}
		})}},
		{"PYYOL-MAFIA-EVENTS", server.Options{Rewrite: after("phase", func(f map[string]any) map[string]any {
			return eventLike(f, "bonus", map[string]any{})
		})}},
		{"PYYOL-MAFIA-EVENT-PHASE", server.Options{Rewrite: set("event", "phase", func(f map[string]any) { delete(payload(f), "day") })}},
		{"PYYOL-MAFIA-EVENT-MESSAGE", server.Options{Rewrite: set("event", "message", func(f map[string]any) { delete(payload(f), "tone") })}},
		{"PYYOL-MAFIA-EVENT-VOTE", server.Options{Rewrite: set("event", "vote", func(f map[string]any) { delete(payload(f), "from") })}},
		{"PYYOL-MAFIA-EVENT-ELIMINATE", server.Options{Rewrite: set("event", "eliminate", func(f map[string]any) { delete(payload(f), "cause") })}},
		{"PYYOL-MAFIA-EVENT-VICTORY", server.Options{Rewrite: drop("event", "victory")}},
		{"PYYOL-MAFIA-EVENT-MODERATOR", server.Options{Rewrite: set("event", "moderator", func(f map[string]any) { f["payload"] = map[string]any{} })}},
		{"PYYOL-MAFIA-NIGHT-PRIVATE", server.Options{Rewrite: after("phase", func(f map[string]any) map[string]any {
			if payload(f)["phase"] == "morning" {
				return eventLike(f, "night", map[string]any{"action": "investigate", "target": 0, "finding": "MAFIA"})
			}
			return nil
		})}},
		{"PYYOL-MAFIA-ROLE-CASE", server.Options{Rewrite: set("turn", "", func(f map[string]any) {
			v := view(f)
			v["your_role"] = strings.ToLower(v["your_role"].(string))
		})}},
		{"PYYOL-MAFIA-TRANSCRIPT", server.Options{Rewrite: set("turn", "", func(f map[string]any) {
			if pub := ints(view(f)["public"]); len(pub) > 2 {
				view(f)["public"] = pub[len(pub)-2:]
			}
		})}},
		// Every view shows the whole table alive, the dead too.
		{"PYYOL-MAFIA-ALIVE", server.Options{Rewrite: set("turn", "", func(f map[string]any) {
			for seat := range view(f)["alive"].(map[string]any) {
				view(f)["alive"].(map[string]any)[seat] = true
			}
		})}},
		// Seat 0 is eliminated at every discussion.
		{"PYYOL-MAFIA-KILL-WHEN", server.Options{Rewrite: after("phase", func(f map[string]any) map[string]any {
			if payload(f)["phase"] == "discussion" {
				return eventLike(f, "eliminate", map[string]any{"target": 0, "cause": "vote"})
			}
			return nil
		})}},
		// Each night is numbered twice its day: the counter jumps and goes back.
		{"PYYOL-MAFIA-DAY", server.Options{Rewrite: set("event", "phase", func(f map[string]any) {
			if p := payload(f); p["phase"] == "night" {
				p["day"] = p["day"].(float64) * 2
			}
		})}},
		{"PYYOL-MAFIA-GAME-END", server.Options{Rewrite: set("game_end", "", func(f map[string]any) {
			r := result(f)
			r["transcript"] = ints(r["transcript"])[:3]
		})}},
	}
}

// TestBrokenMafiaGatewaysFailTheirRule: each broken Mafia gateway, served
// over loopback and checked live, fails with the rule it breaks named.
func TestBrokenMafiaGatewaysFailTheirRule(t *testing.T) {
	t.Parallel()
	catchBrokenGateways(t, brokenMafiaGateways(), 500*time.Millisecond)
}
