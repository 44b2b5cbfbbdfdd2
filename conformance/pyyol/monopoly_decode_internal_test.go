package pyyol

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMonopolyEventsDecodeToOneModel: the real platform's field names and
// the reference's decode to the same model, and a field already in the
// model's spelling is kept.
func TestMonopolyEventsDecodeToOneModel(t *testing.T) {
	cases := []struct {
		name      string
		typ       string
		in, model map[string]any
	}{
		{"turn_count", "turn_started", map[string]any{"seat": 0.0, "turn_count": 3.0}, map[string]any{"seat": 0.0, "turn_count": 3.0, "turn": 3.0}},
		{"turn", "turn_started", map[string]any{"seat": 0.0, "turn": 3.0}, map[string]any{"seat": 0.0, "turn": 3.0}},
		{"die1 die2", "dice_rolled", map[string]any{"die1": 2.0, "die2": 5.0, "total": 7.0},
			map[string]any{"die1": 2.0, "die2": 5.0, "total": 7.0, "dice": []any{2.0, 5.0}}},
		{"dice", "dice_rolled", map[string]any{"dice": []any{1.0, 1.0}}, map[string]any{"dice": []any{1.0, 1.0}}},
		{"method", "left_jail", map[string]any{"seat": 1.0, "method": "paid"}, map[string]any{"seat": 1.0, "method": "paid", "how": "paid"}},
		{"flat trade", "trade_executed", map[string]any{"proposer": 0.0, "target": 1.0, "give_cash": 50.0},
			map[string]any{"proposer": 0.0, "target": 1.0, "give_cash": 50.0, "trade": map[string]any{"proposer": 0.0, "target": 1.0, "give_cash": 50.0}}},
		{"nested trade", "trade_executed", map[string]any{"trade": map[string]any{"proposer": 0.0}}, map[string]any{"trade": map[string]any{"proposer": 0.0}}},
		{"one winner", "match_finished", map[string]any{"winner": 2.0}, map[string]any{"winner": 2.0, "winners": []any{2.0}}},
		{"a tie", "match_finished", map[string]any{"winner": -1.0}, map[string]any{"winner": -1.0}},
		{"delta balance", "cash_changed", map[string]any{"seat": 1.0, "delta": -50.0, "balance": 950.0, "reason": "jail_fine"},
			map[string]any{"seat": 1.0, "delta": -50.0, "balance": 950.0, "reason": "jail_fine", "amount": -50.0, "cash": 950.0}},
		{"amount cash", "cash_changed", map[string]any{"seat": 1.0, "amount": 200.0, "cash": 1700.0, "source": "bank"},
			map[string]any{"seat": 1.0, "amount": 200.0, "cash": 1700.0, "source": "bank"}},
		{"a price", "property_purchased", map[string]any{"seat": 0.0, "property": 1.0, "price": 60.0},
			map[string]any{"seat": 0.0, "property": 1.0, "price": 60.0, "amount": -60.0}},
		{"a price and its amount", "property_purchased", map[string]any{"price": 60.0, "amount": -60.0, "source": "bank"},
			map[string]any{"price": 60.0, "amount": -60.0, "source": "bank"}},
		{"an auction's amount paid", "auction_won", map[string]any{"seat": 2.0, "property": 5.0, "amount": 31.0},
			map[string]any{"seat": 2.0, "property": 5.0, "amount": -31.0, "price": 31.0}},
		{"an auction's price", "auction_won", map[string]any{"price": 31.0, "amount": -31.0}, map[string]any{"price": 31.0, "amount": -31.0}},
		{"an unmortgage's cost", "unmortgaged", map[string]any{"property": 1.0, "amount": 33.0}, map[string]any{"property": 1.0, "amount": -33.0}},
		{"an unmortgage's signed cost", "unmortgaged", map[string]any{"amount": -33.0}, map[string]any{"amount": -33.0}},
		{"a rent's property", "rent_paid", map[string]any{"from": 0.0, "to": 1.0, "property": 3.0, "amount": 4.0},
			map[string]any{"from": 0.0, "to": 1.0, "property": 3.0, "amount": 4.0, "reason": "rent"}},
		{"a card's payment", "rent_paid", map[string]any{"from": 0.0, "to": 1.0, "property": -1.0, "amount": 50.0},
			map[string]any{"from": 0.0, "to": 1.0, "property": -1.0, "amount": 50.0, "reason": "card"}},
		{"a bid's new high bid", "bid_placed", map[string]any{"seat": 1.0, "property": 5.0, "amount": 12.0},
			map[string]any{"seat": 1.0, "property": 5.0, "high_bid": 12.0}},
		{"a raise and its high bid", "bid_placed", map[string]any{"amount": 1.0, "high_bid": 12.0}, map[string]any{"amount": 1.0, "high_bid": 12.0}},
		{"a rent's reason", "rent_paid", map[string]any{"amount": 4.0, "reason": "rent"}, map[string]any{"amount": 4.0, "reason": "rent"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if d := cmp.Diff(c.model, normalizeMonoPayload(c.typ, c.in)); d != "" {
				t.Errorf("model (-want +got):\n%s", d)
			}
		})
	}
}

