package pyyol_test

import (
	"slices"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/reference/pyyol/server"
)

// gatewaySlipsRound3 are the third round of Goofspiel and Mafia slips
// through the gateway (docs/detection.md, "pyyol-gateway (round 3)"): a
// round record's pool without the carry, a tie written null, a replay
// short of its last round, a fallback of its own, a night's dead still
// alive at morning, a dead seat voting, a parity that plays on, a finding
// in lower case.
func gatewaySlipsRound3() []gatewaySlip {
	return []gatewaySlip{
		{"history's prize_pool the prize alone", "PYYOL-GOOF-TIE-CARRY", goofView(func(v map[string]any) {
			for _, h := range ints(v["history"]) {
				h.(map[string]any)["prize_pool"] = h.(map[string]any)["prize"]
			}
		}), quickTurns},
		{"a tied round's winner written null", "PYYOL-GOOF-HISTORY", goofView(func(v map[string]any) {
			for _, h := range ints(v["history"]) {
				if h := h.(map[string]any); h["winner"] == -1.0 {
					h["winner"] = nil
				}
			}
		}), quickTurns},
		{"game_end's history without its last round", "PYYOL-WS-CONTEXT", set("game_end", "", func(f map[string]any) {
			if g := gameOf(f); g == "mafia" || g == "monopoly" {
				return
			}
			if r := result(f); len(ints(r["history"])) > 0 {
				r["history"] = ints(r["history"])[:len(ints(r["history"]))-1]
			}
		}), quickTurns},
		{"the fallback bids the prize's own card", "PYYOL-GOOF-FALLBACK-LOWEST", server.Rewrite{}, quickTurns},
		{"the night's dead still alive at morning and discussion", "PYYOL-MAFIA-ALIVE", mafiaView(func(v map[string]any) {
			if v["phase"] != "morning" && v["phase"] != "discussion" {
				return
			}
			if e := lastOfType(ints(v["public"]), "eliminate"); e != nil && e["cause"] != "vote" {
				v["alive"].(map[string]any)[strconv.Itoa(seatOf(e["target"]))] = true
			}
		}), quickTurns},
		{"a dead seat's vote in the transcript", "PYYOL-MAFIA-ALIVE", mafiaView(func(v map[string]any) {
			dead, fresh := []float64{}, false
			for _, e := range ints(v["public"]) {
				e := e.(map[string]any)
				p, _ := e["payload"].(map[string]any)
				switch evType(e) {
				case "eliminate":
					dead, fresh = append(dead, num(p["target"])), true
				case "vote":
					if fresh {
						p["from"], fresh = slices.Min(dead), false
					}
				}
			}
		}), quickTurns},
		{"the Mafia win only once they outnumber the Town", "PYYOL-MAFIA-WIN-MAFIA", server.Rewrite{}, quickTurns},
		{"the Detective's finding in lower case", "PYYOL-MAFIA-INVESTIGATE", privates("Detective", func(p map[string]any) {
			if s, ok := p["finding"].(string); ok {
				p["finding"] = strings.ToLower(s)
			}
		}), quickTurns},
	}
}

// gatewayTampersRound3 are the round's slips planted in the engine, not
// in the frames: the rows of gatewaySlipsRound3 with no rewrite.
var gatewayTampersRound3 = map[string]server.Tamper{
	"the fallback bids the prize's own card":          server.FallbackPrizeCard,
	"the Mafia win only once they outnumber the Town": server.MafiaParityPlaysOn,
}

// lastOfType is the payload of the last transcript event of a type, or nil.
func lastOfType(events []any, typ string) map[string]any {
	for i := len(events) - 1; i >= 0; i-- {
		if e := events[i].(map[string]any); evType(e) == typ {
			p, _ := e["payload"].(map[string]any)
			return p
		}
	}
	return nil
}

