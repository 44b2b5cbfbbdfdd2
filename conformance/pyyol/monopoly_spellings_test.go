package pyyol_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// kitMonopolySpelling rewrites the reference's Monopoly events (the real
// platform's field names) into the kit's earlier spelling: turn, a dice
// pair, how, card, a nested trade, winners, amount and cash on
// cash_changed, a purchase's and an auction's money signed beside its
// price, an unmortgage's cost negative. (The earlier spelling's money on
// a building's own event is read by TestMonopolyLedgerBooksBothSpellings:
// merging the cash_changed before it would hold a frame back.)
func kitMonopolySpelling(f map[string]any) []map[string]any {
	p, _ := f["payload"].(map[string]any)
	if f["t"] == "turn" && p != nil && p["game"] == "monopoly" {
		kitMonopolyState(p["state"].(map[string]any))
	}
	if f["t"] != "event" || p == nil {
		return []map[string]any{f}
	}
	rename := func(from, to string) {
		if v, ok := p[from]; ok {
			p[to] = v
			delete(p, from)
		}
	}
	switch f["kind"] {
	case "turn_started", "turn_ended":
		rename("turn_count", "turn")
	case "dice_rolled":
		p["dice"] = []any{p["die1"], p["die2"]}
		delete(p, "die1")
		delete(p, "die2")
	case "left_jail":
		rename("method", "how")
	case "card_drawn":
		rename("text", "card")
	case "cash_changed":
		rename("delta", "amount")
		rename("balance", "cash")
		p["source"] = "bank"
	case "property_purchased":
		p["amount"], p["source"] = -p["price"].(float64), "bank"
	case "auction_won":
		p["price"], p["amount"] = p["amount"], -p["amount"].(float64)
	case "unmortgaged":
		p["amount"] = -p["amount"].(float64)
	case "trade_proposed", "trade_executed", "trade_rejected":
		nestTradeFields(p)
	case "match_finished":
		delete(p, "winner")
	}
	return []map[string]any{f}
}

// kitMonopolyState rewrites a view's state into the kit's earlier
// layout: only the ownable squares, each naming its square, turn,
// bank_houses, bank_hotels, trade and a debt's seat and creditors.
func kitMonopolyState(st map[string]any) {
	b, err := monopoly.StandardBoard()
	if err != nil {
		panic(err)
	}
	var holdings []any
	for sq, h := range st["holdings"].([]any) {
		if h := h.(map[string]any); b.Ownable(sq) {
			h["square"] = float64(sq)
			holdings = append(holdings, h)
		}
	}
	st["holdings"] = holdings
	for from, to := range map[string]string{"turn_count": "turn", "houses_remaining": "bank_houses",
		"hotels_remaining": "bank_hotels", "pending_trade": "trade", "last_roll": "dice"} {
		if v, ok := st[from]; ok {
			st[to] = v
			delete(st, from)
		}
	}
	if d, ok := st["debt"].(map[string]any); ok {
		d["seat"] = d["debtor"]
		delete(d, "debtor")
		delete(d, "creditor")
	}
}

// nestTradeFields moves a flat trade's fields under trade.
func nestTradeFields(p map[string]any) {
	t := map[string]any{}
	for _, k := range []string{"proposer", "target", "give_props", "give_cash", "want_props", "want_cash"} {
		t[k] = p[k]
		delete(p, k)
	}
	p["trade"] = t
}

// platformOnlySpelling strips from the reference's Monopoly events the
// fields the real platform does not send and no money check needs: a
// card's kind, a jailing's from, a counter's mark, the rule set, the
// shared winners and the finish's reason.
func platformOnlySpelling(f map[string]any) []map[string]any {
	if p, _ := f["payload"].(map[string]any); f["t"] == "event" && p != nil {
		for _, k := range []string{"kind", "from", "counter", "rules", "winners", "reason", "version"} {
			if k == "from" && f["kind"] != "went_to_jail" || k == "reason" && f["kind"] != "match_finished" {
				continue
			}
			delete(p, k)
		}
	}
	return []map[string]any{f}
}

// monopolySpellingRules are the rules the spelling tests run: the shadow
// referee's money, the view's legal actions and board, the turn cap,
// end_turn, an accepted trade, buildings and debts.
var monopolySpellingRules = []string{"PYYOL-MONO-RENT", "PYYOL-MONO-ECONOMY", "PYYOL-MONO-VIEW-LEGAL", "PYYOL-MONO-WIN-TURN-CAP",
	"PYYOL-MONO-ACT-END-TURN", "PYYOL-MONO-ACT-ACCEPT-TRADE", "PYYOL-MONO-EV-CASH-CHANGED", "PYYOL-MONO-PERFECT-INFO",
	"PYYOL-MONO-VIEW-STATE", "PYYOL-MONO-ACT-BUILD", "PYYOL-MONO-PHASE-RESOLVE-DEBT"}

// runMonopolySpelling serves the reference gateway with its frames
// rewritten by edit and fails t on any failed rule.
func runMonopolySpelling(t *testing.T, edit func(map[string]any) []map[string]any) {
	srv := httptest.NewServer(server.New(server.Options{Rewrite: server.EveryFrame(edit), TurnTimeout: 10 * time.Second}))
	defer srv.Close()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{pyyol.Gateway()}, Target: srv.URL,
		Rules: monopolySpellingRules, Seed: 7, NoProperties: true, CaseDir: t.TempDir(), Settings: gatewaySettings.With("turn-timeout", "10s")})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ExitCode() != 0 {
		t.Errorf("exit %d: %v", rep.ExitCode(), failedRules(rep))
	}
}

// TestMonopolyPlatformSpellingPassesLive: normalize, then judge. A
// gateway whose Monopoly events carry only the real platform's fields
// fails no check of the shadow referee, the money rules or the turn cap.
func TestMonopolyPlatformSpellingPassesLive(t *testing.T) {
	t.Parallel()
	runMonopolySpelling(t, platformOnlySpelling)
}

// TestMonopolyKitSpellingPassesLive: the kit's earlier spelling (nested
// trade, dice pair, turn, signed amounts) still decodes to the same model
// and fails nothing.
func TestMonopolyKitSpellingPassesLive(t *testing.T) {
	t.Parallel()
	runMonopolySpelling(t, kitMonopolySpelling)
}
