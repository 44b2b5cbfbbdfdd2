package pyyol_test

import (
	"slices"

	"github.com/agentgames/conformance/reference/pyyol/server"
)

// gatewaySlipsRound6 are the sixth round of Mafia slips through the
// gateway (docs/detection.md "Pyyol gateway, round 6"): an empty allies
// list sent to Town seats, and the night's phase events a day ahead of
// the rest of the cycle.
func gatewaySlipsRound6() []gatewaySlip {
	return []gatewaySlip{
		{"allies sent empty to Town seats", "PYYOL-MAFIA-ALLIES", mafiaView(func(v map[string]any) {
			if v["your_role"] != "Mafia" {
				v["allies"] = []any{}
			}
		}), quickTurns},
		{"a night phase event's day one ahead", "PYYOL-MAFIA-EVENT-PHASE", set("event", "phase", func(f map[string]any) {
			if p := payload(f); p["phase"] == "night" {
				p["day"] = num(p["day"]) + 1
			}
		}), quickTurns},
	}
}

// monopolySlipsRound6 are the sixth round's Monopoly slips, each a frame
// rewrite in front of the reference gateway, all of them money or a
// count the run can recompute: a mortgage's amount at the list price
// (the cash moved right), a tax's delta written positive, a build's count
// the one before it, a mortgaged square shown unmortgaged.
func monopolySlipsRound6() []monoSlip {
	rw := func(name, rule string, r server.Rewrite) monoSlip {
		return monoSlip{name, rule, server.Options{Rewrite: r}}
	}
	return []monoSlip{
		rw("mortgaged's amount the list price, not half", "PYYOL-MONO-EV-MORTGAGED", set("event", "mortgaged", func(f map[string]any) {
			p := payload(f)
			p["amount"] = num(p["amount"]) * 2
		})),
		rw("a tax's cash_changed delta written positive", "PYYOL-MONO-EV-CASH-CHANGED", set("event", "cash_changed", func(f map[string]any) {
			if p := payload(f); p["reason"] == "tax" && num(p["delta"]) < 0 {
				p["delta"] = -num(p["delta"])
			}
		})),
		rw("house_built's houses the count before the build", "PYYOL-MONO-EV-HOUSE-BUILT", set("event", "house_built", func(f map[string]any) {
			p := payload(f)
			p["houses"] = num(p["houses"]) - 1
		})),
		rw("a mortgaged square shown unmortgaged in the view", "PYYOL-MONO-VIEW-STATE", monoView(func(v map[string]any) {
			for _, h := range ints(v["state"].(map[string]any)["holdings"]) {
				if h, ok := h.(map[string]any); ok {
					h["mortgaged"] = false
				}
			}
		})),
	}
}

// faithfulGatewaysRound6 take a reading the docs leave open next to the
// round-6 allies slip: a Mafia seat's allies listed from the highest seat
// down (the docs fix which seats, not their order).
func faithfulGatewaysRound6() []gatewaySlip {
	return []gatewaySlip{
		{"allies listed from the highest seat down", "PYYOL-MAFIA-ALLIES", ofRole("Mafia", func(v map[string]any) {
			slices.SortFunc(ints(v["allies"]), func(a, b any) int { return seatOf(b) - seatOf(a) })
		}), quickTurns},
	}
}

// faithfulMonopoliesRound6: a mortgage's and a lift's money told only by
// their own events, with no cash_changed beside them (the docs list
// cash_changed for salary, tax, card and dividend, not for a mortgage),
// next to the round-6 mortgage slips: the cash the views show still
// moves by the events' amounts.
func faithfulMonopoliesRound6() []monoSlip {
	return []monoSlip{
		{"mortgage money told only by mortgaged and unmortgaged", "PYYOL-MONO-EV-MORTGAGED,PYYOL-MONO-EV-UNMORTGAGED", server.Options{Rewrite: frameEdit("event", "cash_changed", func(f map[string]any) []map[string]any {
			if r := payload(f)["reason"]; r == "mortgage" || r == "unmortgage" {
				return nil
			}
			return []map[string]any{f}
		})}},
	}
}
