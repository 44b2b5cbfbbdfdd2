package pyyol

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
)

// cardMoney is the money a drawn card's own text fixes ("Standard
// Monopoly", PYYOL-MONO-ECONOMY): a chairman's card pays every other
// solvent seat its amount, a birthday card collects its amount from every
// other solvent seat, a repairs card charges its rate per house and per
// hotel. The text is the card's own, whatever the platform's deck, so no
// deck is assumed: a card whose text states none of these is not judged.
type cardMoney struct {
	seat, seq   int
	kind        string
	n, house    int
	hotel, cost int
	cash        []int       // every seat's cash when the card was drawn
	others      []int       // the other solvent seats
	moved       map[int]int // pay_each: paid to each seat; collect_each: taken from each
	charged     int         // repairs: what the drawer paid the bank
}

var (
	payEachText     = regexp.MustCompile(`pay each player \$(\d+)`)
	collectEachText = regexp.MustCompile(`collect \$(\d+) from (?:every|each) (?:other )?player`)
	repairsText     = regexp.MustCompile(`\$(\d+) per house,? \$(\d+) per hotel`)
)

// readCard classifies a card's text: pay_each, collect_each or repairs
// with their amounts, or "".
func readCard(text string) (kind string, n, hotel int) {
	t := strings.ToLower(text)
	atoi := func(s string) int { v, _ := strconv.Atoi(s); return v }
	if m := payEachText.FindStringSubmatch(t); m != nil {
		return "pay_each", atoi(m[1]), 0
	}
	if m := collectEachText.FindStringSubmatch(t); m != nil {
		return "collect_each", atoi(m[1]), 0
	}
	if m := repairsText.FindStringSubmatch(t); m != nil {
		return "repairs", atoi(m[1]), atoi(m[2])
	}
	return "", 0, 0
}

// openCard starts judging a card_drawn's money, when the ledger knows
// every seat's cash (so a payment the cash cannot cover, a debt, is told
// apart and left undecided).
func (b *refBoard) openCard(e frame, p map[string]any, seat int) {
	text, _ := p["text"].(string)
	if text == "" {
		text, _ = p["card"].(string)
	}
	kind, n, hotel := readCard(text)
	if kind == "" || b.ledger == nil || !b.ledger.ok || seat < 0 || seat >= len(b.ledger.cash) {
		return
	}
	c := &cardMoney{seat: seat, seq: e.Seq, kind: kind, n: n, house: n, hotel: hotel,
		cash: append([]int(nil), b.ledger.cash...), moved: map[int]int{}}
	for s := range b.ledger.cash {
		if s != seat && !b.out[s] {
			c.others = append(c.others, s)
		}
	}
	if kind == "repairs" {
		for sq, o := range b.owner {
			if o != seat {
				continue
			}
			if h := b.houses[sq]; h == 5 {
				c.cost += hotel
			} else {
				c.cost += h * n
			}
		}
	}
	b.card = c
}

// noteCard books a payment inside an open card's window.
func (b *refBoard) noteCard(e frame, p map[string]any) {
	c := b.card
	if c == nil {
		return
	}
	amount, _ := fieldInt(p, "amount")
	switch e.Type {
	case "rent_paid":
		from, _ := fieldInt(p, "from")
		to, _ := fieldInt(p, "to")
		switch {
		case c.kind == "pay_each" && from == c.seat:
			c.moved[to] += amount
		case c.kind == "collect_each" && to == c.seat:
			c.moved[from] += amount
		}
	case "cash_changed":
		// A building, a mortgage or its interest in the manage phase that
		// follows is no part of the card (monoManagedMoney).
		r, _ := p["reason"].(string)
		if seat, _ := fieldInt(p, "seat"); c.kind == "repairs" && seat == c.seat && amount < 0 && !monoManagedMoney[r] {
			c.charged -= amount
		}
	}
}

// closeCard judges the card's money at the end of its window: every
// payment the cash covered was made in full (PYYOL-MONO-ECONOMY).
func (b *refBoard) closeCard(e frame) error {
	c := b.card
	b.card = nil
	if c == nil {
		return nil
	}
	where := fmt.Sprintf("seat %d's card drawn at event %d, before event %d", c.seat, c.seq, e.Seq)
	switch c.kind {
	case "pay_each":
		if c.cash[c.seat] < c.n*len(c.others) {
			return nil
		}
		for _, o := range c.others {
			if c.moved[o] != c.n {
				return verdict.Failf("PYYOL-MONO-ECONOMY", fmt.Sprintf("$%d to each of seats %v", c.n, c.others), fmt.Sprintf("$%d to seat %d", c.moved[o], o), "%s", where)
			}
		}
	case "collect_each":
		for _, o := range c.others {
			if c.cash[o] >= c.n && c.moved[o] != c.n {
				return verdict.Failf("PYYOL-MONO-ECONOMY", fmt.Sprintf("$%d from each of seats %v", c.n, c.others), fmt.Sprintf("$%d from seat %d", c.moved[o], o), "%s", where)
			}
		}
	case "repairs":
		if c.cash[c.seat] >= c.cost && c.charged != c.cost {
			return verdict.Failf("PYYOL-MONO-ECONOMY", fmt.Sprintf("$%d: $%d a house, $%d a hotel", c.cost, c.house, c.hotel), c.charged, "%s", where)
		}
	}
	return nil
}

// cardsPaid replays a match's events for the cards' money alone, so a
// scenario of the economy judges it without the rest of the referee
// (PYYOL-MONO-ECONOMY; the referee's own scenarios judge it in
// refBoard.event).
func (m *monoRun) cardsPaid() error {
	board := standardBoard()
	if board == nil {
		return nil
	}
	b := m.newRefBoard(board)
	for _, e := range m.events {
		p, seat, sq := b.read(e)
		switch e.Type {
		case "dice_rolled", "turn_started", "turn_ended", "went_to_jail", "match_finished", "moved", "card_drawn":
			if err := b.closeCard(e); err != nil {
				return err
			}
			if e.Type == "card_drawn" {
				b.openCard(e, p, seat)
			}
		default:
			_ = b.holdingEvent(e, p, seat, sq) // the owners and buildings; their figures are the referee's
		}
	}
	return nil
}
