package pyyol_test

import (
	"strconv"
	"sync"
	"testing"

	"github.com/agentgames/conformance/reference/pyyol/server"
)

// gatewaySlipsRound4 are the fourth round of Goofspiel and Mafia slips
// through the gateway (docs/detection.md "pyyol-gateway (round 4)"): a
// split's odd point kept by seat 0, game_end's scores told from the
// receiving seat's side, a Town win with one Mafia left, a phase event
// naming the phase just ended, a Detective told the role.
func gatewaySlipsRound4() []gatewaySlip {
	return []gatewaySlip{
		{"a split tie's odd point kept by seat 0", "PYYOL-GOOF-TIE-SPLIT", set("event", "round_revealed", func(f map[string]any) {
			p := payload(f)
			if p["winner"] == -1.0 && int(num(p["prize_pool"]))%2 == 1 && p["split"] != false {
				if s, ok := p["scores"].([]any); ok {
					s[0] = num(s[0]) + 1
				}
			}
		}), quickTurns},
		{"game_end's scores told from the receiving seat's side", "PYYOL-GOOF-SCORES-ABSOLUTE", set("game_end", "", func(f map[string]any) {
			if g := gameOf(f); g == "mafia" || g == "monopoly" {
				return
			}
			if r := result(f); r["seat"] == 1.0 {
				r["scores"] = swap(ints(r["scores"]))
			}
		}), quickTurns},
		{"the Town win with one Mafia seat left", "PYYOL-MAFIA-WIN-TOWN", server.Rewrite{}, quickTurns},
		{"a phase event naming the phase just ended", "PYYOL-MAFIA-EVENT-PHASE", phaseLag(), quickTurns},
		{"the Detective told its target's role", "PYYOL-MAFIA-INVESTIGATE", server.Rewrite{}, quickTurns},
	}
}

// gatewayTampersRound4 are the round's Mafia slips planted in the engine
// (reference/pyyol/mafia/defects_round4.go).
var gatewayTampersRound4 = map[string]server.Tamper{
	"the Town win with one Mafia seat left": server.MafiaTownWinsEarly,
	"the Detective told its target's role":  server.MafiaFindingIsRole,
}

// phaseLag sends each Mafia phase event, as a frame and in every view's
// transcript, with the phase of the one before it: the event emitted
// before the phase field was updated.
func phaseLag() server.Rewrite {
	var mu sync.Mutex
	last := map[any]any{}
	return server.EveryFrame(func(f map[string]any) []map[string]any {
		switch {
		case f["t"] == "event" && evType(f) == "phase":
			mu.Lock()
			defer mu.Unlock()
			p := payload(f)
			prev, ok := last[f["match_id"]]
			last[f["match_id"]] = p["phase"]
			if ok {
				p["phase"] = prev
			}
		case f["t"] == "turn" && gameOf(f) == "mafia":
			var prev any
			for _, e := range ints(view(f)["public"]) {
				if e := e.(map[string]any); evType(e) == "phase" {
					p := e["payload"].(map[string]any)
					if prev, p["phase"] = p["phase"], prev; p["phase"] == nil {
						p["phase"] = prev
					}
				}
			}
		}
		return []map[string]any{f}
	})
}

// monopolySlipsRound4 are the fourth round's Monopoly slips the kit's
// matches reach, each an engine defect of
// reference/pyyol/monopoly/defects_round4.go but one frame rewrite: cards
// that pay the bank, collect from one seat or charge repairs as a flat
// fine, sell_house listed on bare streets, $400 on GO, a trade that keeps
// what was wanted, a view redacting the other seats' squares, a rent
// debt paid to the bank (reached by the pauper's poor table). The one
// no steered match reaches yet is in monopolyUnreachedRound4.
func monopolySlipsRound4() []monoSlip {
	tamper := tamperSlip
	return []monoSlip{
		tamper("a pay-each card paid to the bank", "PYYOL-MONO-ECONOMY", server.MonopolyPayEachToBank),
		tamper("a collect-from-every-player card collecting from one", "PYYOL-MONO-ECONOMY", server.MonopolyCollectFromOne),
		tamper("a repairs card charging its house rate as a flat fine", "PYYOL-MONO-ECONOMY", server.MonopolyRepairsFlat),
		tamper("sell_house listed on streets without buildings", "PYYOL-MONO-VIEW-LEGAL", server.MonopolySellListedBare),
		tamper("landing on GO pays the salary twice", "PYYOL-MONO-ECONOMY", server.MonopolyGoLandingDouble),
		tamper("a trade executed without the wanted properties", "PYYOL-MONO-ACT-ACCEPT-TRADE", server.MonopolyTradeWantedKept),
		// Reached by the pauper's poor table (features/pyyol/gateway-monopoly.feature).
		tamper("a rent debt raised in resolve_debt paid to the bank", "PYYOL-MONO-EV-RENT-PAID", server.MonopolyDebtPaidToBank),
		{"the view hiding the other seats' positions", "PYYOL-MONO-VIEW-STATE", server.Options{Rewrite: monoView(func(v map[string]any) {
			for i, p := range ints(v["state"].(map[string]any)["players"]) {
				if float64(i) != v["seat"] {
					delete(p.(map[string]any), "position")
				}
			}
		})}},
	}
}

