package pyyol_test

import (
	"slices"
	"strconv"

	"github.com/agentgames/conformance/reference/pyyol/server"
)

// gatewaySlipsRound5 are the fifth round of Goofspiel and Mafia slips
// through the gateway (docs/detection.md "pyyol-gateway (round 5)"): a
// tied round's history winner 0, the view's prize one round behind, a
// Detective offered the Mafia's kill, a seat eliminated still alive, the
// victory event naming the losers.
func gatewaySlipsRound5() []gatewaySlip {
	return []gatewaySlip{
		{"a tied round's history winner seat 0", "PYYOL-GOOF-HISTORY", goofView(func(v map[string]any) {
			for _, h := range ints(v["history"]) {
				if e := h.(map[string]any); e["winner"] == -1.0 {
					e["winner"] = 0.0
				}
			}
		}), quickTurns},
		{"the view's current_prize the last revealed one", "PYYOL-GOOF-VIEW", goofView(func(v map[string]any) {
			if h := ints(v["history"]); len(h) > 0 {
				v["current_prize"] = h[len(h)-1].(map[string]any)["prize"]
			}
		}), quickTurns},
		{"a Detective offered night_kill beside investigate", "PYYOL-MAFIA-LEGAL", ofRole("Detective", func(v map[string]any) {
			if v["phase"] == "night" && len(ints(v["legal"])) > 0 {
				v["legal"] = append(ints(v["legal"]), "night_kill")
			}
		}), quickTurns},
		{"a seat eliminated by vote still alive in the view", "PYYOL-MAFIA-ALIVE", mafiaView(func(v map[string]any) {
			alive := v["alive"].(map[string]any)
			for _, e := range ints(v["public"]) {
				e := e.(map[string]any)
				if p, _ := e["payload"].(map[string]any); evType(e) == "eliminate" && p["cause"] == "vote" {
					alive[strconvSeat(p["target"])] = true
				}
			}
		}), quickTurns},
		{"the victory event naming the losing team", "PYYOL-MAFIA-EVENT-VICTORY", set("event", "victory", func(f map[string]any) {
			p := payload(f)
			p["team"] = map[any]any{"town": "mafia", "mafia": "town"}[p["team"]]
		}), quickTurns},
	}
}

// monopolySlipsRound5 are the fifth round's Monopoly slips, each a frame
// rewrite in front of the reference gateway: roll missing from the roll
// phase's list, the seat's own jail flag cleared, rent_paid's amount
// doubled, end_turn missing in manage, a purchase's price at half.
func monopolySlipsRound5() []monoSlip {
	rw := func(name, rule string, r server.Rewrite) monoSlip {
		return monoSlip{name, rule, server.Options{Rewrite: r}}
	}
	return []monoSlip{
		rw("roll missing from the roll phase's legal_actions", "PYYOL-MONO-VIEW-LEGAL", monoView(func(v map[string]any) {
			if v["phase"] == "roll" {
				v["legal_actions"] = slices.DeleteFunc(ints(v["legal_actions"]), func(a any) bool { return a == "roll" })
			}
		})),
		rw("the seat's own in_jail cleared in its view", "PYYOL-MONO-VIEW-STATE", monoView(func(v map[string]any) {
			for i, p := range ints(v["state"].(map[string]any)["players"]) {
				if float64(i) == v["seat"] {
					p.(map[string]any)["in_jail"] = false
				}
			}
		})),
		rw("rent_paid's amount doubled", "PYYOL-MONO-EV-RENT-PAID", set("event", "rent_paid", func(f map[string]any) {
			p := payload(f)
			p["amount"] = num(p["amount"]) * 2
		})),
		rw("end_turn missing from manage's legal_actions", "PYYOL-MONO-END-TURN-SAFE", monoView(func(v map[string]any) {
			if v["phase"] == "manage" && len(ints(v["legal_actions"])) > 1 {
				v["legal_actions"] = slices.DeleteFunc(ints(v["legal_actions"]), func(a any) bool { return a == "end_turn" })
			}
		})),
		rw("property_purchased's price at half the list price", "PYYOL-MONO-ACT-BUY", set("event", "property_purchased", func(f map[string]any) {
			p := payload(f)
			p["price"] = float64(int(num(p["price"]) / 2))
		})),
	}
}

// strconvSeat is a seat as the alive map keys it.
func strconvSeat(v any) string { return strconv.Itoa(seatOf(v)) }

// faithfulGatewaysRound5 take readings the docs leave open next to the
// round-5 slips: a history listed newest first (each entry carries its
// round; the docs fix no order) and a victory event naming its team
// capitalised (the docs fix that it names the winning team, not the
// case).
func faithfulGatewaysRound5() []gatewaySlip {
	return []gatewaySlip{
		{"history listed newest first", "PYYOL-GOOF-HISTORY,PYYOL-GOOF-VIEW", goofView(func(v map[string]any) { slices.Reverse(ints(v["history"])) }), quickTurns},
		{"the victory event's team capitalised", "PYYOL-MAFIA-EVENT-VICTORY", set("event", "victory", func(f map[string]any) {
			p := payload(f)
			p["team"] = map[any]any{"town": "Town", "mafia": "Mafia"}[p["team"]]
		}), quickTurns},
	}
}

// faithfulMonopoliesRound5: players that spell their jail flag "jail",
// the word the docs use ("players (cash, position, jail, bankrupt)"):
// the jail phase's view is not judged against an in_jail it does not send.
func faithfulMonopoliesRound5() []monoSlip {
	return []monoSlip{
		{"players spelling the jail flag jail", "PYYOL-MONO-VIEW-STATE", server.Options{Rewrite: monoView(func(v map[string]any) {
			for _, p := range ints(v["state"].(map[string]any)["players"]) {
				p := p.(map[string]any)
				p["jail"] = p["in_jail"]
				delete(p, "in_jail")
			}
		})}},
	}
}
