package pyyol_test

import (
	"slices"
	"sync"

	"github.com/agentgames/conformance/reference/pyyol/server"
)

// gatewaySlipsRound7 are the seventh round of Goofspiel and Mafia slips
// through the gateway (docs/detection.md "Pyyol gateway, round 7"): a
// legal list short of the hand, a history numbered from 1 or naming the
// pool as the prize, a prize revealed one round late, and Mafia message
// and eliminate events with a field off or missing.
func gatewaySlipsRound7() []gatewaySlip {
	return []gatewaySlip{
		{"legal_actions without the lowest card", "PYYOL-GOOF-LEGAL-ACTIONS", goofView(func(v map[string]any) {
			if legal := ints(v["legal_actions"]); len(legal) > 1 {
				v["legal_actions"] = slices.Delete(slices.Clone(legal), 0, 1)
			}
		}), quickTurns},
		{"history's rounds numbered from 1", "PYYOL-GOOF-HISTORY", goofView(func(v map[string]any) {
			for _, h := range ints(v["history"]) {
				e := h.(map[string]any)
				e["round"] = num(e["round"]) + 1
			}
		}), quickTurns},
		{"history's prize the round's whole pool", "PYYOL-GOOF-HISTORY", goofView(func(v map[string]any) {
			for _, h := range ints(v["history"]) {
				e := h.(map[string]any)
				e["prize"] = e["prize_pool"]
			}
		}), quickTurns},
		{"prize_revealed naming the prize of the round before", "PYYOL-GOOF-EVENTS", prizeRevealedLagging(), quickTurns},
		{"message events' from a 1-based seat", "PYYOL-MAFIA-EVENT-MESSAGE", set("event", "message", func(f map[string]any) {
			p := payload(f)
			p["from"] = num(p["from"]) + 1
		}), quickTurns},
		{"message events without their tone", "PYYOL-MAFIA-EVENT-MESSAGE", set("event", "message", func(f map[string]any) {
			delete(payload(f), "tone")
		}), quickTurns},
		{"eliminate events without their cause", "PYYOL-MAFIA-EVENT-ELIMINATE", set("event", "eliminate", func(f map[string]any) {
			delete(payload(f), "cause")
		}), quickTurns},
	}
}

// monopolySlipsRound7 are the seventh round's Monopoly slips: a
// turn_started naming the seat whose turn just ended, and build offered
// before the roll.
func monopolySlipsRound7() []monoSlip {
	return []monoSlip{
		{"turn_started naming the seat before", "PYYOL-MONO-EV-TURN-STARTED", server.Options{Rewrite: turnStartedLagging()}},
		{"build listed in the roll phase", "PYYOL-MONO-VIEW-LEGAL", server.Options{Rewrite: monoView(func(v map[string]any) {
			if v["phase"] == "roll" && !slices.Contains(ints(v["legal_actions"]), "build") {
				v["legal_actions"] = append(ints(v["legal_actions"]), "build")
			}
		})}},
	}
}

// prizeRevealedLagging writes each prize_revealed after a match's first
// with the prize the one before it named: the prize read off the round
// just resolved instead of the round just opened.
func prizeRevealedLagging() server.Rewrite {
	var mu sync.Mutex
	last := map[any]any{}
	return set("event", "prize_revealed", func(f map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		p := payload(f)
		prize := p["prize"]
		if prev, ok := last[f["match_id"]]; ok {
			p["prize"] = prev
		}
		last[f["match_id"]] = prize
	})
}

// turnStartedLagging writes each turn_started with the seat of the turn
// before it in its match: a "current seat" read before it was advanced.
func turnStartedLagging() server.Rewrite {
	var mu sync.Mutex
	last := map[any]any{}
	return set("event", "turn_started", func(f map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		p := payload(f)
		seat := p["seat"]
		if prev, ok := last[f["match_id"]]; ok {
			p["seat"] = prev
		}
		last[f["match_id"]] = seat
	})
}

// faithfulGatewaysRound7 take a reading the docs leave open next to the
// round-7 eliminate slip: a cause spelled in the gateway's own words (the
// docs name the field, not its values).
func faithfulGatewaysRound7() []gatewaySlip {
	return []gatewaySlip{
		{"eliminate's cause in the gateway's own words", "PYYOL-MAFIA-EVENT-ELIMINATE", set("event", "eliminate", func(f map[string]any) {
			p := payload(f)
			p["cause"] = "removed_" + toString(p["cause"])
		}), quickTurns},
	}
}

// faithfulMonopoliesRound7: turn_started carrying the seat alone, no
// turn_count beside it (the docs fix no payload for it), next to the
// round-7 turn_started slip.
func faithfulMonopoliesRound7() []monoSlip {
	return []monoSlip{
		{"turn_started with the seat alone", "PYYOL-MONO-EV-TURN-STARTED", server.Options{Rewrite: set("event", "turn_started", func(f map[string]any) {
			delete(payload(f), "turn_count")
		})}},
	}
}

func toString(v any) string { s, _ := v.(string); return s }
