package pyyol_test

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/reference/pyyol/server"
	"net/http/httptest"
)

// monoSlip is one realistic Monopoly bug of the gateway: what it is, the
// rule a live run must fail for it (decided from the catalogue before
// the run) and the broken gateway's options: an engine defect (Tamper)
// or a frame rewrite.
type monoSlip struct {
	name, rule string
	opts       server.Options
}

// monopolySlips are bugs an implementer of games.md's Monopoly section
// would plausibly write (docs/detection.md "Pyyol Monopoly (round 2)"),
// none of them in the older tables: a salary missed on a card's move,
// rent tables misread, the jail's fine and re-roll lost, a bankruptcy or a
// trade that moves half of what it should, a legal list that ignores the
// group or the cash, a turn counter that runs ahead, events numbered out
// of the game's order, a view hiding what it must show or showing what it
// must hide.
func monopolySlips() []monoSlip {
	tamper := tamperSlip
	return append([]monoSlip{
		tamper("an Advance card past GO pays no salary", "PYYOL-MONO-ECONOMY", server.MonopolyCardMoveNoSalary),
		tamper("railroad rent $25 per railroad held", "PYYOL-MONO-RENT", server.MonopolyRailroadLinear),
		tamper("the utilities' 4x and 10x swapped", "PYYOL-MONO-RENT", server.MonopolyUtilitySwapped),
		tamper("a whole group's built rent doubled too", "PYYOL-MONO-RENT", server.MonopolySetDoublesBuilt),
		tamper("no rent from a seat that rolled doubles", "PYYOL-MONO-RENT", server.MonopolyRentSkippedOnDoubles),
		tamper("unmortgage interest on the list price", "PYYOL-MONO-ACT-UNMORTGAGE", server.MonopolyUnmortgageOnPrice),
		tamper("the third failed jail roll takes no fine", "PYYOL-MONO-ACT-ROLL-JAIL", server.MonopolyThirdRollFree),
		tamper("doubles grant no re-roll", "PYYOL-MONO-ACT-END-TURN", server.MonopolyDoublesNoReroll),
		tamper("a bankrupt seat's holdings go to the bank, not its creditor", "PYYOL-MONO-ACT-BANKRUPT", server.MonopolyBankruptHoldingsToBank),
		tamper("a trade executed without the proposer's cash", "PYYOL-MONO-ACT-ACCEPT-TRADE", server.MonopolyTradeCashDropped),
		tamper("build listed without the cash for a house", "PYYOL-MONO-VIEW-LEGAL", server.MonopolyBuildWithoutCash),
		tamper("use_jail_card listed without a card", "PYYOL-MONO-VIEW-LEGAL", server.MonopolyJailCardListed),
		tamper("pay_jail takes the fine and the roll", "PYYOL-MONO-ACT-PAY-JAIL", server.MonopolyPayJailEndsRoll),
		tamper("the turn counter advanced at a turn's end and start", "PYYOL-MONO-WIN-TURN-CAP", server.MonopolyTurnCountTwice),
		tamper("the view showing the decks' order as card ids", "PYYOL-MONO-PERFECT-INFO", server.MonopolyDeckOrderLeaked),
		{"a move numbered before its roll", "PYYOL-MONO-EVENTS", server.Options{Rewrite: moveBeforeRoll()}},
		{"the view hiding the other seats' cash", "PYYOL-MONO-VIEW-STATE", server.Options{Rewrite: monoView(func(v map[string]any) {
			for i, p := range ints(v["state"].(map[string]any)["players"]) {
				if float64(i) != v["seat"] {
					delete(p.(map[string]any), "cash")
				}
			}
		})}},
		{"a move onto GO reported as square 40", "PYYOL-MONO-EV-MOVED", server.Options{Rewrite: set("event", "moved", func(f map[string]any) {
			if p := payload(f); p["to"] == 0.0 && p["from"] != 0.0 {
				p["to"] = 40.0
			}
		})}},
		// Round 3: monopolySlipsRound3 in broken_gateway_slips_round3_test.go;
		// Round 4: monopolySlipsRound4 in broken_gateway_slips_round4_test.go;
		// Round 5: monopolySlipsRound5 in broken_gateway_slips_round5_test.go;
		// Round 6: monopolySlipsRound6 in broken_gateway_slips_round6_test.go;
		// Round 7: monopolySlipsRound7 in broken_gateway_slips_round7_test.go.
	}, slices.Concat(monopolySlipsRound3(), monopolySlipsRound4(), monopolySlipsRound5(), monopolySlipsRound6(), monopolySlipsRound7())...)
}

