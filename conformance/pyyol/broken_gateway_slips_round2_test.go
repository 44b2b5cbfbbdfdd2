package pyyol_test

import (
	"slices"
	"strings"
	"sync"

	"github.com/agentgames/conformance/reference/pyyol/server"
)

// gatewaySlipsRound2 are the second round of Goofspiel and Mafia slips
// through the gateway (docs/detection.md, "pyyol-gateway (round 2)"): a
// view's pool without the carried tie, history from the wrong seat's
// side, a winner by rounds won, a pong only once, a seq repeated, an
// initialize without the seat, a night secret leaked, roles in lower
// case, an action listed out of phase, a day counter behind, a message
// field misspelled, a rule set missing its tie rule.
func gatewaySlipsRound2() []gatewaySlip {
	return []gatewaySlip{
		{"the view's prize_pool without the carried tie", "PYYOL-GOOF-TIE-CARRY", goofView(func(v map[string]any) { v["prize_pool"] = v["current_prize"] }), quickTurns},
		{"seat 1's history told from seat 0's side", "PYYOL-GOOF-HISTORY", goofView(func(v map[string]any) {
			if v["seat"] == 1.0 {
				for _, h := range ints(v["history"]) {
					h := h.(map[string]any)
					h["your_card"], h["opp_card"] = h["opp_card"], h["your_card"]
				}
			}
		}), quickTurns},
		{"game_end's winner by rounds won, not points", "PYYOL-GOOF-WINNER", set("game_end", "", func(f map[string]any) {
			if g := gameOf(f); g == "mafia" || g == "monopoly" {
				return
			}
			r := result(f)
			won := [2]int{}
			for _, h := range ints(r["history"]) {
				if w, ok := h.(map[string]any)["winner"].(float64); ok && w >= 0 {
					won[int(w)]++
				}
			}
			r["winner"] = map[bool]float64{true: 0, false: 1}[won[0] > won[1]]
			if won[0] == won[1] {
				r["winner"] = -1.0
			}
		}), quickTurns},
		{"a pong only to the first ping", "PYYOL-WS-PING", onlyFirst("pong"), quickTurns},
		{"every fifth event repeating the seq before it", "PYYOL-WS-EVENT-SEQ", repeatedSeq(), quickTurns},
		{"initialize without the seat", "PYYOL-WS-INITIALIZE", set("initialize", "", func(f map[string]any) { deleteKey(f, "seat") }), quickTurns},
		{"a Mafia seat's private holding the Doctor's protection", "PYYOL-MAFIA-PRIVATE-OWN", ofRole("Mafia", func(v map[string]any) {
			if v["day"] != 0.0 {
				v["private"] = append(ints(v["private"]), map[string]any{"seq": 1.0, "type": "night",
					"payload": map[string]any{"action": "protect", "actor": 4.0, "target": v["your_seat"]}})
			}
		}), quickTurns},
		{"game_end's roles in lower case", "PYYOL-MAFIA-ROLE-CASE", set("game_end", "", func(f map[string]any) {
			if gameOf(f) == "mafia" {
				lowerRoles(result(f))
			}
		}), quickTurns},
		// Decided PYYOL-MAFIA-LEGAL before the run; caught as PYYOL-MAFIA-ACTIONS
		// (the phase table, judged first), the more specific rule, kept.
		{"vote listed in discussion", "PYYOL-MAFIA-ACTIONS", mafiaView(func(v map[string]any) {
			if v["phase"] == "discussion" && !slices.Contains(ints(v["legal"]), "vote") {
				v["legal"] = append(ints(v["legal"]), "vote")
			}
		}), quickTurns},
		{"the view's day one behind at voting", "PYYOL-MAFIA-DAY", mafiaView(func(v map[string]any) {
			if v["phase"] == "voting" {
				v["day"] = num(v["day"]) - 1
			}
		}), quickTurns},
		{"a message event's text sent as message", "PYYOL-MAFIA-EVENT-MESSAGE", set("event", "message", func(f map[string]any) {
			p := payload(f)
			p["message"] = p["text"]
			delete(p, "text")
		}), quickTurns},
		{"match_created's rule set without the tie rule", "PYYOL-GOOF-COMMITMENT", set("event", "match_created", func(f map[string]any) { deleteKey(payload(f), "tie_rule") }), quickTurns},
	}
}

// faithfulGatewaysRound2 take readings the docs leave open next to the
// round-2 slips: legal_actions in another order, match_created's rule
// set nested under its own key, an eliminate event with a narration.
func faithfulGatewaysRound2() []gatewaySlip {
	return []gatewaySlip{
		{"legal_actions from high to low", "PYYOL-GOOF-LEGAL-ACTIONS,PYYOL-GOOF-VIEW", goofView(func(v map[string]any) {
			slices.SortFunc(ints(v["legal_actions"]), func(a, b any) int { return int(num(b) - num(a)) })
		}), quickTurns},
		{"match_created's rule set under rules", "PYYOL-GOOF-COMMITMENT", set("event", "match_created", func(f map[string]any) {
			p := payload(f)
			rules := map[string]any{}
			for _, k := range []string{"cards", "rounds", "fairness_mode", "tie_rule"} {
				if v, ok := p[k]; ok {
					rules[k] = v
					delete(p, k)
				}
			}
			p["rules"] = rules
		}), quickTurns},
		{"eliminate events with a narration", "PYYOL-MAFIA-EVENT-ELIMINATE,PYYOL-MAFIA-REDACTED", set("event", "eliminate", func(f map[string]any) {
			payload(f)["text"] = "The town has spoken."
		}), quickTurns},
	}
}

// onlyFirst passes the first frame of type t and drops the rest: a
// handler answered once, then never again.
func onlyFirst(t string) server.Rewrite {
	var mu sync.Mutex
	seen := false
	return server.EveryFrame(func(f map[string]any) []map[string]any {
		mu.Lock()
		defer mu.Unlock()
		if f["t"] == t {
			if seen {
				return nil
			}
			seen = true
		}
		return []map[string]any{f}
	})
}

// repeatedSeq gives every fifth event of a match the seq of the event
// before it: a counter read before another sender's increment landed.
func repeatedSeq() server.Rewrite {
	var mu sync.Mutex
	n, last := map[any]int{}, map[any]any{}
	return server.EveryFrame(func(f map[string]any) []map[string]any {
		mu.Lock()
		defer mu.Unlock()
		if f["t"] == "event" {
			n[f["match_id"]]++
			if n[f["match_id"]]%5 == 0 && last[f["match_id"]] != nil {
				f["seq"] = last[f["match_id"]]
			}
			last[f["match_id"]] = f["seq"]
		}
		return []map[string]any{f}
	})
}

// deleteKey removes key from m and every object nested in it.
func deleteKey(m map[string]any, key string) {
	delete(m, key)
	for _, v := range m {
		switch v := v.(type) {
		case map[string]any:
			deleteKey(v, key)
		case []any:
			for _, e := range v {
				if e, ok := e.(map[string]any); ok {
					deleteKey(e, key)
				}
			}
		}
	}
}

// lowerRoles lower-cases every role value nested in v.
func lowerRoles(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = lowered(x)
		}
	case []any:
		for i, x := range v {
			v[i] = lowered(x)
		}
	}
}

// lowered is x lower-cased when it is a role value, else x with its
// nested roles lowered.
func lowered(x any) any {
	if s, ok := x.(string); ok && slices.Contains([]string{"Mafia", "Detective", "Doctor", "Sheriff", "Villager"}, s) {
		return strings.ToLower(s)
	}
	lowerRoles(x)
	return x
}
