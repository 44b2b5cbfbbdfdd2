package pyyol

import (
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
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if d := cmp.Diff(c.model, normalizeMonoPayload(c.typ, c.in)); d != "" {
				t.Errorf("model (-want +got):\n%s", d)
			}
		})
	}
}