// monopolySlipsRound3 are the third round's Monopoly slips, each an
// engine defect of reference/pyyol/monopoly/defects_round3.go: a jail
// card that costs the fine too, a cap winner by cash, a bankrupt's cash
// lost, unmortgage listed without the cash, a jackpot never emptied, a
// re-roll listed where end_turn belongs.
func monopolySlipsRound3() []monoSlip {
	tamper := tamperSlip
	return []monoSlip{
		tamper("use_jail_card takes the fine too", "PYYOL-MONO-ACT-USE-JAIL-CARD", server.MonopolyJailCardAndFine),
		tamper("the turn cap's winner by cash, not net worth", "PYYOL-MONO-WIN-TURN-CAP", server.MonopolyCapWinnerByCash),
		tamper("a bankrupt seat's cash reaching nobody", "PYYOL-MONO-ACT-BANKRUPT", server.MonopolyBankruptCashLost),
		tamper("roll listed in manage after doubles, in place of end_turn", "PYYOL-MONO-END-TURN-SAFE", server.MonopolyRerollInManage),
		tamper("unmortgage listed without the cash for it", "PYYOL-MONO-VIEW-LEGAL", server.MonopolyUnmortgageWithoutCash),
		tamper("the Free Parking jackpot paid but never emptied", "PYYOL-MONO-CFG-FREE-PARKING", server.MonopolyPoolNotEmptied),
	}
}

// faithfulGatewaysRound3 take readings the docs leave open next to the
// round-3 slips: eliminate causes in other words (the catalogue's
// mafia and vote are the reference's, PYYOL-MAFIA-REF-CAUSE), a round
// record with a field of its own, a Goofspiel result that also counts
// the rounds won.
func faithfulGatewaysRound3() []gatewaySlip {
	causes := map[any]any{"mafia": "night_kill", "vote": "lynch"}
	return []gatewaySlip{
		{"eliminate causes night_kill and lynch", "PYYOL-MAFIA-EVENT-ELIMINATE,PYYOL-MAFIA-KILL-WHEN,PYYOL-MAFIA-ALIVE", server.EveryFrame(func(f map[string]any) []map[string]any {
			switch {
			case f["t"] == "event" && evType(f) == "eliminate":
				payload(f)["cause"] = causes[payload(f)["cause"]]
			case f["t"] == "turn" && gameOf(f) == "mafia":
				for _, e := range ints(view(f)["public"]) {
					if e := e.(map[string]any); evType(e) == "eliminate" {
						p := e["payload"].(map[string]any)
						p["cause"] = causes[p["cause"]]
					}
				}
			}
			return []map[string]any{f}
		}), quickTurns},
		{"history rounds that say whether they tied", "PYYOL-GOOF-HISTORY,PYYOL-GOOF-TIE-CARRY", goofView(func(v map[string]any) {
			for _, h := range ints(v["history"]) {
				h.(map[string]any)["tied"] = h.(map[string]any)["winner"] == -1.0
			}
		}), quickTurns},
		{"game_end's result counting the rounds won", "PYYOL-GOOF-WINNER,PYYOL-WS-CONTEXT", set("game_end", "", func(f map[string]any) {
			if g := gameOf(f); g == "mafia" || g == "monopoly" {
				return
			}
			r, won := result(f), []any{0.0, 0.0}
			for _, h := range ints(r["history"]) {
				if w, ok := h.(map[string]any)["winner"].(float64); ok && w >= 0 {
					won[int(w)] = won[int(w)].(float64) + 1
				}
			}
			r["rounds_won"] = won
		}), quickTurns},
	}
}

// faithfulMonopoliesRound3 take the real platform's reading next to the
// round-3 slips: a bid's amount taken as the new high bid, as
// backend/internal/engine/monopoly takes it (planted as a slip first;
// the runner bids only into a high bid of 0, where both readings agree,
// PYYOL-MONO-REF-AUCTION).
func faithfulMonopoliesRound3() []monoSlip {
	return []monoSlip{
		{"a bid's amount taken as the new high bid, as the real platform's engine does", "PYYOL-MONO-ACT-BID,PYYOL-MONO-MOVE-AMOUNT",
			server.Options{Tamper: server.MonopolyBidAsTotal}},
	}
}
