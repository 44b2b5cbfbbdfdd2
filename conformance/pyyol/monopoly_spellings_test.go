package pyyol_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
	"github.com/agentgames/conformance/reference/pyyol/server"
	"github.com/agentgames/conformance/spec"
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

// platformOnlySpelling strips from the reference's Monopoly frames the
// fields the real platform does not send: the pool's balance on a
// free-parking cash_changed, and in a view's state the cards left in each
// deck, the rule set and a debt's creditors.
func platformOnlySpelling(f map[string]any) []map[string]any {
	p, _ := f["payload"].(map[string]any)
	switch {
	case p == nil:
	case f["t"] == "event" && f["kind"] == "cash_changed":
		delete(p, "pool")
	case f["t"] == "turn" && p["game"] == "monopoly":
		st := p["state"].(map[string]any)
		for _, k := range []string{"chance_cards", "community_chest_cards", "rules"} {
			delete(st, k)
		}
		if d, ok := st["debt"].(map[string]any); ok {
			delete(d, "creditors")
		}
	}
	return []map[string]any{f}
}

// monopolyGatewayRules are the catalogue's Monopoly rules but the push
// protocol's: every one the gateway's scenarios check.
func monopolyGatewayRules(t *testing.T) []string {
	c, err := spec.Load("pyyol")
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, r := range c.Rules {
		if strings.HasPrefix(r.ID, "PYYOL-MONO-") && !strings.Contains(r.ID, "-PUSH-") {
			rules = append(rules, r.ID)
		}
	}
	return rules
}

// runMonopolySpelling serves the reference gateway with its frames
// rewritten by edit and fails t on any failed rule.
func runMonopolySpelling(t *testing.T, edit func(map[string]any) []map[string]any) {
	srv := httptest.NewServer(server.New(server.Options{Rewrite: server.EveryFrame(edit), TurnTimeout: 10 * time.Second}))
	defer srv.Close()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{pyyol.Gateway()}, Target: srv.URL,
		Rules: monopolyGatewayRules(t), Seed: 7, NoProperties: true, CaseDir: t.TempDir(), Settings: gatewaySettings.With("turn-timeout", "10s")})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ExitCode() != 0 {
		t.Errorf("exit %d: %v", rep.ExitCode(), failedRules(rep))
	}
}

// TestMonopolyPlatformSpellingPassesLive: normalize, then judge. A
// gateway whose Monopoly frames carry only the real platform's fields
// fails no Monopoly rule.
func TestMonopolyPlatformSpellingPassesLive(t *testing.T) {
	t.Parallel()
	runMonopolySpelling(t, platformOnlySpelling)
}

// TestMonopolyKitSpellingPassesLive: the kit's earlier spelling (nested
// trade, dice pair, turn, signed amounts, a list of ownable squares)
// still decodes to the same model and fails no Monopoly rule.
func TestMonopolyKitSpellingPassesLive(t *testing.T) {
	t.Parallel()
	runMonopolySpelling(t, kitMonopolySpelling)
}