// tamperSlip is a Monopoly slip planted as one engine defect.
func tamperSlip(name, rule string, t server.Tamper) monoSlip {
	return monoSlip{name, rule, server.Options{Tamper: t}}
}

// moveBeforeRoll numbers each roll's moved (or went_to_jail) event before
// its dice_rolled: the engine logs the token's move first and the dice
// after, seq still rising on the wire.
func moveBeforeRoll() server.Rewrite {
	var mu sync.Mutex
	held := map[any]map[string]any{}
	return server.EveryFrame(func(f map[string]any) []map[string]any {
		mu.Lock()
		defer mu.Unlock()
		id := f["match_id"]
		if f["t"] == "event" && evType(f) == "dice_rolled" {
			held[id] = f
			return nil
		}
		d := held[id]
		if f["t"] != "event" {
			out := []map[string]any{}
			for k, h := range held {
				out = append(out, h)
				delete(held, k)
			}
			return append(out, f)
		}
		if d == nil {
			return []map[string]any{f}
		}
		delete(held, id)
		d["seq"], f["seq"] = f["seq"], d["seq"]
		return []map[string]any{f, d}
	})
}

// catchMonopoly is catchGateway with Monopoly's turn timeout.
func catchMonopoly(t *testing.T, s monoSlip) { catchGateway(t, s.rule, s.opts, monoTurns) }

// TestMonopolySlipsAreCaught: each realistic Monopoly bug, planted alone
// behind the reference gateway, served over loopback and checked live
// with only its rule selected, fails naming that rule.
func TestMonopolySlipsAreCaught(t *testing.T) {
	t.Parallel()
	for _, s := range monopolySlips() {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			catchMonopoly(t, s)
		})
	}
}

