package pyyol

// The Monopoly event model the checks read is the kit's reference
// spelling. games.md leaves the payloads to "read legal_actions", so the
// real platform (backend/internal/engine/monopoly) chose its own names
// for some fields; normalizeMonoPayload maps them onto the model, so a
// check never depends on which spelling a deployment speaks.

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
}

// normalizeMonoPayload maps one event payload onto the model: renamed
// fields, the dice as die1 and die2, a flat trade, a single winner.
// Fields already in the model's spelling are never overwritten.
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
	}
	return p
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