// TestMonopolyOwnMoneyBookedOnce: a building, a sale or a (un)mortgage in
// the platform's spelling leaves its money to the cash_changed beside it;
// in the kit's, marked with source, the event carries it.
func TestMonopolyOwnMoneyBookedOnce(t *testing.T) {
	cases := []struct {
		typ  string
		p    map[string]any
		want bool
	}{
		{"mortgaged", map[string]any{"amount": 30.0}, false},
		{"mortgaged", map[string]any{"amount": 30.0, "source": "bank"}, true},
		{"house_built", map[string]any{"houses": 1.0}, false},
		{"house_sold", map[string]any{"amount": 25.0, "source": "bank"}, true},
		{"cash_changed", map[string]any{"delta": -30.0}, true},
		{"auction_won", map[string]any{"amount": 31.0}, true},
	}
	for _, c := range cases {
		if got := monoBooksOwnMoney(c.typ, c.p); got != c.want {
			t.Errorf("%s %v: booked %v, want %v", c.typ, c.p, got, c.want)
		}
	}
}

// TestMonopolyLedgerBooksBothSpellings: one purchase, one built house and
// a bankruptcy, booked from the platform's spelling (money in its own
// cash_changed, no cash on bankrupt) and from the kit's earlier one, end
// in the same balances.
func TestMonopolyLedgerBooksBothSpellings(t *testing.T) {
	ev := func(typ, p string) frame { return frame{Type: typ, Payload: []byte(p)} }
	platform := []frame{
		ev("property_purchased", `{"seat":0,"property":1,"price":60}`),
		ev("cash_changed", `{"seat":0,"delta":-50,"balance":1390,"reason":"build"}`),
		ev("house_built", `{"seat":0,"property":1,"houses":1}`),
		ev("auction_won", `{"seat":1,"property":3,"amount":31}`),
		ev("cash_changed", `{"seat":1,"delta":1390,"balance":2859,"reason":"bankruptcy_estate"}`),
		ev("bankrupt", `{"seat":0,"creditor":1}`),
	}
	kit := []frame{
		ev("property_purchased", `{"seat":0,"property":1,"price":60,"amount":-60,"source":"bank"}`),
		ev("house_built", `{"seat":0,"property":1,"houses":1,"amount":-50,"source":"bank"}`),
		ev("auction_won", `{"seat":1,"property":3,"price":31,"amount":-31,"source":"bank"}`),
		ev("bankrupt", `{"seat":0,"creditor":1,"cash":1390}`),
	}
	for name, events := range map[string][]frame{"platform": platform, "kit": kit} {
		l := &monoLedger{cash: []int{1500, 1500}, ok: true}
		for _, e := range events {
			l.book(e)
		}
		if !l.ok || l.cash[0] != 0 || l.cash[1] != 2859 {
			t.Errorf("%s spelling: ok %v, cash %v, want [0 2859]", name, l.ok, l.cash)
		}
	}
}

// TestMonopolyStatesDecodeToOneModel: a view's state in the platform's
// layout (40 holdings indexed by square, turn_count, houses_remaining,
// pending_trade, a debt's debtor and creditor), in the kit's earlier one
// and with players and holdings keyed by index decode to one model.
func TestMonopolyStatesDecodeToOneModel(t *testing.T) {
	platform := `{"players":[{"seat":0,"cash":1400},{"seat":1,"cash":1500}],"holdings":[{"owner":-1,"houses":0,"mortgaged":false},{"owner":0,"houses":1,"mortgaged":false}],` +
		`"turn_count":4,"houses_remaining":31,"hotels_remaining":12,"pending_trade":{"proposer":1,"target":0},"debt":{"debtor":0,"creditor":1,"amount":90}}`
	kit := `{"players":[{"cash":1400},{"cash":1500}],"holdings":[{"square":0,"owner":-1,"houses":0},{"square":1,"owner":0,"houses":1}],` +
		`"turn":4,"bank_houses":31,"bank_hotels":12,"trade":{"proposer":1,"target":0},"debt":{"seat":0,"creditors":[1],"amount":90}}`
	keyed := `{"players":{"1":{"cash":1500},"0":{"cash":1400}},"holdings":{"1":{"owner":0,"houses":1},"0":{"owner":-1}},` +
		`"turn_count":4,"houses_remaining":31,"hotels_remaining":12,"pending_trade":{"proposer":1,"target":0},"debt":{"debtor":0,"creditor":1,"amount":90}}`
	model := func(raw string) string {
		var s monoState
		if err := json.Unmarshal([]byte(raw), &s); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if s.Debt != nil {
			s.Debt.Debtor, s.Debt.Creditor = nil, nil
		}
		b, _ := json.Marshal(s)
		return string(b)
	}
	want := model(kit)
	for name, raw := range map[string]string{"platform": platform, "keyed by index": keyed} {
		if got := model(raw); got != want {
			t.Errorf("%s layout: model %s, want %s", name, got, want)
		}
	}
	var s monoState
	if json.Unmarshal([]byte(`{"players":{"me":{}},"holdings":[]}`), &s) == nil {
		t.Errorf("players keyed by a name decoded")
	}
}