// faithfulMonopolies take readings the Monopoly section leaves open next
// to the slips: the older editions' $75 luxury tax ("standard Monopoly"
// names no edition), an owner in jail collecting no rent and a street
// mortgaged while its group has houses (both planted as slips first; the
// catalogue leaves them to the reference's choice, PYYOL-MONO-REF-RENT
// and PYYOL-MONO-REF-MORTGAGE), the cap counting a doubles re-roll (the
// real platform's cap counts every roll), a re-roll opened as a turn of
// its own (turn_ended, then turn_started for the same seat, as the real
// platform's endTurn does), and a view listing the cards drawn so far
// (public, not the decks' order).
func faithfulMonopolies() []monoSlip {
	return append([]monoSlip{
		{"the older $75 luxury tax", "PYYOL-MONO-ECONOMY", server.Options{Tamper: server.MonopolyOlderLuxuryTax}},
		{"no rent for an owner in jail", "PYYOL-MONO-RENT,PYYOL-MONO-EV-RENT-PAID", server.Options{Tamper: server.MonopolyJailedOwnerNoRent}},
		{"a street mortgaged beside houses in its group", "PYYOL-MONO-VIEW-LEGAL,PYYOL-MONO-ACT-MORTGAGE", server.Options{Tamper: server.MonopolyMortgageBuiltGroup}},
		{"the turn cap counting a doubles re-roll", "PYYOL-MONO-WIN-TURN-CAP", server.Options{Tamper: server.MonopolyTurnCountPerRoll}},
		{"a doubles re-roll opened as a turn of its own", "PYYOL-MONO-ACT-END-TURN,PYYOL-MONO-PHASE-MACHINE,PYYOL-MONO-EVENTS,PYYOL-MONO-EV-TURN-STARTED", server.Options{Tamper: server.MonopolyRerollAsTurn}},
		{"a view listing the cards drawn so far", "PYYOL-MONO-PERFECT-INFO", server.Options{Rewrite: drawnCards()}},
		{"bids told as the new high bid, as the real platform's engine does", "PYYOL-MONO-ACT-BID,PYYOL-MONO-EV-BID-PLACED,PYYOL-MONO-EV-AUCTION-WON,PYYOL-MONO-MOVE-AMOUNT",
			server.Options{Rewrite: bidsAsNewHigh()}},
		{"a Free Parking pool of taxes alone, as the real platform's engine keeps it", "PYYOL-MONO-CFG-FREE-PARKING",
			server.Options{Tamper: server.MonopolyPoolTaxesOnly}},
		// Round 3: faithfulMonopoliesRound3 in broken_gateway_slips_round3_test.go;
		// Round 4: faithfulMonopoliesRound4 in broken_gateway_slips_round4_test.go;
		// Round 5: faithfulMonopoliesRound5 in broken_gateway_slips_round5_test.go;
		// Round 6: faithfulMonopoliesRound6 in broken_gateway_slips_round6_test.go;
		// Round 7: faithfulMonopoliesRound7 in broken_gateway_slips_round7_test.go.
	}, slices.Concat(faithfulMonopoliesRound3(), faithfulMonopoliesRound4(), faithfulMonopoliesRound5(), faithfulMonopoliesRound6(), faithfulMonopoliesRound7())...)
}

// bidsAsNewHigh tells every bid_placed as the real platform's engine
// (backend/internal/engine/monopoly, BidPayload) does: {seat, property,
// amount} with amount the new high bid and no high_bid beside it, where
// the docs call amount the raise (PYYOL-MONO-REF-AUCTION).
func bidsAsNewHigh() server.Rewrite {
	return server.EveryFrame(func(f map[string]any) []map[string]any {
		if f["t"] == "event" && evType(f) == "bid_placed" {
			if p := payload(f); p["high_bid"] != nil {
				p["amount"] = p["high_bid"]
				delete(p, "high_bid")
			}
		}
		return []map[string]any{f}
	})
}

// drawnCards adds to each Monopoly view the texts of the cards drawn so
// far in its match, newest last: public history, not the decks' order.
func drawnCards() server.Rewrite {
	var mu sync.Mutex
	drawn := []any{}
	return server.EveryFrame(func(f map[string]any) []map[string]any {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case f["t"] == "event" && evType(f) == "match_created":
			drawn = []any{}
		case f["t"] == "event" && evType(f) == "card_drawn":
			drawn = append(drawn, payload(f)["text"])
		case f["t"] == "turn" && gameOf(f) == "monopoly":
			view(f)["state"].(map[string]any)["drawn_cards"] = append([]any{}, drawn...)
		}
		return []map[string]any{f}
	})
}

// TestFaithfulMonopolyNeighboursPass: each faithful Monopoly gateway,
// checked live on its rules, fails and errs nothing and decides a check.
func TestFaithfulMonopolyNeighboursPass(t *testing.T) {
	t.Parallel()
	for _, c := range faithfulMonopolies() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.opts.TurnTimeout = monoTurns
			srv := httptest.NewServer(server.New(c.opts))
			defer srv.Close()
			harness.Faithful(t, suite.Config{Protocols: []*suite.Protocol{pyyol.Gateway()}, Target: srv.URL,
				Rules: strings.Split(c.rule, ","), Seed: 7, NoProperties: true,
				Settings: gatewaySettings.With("turn-timeout", monoTurns.String())}, 1)
		})
	}
}