// monopolyUnreachedRound4 is the round's Monopoly slip no match of the
// kit reaches, so no live run can fail it (docs/detection.md "Pyyol
// gateway, round 4"): a seat bankrupt to the bank that keeps its
// properties. The poor 3-seat tables tried (pauper and miser, cap 150)
// see bots go bankrupt to the bank on a tax, but never with the agent
// still seeing a view after it. Kept and run by
// TestUnreachedMonopolySlipsAreStillUnreached until a scenario reaches it.
var monopolyUnreachedRound4 = []monoSlip{
	{"a seat bankrupt to the bank still owning its properties", "PYYOL-MONO-ACT-BANKRUPT", server.Options{Tamper: server.MonopolyBankruptBankKeepsOwner}},
}

// faithfulGatewaysRound4 take readings the docs leave open next to the
// round-4 slips: phase events with a narration line beside {day, phase}
// (the docs fix those two fields, not the only ones), and a Goofspiel
// result that also tells the receiving seat's own total and its
// opponent's, the absolute scores unchanged.
func faithfulGatewaysRound4() []gatewaySlip {
	narrate := func(p map[string]any) { p["text"] = "The phase changes." }
	return []gatewaySlip{
		{"phase events with a narration line", "PYYOL-MAFIA-EVENT-PHASE,PYYOL-MAFIA-EVENTS", server.EveryFrame(func(f map[string]any) []map[string]any {
			switch {
			case f["t"] == "event" && evType(f) == "phase":
				narrate(payload(f))
			case f["t"] == "turn" && gameOf(f) == "mafia":
				for _, e := range ints(view(f)["public"]) {
					if e := e.(map[string]any); evType(e) == "phase" {
						narrate(e["payload"].(map[string]any))
					}
				}
			}
			return []map[string]any{f}
		}), quickTurns},
		{"game_end's result with the seat's own and opponent's totals beside the scores", "PYYOL-GOOF-SCORES-ABSOLUTE,PYYOL-GOOF-WINNER", set("game_end", "", func(f map[string]any) {
			if g := gameOf(f); g == "mafia" || g == "monopoly" {
				return
			}
			r := result(f)
			s, me := ints(r["scores"]), seatOf(r["seat"])
			r["my_score"], r["opp_score"] = s[me], s[1-me]
		}), quickTurns},
	}
}

// faithfulMonopoliesRound4: a view listing the players keyed by seat (an
// object, not a list), every seat's cash and position in it
// (PYYOL-MONO-VIEW-STATE names the fields, not the container).
func faithfulMonopoliesRound4() []monoSlip {
	return []monoSlip{
		{"the view's players keyed by seat", "PYYOL-MONO-VIEW-STATE", server.Options{Rewrite: monoView(func(v map[string]any) {
			st := v["state"].(map[string]any)
			byKey := map[string]any{}
			for i, p := range ints(st["players"]) {
				byKey[strconv.Itoa(i)] = p
			}
			st["players"] = byKey
		})}},
	}
}

// TestUnreachedMonopolySlipsAreStillUnreached keeps the Monopoly slips no
// match reaches yet honest: each still escapes a live run of its rule,
// and the test fails the day one is caught, so it moves into the run
// table (monopolySlipsRound4).
func TestUnreachedMonopolySlipsAreStillUnreached(t *testing.T) {
	t.Parallel()
	for _, s := range monopolyUnreachedRound4 {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			rep := liveGateway(t, s.rule, s.opts, monoTurns)
			if rep.ExitCode() == 1 && rep.Failed(s.rule) {
				t.Errorf("%q is caught now, naming %s: move it into monopolySlipsRound4", s.name, s.rule)
			}
		})
	}
}
