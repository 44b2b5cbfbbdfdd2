package pyyol

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// refTestBoard is a referee board on the standard board with two seats
// on $1500.
func refTestBoard(t *testing.T) *refBoard {
	t.Helper()
	board, err := monopoly.StandardBoard()
	require.NoError(t, err)
	b := &refBoard{board: board, salary: 200, owner: map[int]int{}, houses: map[int]int{}, mortgaged: map[int]bool{},
		wonBy: map[int]int{}, jailed: map[int]bool{}, ledger: &monoLedger{cash: []int{1500, 1500}, ok: true}}
	for sq := range board.Squares {
		if board.Ownable(sq) {
			b.owner[sq] = -1
		}
	}
	return b
}

// ev is an event frame of type typ with payload p.
func ev(seq int, typ string, p map[string]any) frame {
	raw, _ := json.Marshal(p)
	return frame{Seq: seq, Type: typ, Payload: raw}
}

// TestRefereeRentReadings: the rents standard Monopoly allows, every
// reading the contract leaves open accepted and a wrong figure refused.
func TestRefereeRentReadings(t *testing.T) {
	b := refTestBoard(t)
	b.owner[1], b.owner[3] = 1, 1 // Mediterranean and Baltic: a whole group
	assert.Equal(t, []int{4}, b.rentReadings(1, false), "base rent doubled on a whole, unmortgaged group")
	b.mortgaged[3] = true
	assert.ElementsMatch(t, []int{4, 2}, b.rentReadings(1, false), "a mortgaged member: doubled or not")
	b.mortgaged[3], b.houses[1] = false, 5
	assert.Equal(t, []int{b.board.Squares[1].Rent[5]}, b.rentReadings(1, false), "a hotel")
	b.owner[5], b.owner[15], b.owner[25] = 0, 0, 0
	assert.Equal(t, []int{100, 100}, b.rentReadings(5, false), "three railroads")
	assert.Contains(t, b.rentReadings(5, true), 200, "a card's move may double it")
	b.owner[12], b.owner[28], b.dice = 0, 0, 7
	assert.Contains(t, b.rentReadings(12, false), 70, "both utilities: 10x the dice")
	assert.NotContains(t, b.rentReadings(12, false), 28, "both utilities never charge 4x")
}

// TestRefereeTaxReadings: Income Tax $200 or the older 10% of worth,
// Luxury Tax $100 or the older $75; nothing else.
func TestRefereeTaxReadings(t *testing.T) {
	b := refTestBoard(t)
	income, luxury := 4, 38
	assert.Contains(t, b.taxReadings(0, income), 200)
	assert.Contains(t, b.taxReadings(0, income), 150, "10% of $1500")
	assert.NotContains(t, b.taxReadings(0, income), 100)
	assert.ElementsMatch(t, []int{100, 75}, b.taxReadings(0, luxury))
}

// TestRefereeSalary: one salary for a dice move past GO passes; none, two,
// or one on the way to jail fail PYYOL-MONO-ECONOMY; a card's own $200
// after the move is no second salary.
func TestRefereeSalary(t *testing.T) {
	run := func(events ...frame) error {
		b := refTestBoard(t)
		for _, e := range events {
			if err := b.event(e); err != nil {
				return err
			}
		}
		return nil
	}
	roll := ev(1, "dice_rolled", map[string]any{"seat": 0, "dice": []any{3.0, 4.0}})
	move := ev(2, "moved", map[string]any{"seat": 0, "from": 38.0, "to": 5.0})
	pay := func(seq int) frame {
		return ev(seq, "cash_changed", map[string]any{"seat": 0, "amount": 200.0, "reason": "go_salary"})
	}
	end := ev(9, "turn_ended", map[string]any{"seat": 0})
	assert.NoError(t, run(roll, move, pay(3), end))
	assertFails(t, "PYYOL-MONO-ECONOMY", run(roll, move, end))
	assertFails(t, "PYYOL-MONO-ECONOMY", run(roll, move, pay(3), pay(4), end))
	jail := ev(2, "went_to_jail", map[string]any{"seat": 0, "from": 30.0})
	assertFails(t, "PYYOL-MONO-ECONOMY", run(roll, jail, pay(3), end))
	chest := ev(2, "moved", map[string]any{"seat": 0, "from": 35.0, "to": 2.0})
	card := ev(4, "card_drawn", map[string]any{"seat": 0})
	assert.NoError(t, run(roll, chest, pay(3), card, pay(5), end))
}

// TestRefereeDeckSearch: a deck's order shows by value or under a deck
// key; counts and a single card text do not.
func TestRefereeDeckSearch(t *testing.T) {
	board, err := monopoly.StandardBoard()
	require.NoError(t, err)
	c := board.Chance
	leak, _ := json.Marshal(map[string]any{"state": map[string]any{"upcoming": []any{c[0].Text, c[1].Text, c[2].Text}}})
	keyed, _ := json.Marshal(map[string]any{"state": map[string]any{"chance_deck": []any{"a", "b"}}})
	counts, _ := json.Marshal(map[string]any{"state": map[string]any{"decks": []any{16.0, 16.0}, "last_card": c[0].Text}})
	for _, read := range []func(json.RawMessage) any{asRead, asKept} {
		assertFails(t, "PYYOL-MONO-PERFECT-INFO", judgeDecks(board, 0, read(leak), cardDraws{}))
		assertFails(t, "PYYOL-MONO-PERFECT-INFO", judgeDecks(board, 0, read(keyed), cardDraws{}))
		assert.NoError(t, judgeDecks(board, 0, read(counts), cardDraws{}))
	}
}

// asRead and asKept are a view's body as monoTurn.decodedBody gives it:
// decoded on the spot (json.Unmarshal) or the tree the reader kept
// (decodeJSON, numbers as json.Number).
func asRead(raw json.RawMessage) any { return (&monoTurn{body: raw}).decodedBody() }
func asKept(raw json.RawMessage) any { v, _ := decodeJSON(raw); return v }

// assertFails wants err to be a failure naming rule.
func assertFails(t *testing.T, rule string, err error) {
	t.Helper()
	if assert.Error(t, err) {
		assert.Contains(t, err.Error(), rule)
	}
}
