package pyyol

// The Monopoly event model the checks read. games.md leaves the payloads
// to "read legal_actions", so the real platform
// (backend/internal/engine/monopoly/events.go) chose its own names and
// the reference now sends them (docs/pyyol-monopoly-layout.md);
// normalizeMonoPayload maps them, and the kit's earlier spelling, onto
// the model, so a check never depends on which spelling a deployment
// speaks. The model: turn, dice, how, card, a nested trade, winners, and
// on every event that moves money between a seat and the bank a signed
// amount (what the seat received) and, on cash_changed, cash (its cash
// after).

// monoTradeFields are the fields of a trade the real platform sends flat
// in the payload, where the model nests them under trade.
var monoTradeFields = []string{"proposer", "target", "give_props", "give_cash", "want_props", "want_cash"}

// monoRenames are, per event type, a field of the real platform and the
// model's name for it, used only when the model's name is absent.
var monoRenames = map[string][][2]string{
	"turn_started": {{"turn_count", "turn"}},
	"turn_ended":   {{"turn_count", "turn"}},
	"left_jail":    {{"method", "how"}},
	"card_drawn":   {{"text", "card"}},
	"cash_changed": {{"delta", "amount"}, {"balance", "cash"}},
}

// normalizeMonoPayload maps one event payload onto the model: renamed
// fields, the dice as die1 and die2, a flat trade, a single winner, the
// money of a purchase, an auction and an unmortgage signed, a rent's
// reason from its property. Fields already in the model's spelling are
// never overwritten.
func normalizeMonoPayload(typ string, p map[string]any) map[string]any {
	if p == nil {
		return p
	}
	for _, r := range monoRenames[typ] {
		if _, has := p[r[1]]; !has && p[r[0]] != nil {
			p[r[1]] = p[r[0]]
		}
	}
	switch typ {
	case "dice_rolled":
		if _, has := p["dice"]; !has && p["die1"] != nil && p["die2"] != nil {
			p["dice"] = []any{p["die1"], p["die2"]}
		}
	case "trade_proposed", "trade_executed", "trade_rejected":
		nestTrade(p)
	case "match_finished":
		if w, ok := p["winner"].(float64); ok && p["winners"] == nil && w >= 0 {
			p["winners"] = []any{w}
		}
	case "property_purchased", "auction_won", "unmortgaged":
		signMoneyOut(typ, p)
	case "rent_paid":
		rentReason(p)
	case "bid_placed":
		bidTotal(p)
	}
	return p
}

// bidTotal reads a bid the platform's way when it has no high_bid: its
// amount is then the new high bid (engine.go stepAuction), not the raise
// the kit's spelling names beside high_bid, so the model keeps it as
// high_bid and has no raise.
func bidTotal(p map[string]any) {
	if _, has := p["high_bid"]; has {
		return
	}
	if a, ok := p["amount"]; ok {
		p["high_bid"] = a
		delete(p, "amount")
	}
}

// signMoneyOut gives the model's signed amount (negative: the seat paid)
// to the events the platform sends with a positive figure: a purchase's
// price, an auction's amount paid (the model's price), an unmortgage's
// cost.
func signMoneyOut(typ string, p map[string]any) {
	switch price, hasPrice := p["price"].(float64); {
	case typ == "property_purchased" && hasPrice && p["amount"] == nil:
		p["amount"] = -price
	case typ == "auction_won" && !hasPrice:
		if a, ok := p["amount"].(float64); ok {
			p["price"], p["amount"] = a, -a
		}
	case typ == "unmortgaged":
		if a, ok := p["amount"].(float64); ok && a > 0 {
			p["amount"] = -a
		}
	}
}

// rentReason names a payment between seats the platform sends without a
// reason: a rent when it names the property, else a card's.
func rentReason(p map[string]any) {
	if _, has := p["reason"]; has {
		return
	}
	if sq, ok := p["property"].(float64); ok && sq >= 0 {
		p["reason"] = "rent"
		return
	}
	p["reason"] = "card"
}

// nestTrade gathers a flat trade's fields under trade.
func nestTrade(p map[string]any) {
	if _, has := p["trade"]; has || p["proposer"] == nil {
		return
	}
	t := map[string]any{}
	for _, k := range monoTradeFields {
		if v, ok := p[k]; ok {
			t[k] = v
		}
	}
	p["trade"] = t
}

// monoBooksOwnMoney reports whether an event's own amount is money to
// book: the platform books the money of a building, a sale and a
// (un)mortgage in a cash_changed of its own, so only an event marked
// with the kit's "source" carries it (PYYOL-MONO-REF-LEDGER).
func monoBooksOwnMoney(typ string, p map[string]any) bool {
	switch typ {
	case "house_built", "house_sold", "mortgaged", "unmortgaged":
		return p["source"] != nil
	}
	return true
}
