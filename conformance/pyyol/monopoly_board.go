package pyyol

import (
	"fmt"
	"maps"
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// monoBoard follows tokens, jail, owners and mortgages through the events
// between views, to find a change a view shows that no event announced.
type monoBoard struct {
	board     *monopoly.Board
	pos       map[int]int
	jailed    map[int]bool
	owner     map[int]int
	mortgaged map[int]bool
	card      map[int]bool // a seat on Chance/Community Chest owes a card_drawn
	rent      map[int]int  // a seat on another's property owes a rent_paid
	// ledger books the cash the events move since the last view (nil:
	// initialize announced no economy); unpaid is the first landing whose
	// rent_paid never came, judged at the next view by the payer's cash.
	ledger *monoLedger
	unpaid *unpaidLanding
	// toBank is, by seat, the event of a payment to the bank given as a
	// rent while that seat owed a rent_paid (a debt paid to no owner).
	toBank map[int]int
}

// unpaidLanding is a landing on another seat's property whose rent_paid
// never came: the payer, the square, its owner (and whether the owner
// sat in jail) and the event that closed the landing.
type unpaidLanding struct {
	seat, sq, owner, seq int
	ownerJailed          bool
}

// event books one event; at the end of a move it fails a card or rent
// that never came (PYYOL-MONO-EV-CARD-DRAWN, PYYOL-MONO-EV-RENT-PAID).
func (b *monoBoard) event(e frame) error {
	if b.ledger != nil {
		b.ledger.book(e)
	}
	p := payload(e)
	seat, _ := fieldInt(p, "seat")
	sq, _ := fieldInt(p, "property")
	switch e.Type {
	case "moved":
		to, _ := fieldInt(p, "to")
		b.pos[seat] = to
		if to < 0 || to >= len(b.board.Squares) {
			return nil
		}
		switch k := b.board.Squares[to].Kind; {
		case k == monopoly.KindChance || k == monopoly.KindChest:
			b.card[seat] = true
		case b.board.Ownable(to):
			if o, ok := b.owner[to]; ok && o >= 0 && o != seat && !b.mortgaged[to] {
				b.rent[seat] = to
			}
		}
	case "went_to_jail":
		b.pos[seat], b.jailed[seat] = monopoly.JailSquare, true
	case "left_jail":
		b.jailed[seat] = false
	case "card_drawn":
		delete(b.card, seat)
	case "cash_changed":
		if amount, _ := fieldInt(p, "amount"); amount < 0 && p["reason"] == "rent" && b.rent[seat] > 0 {
			if b.toBank == nil {
				b.toBank = map[int]int{}
			}
			b.toBank[seat] = e.Seq
		}
	case "rent_paid":
		from, _ := fieldInt(p, "from")
		delete(b.rent, from)
		delete(b.toBank, from)
	case "property_purchased", "auction_won":
		b.owner[sq] = seat
	case "mortgaged":
		b.mortgaged[sq] = true
	case "unmortgaged":
		b.mortgaged[sq] = false
	case "trade_executed":
		b.trade(p)
	case "bankrupt":
		delete(b.rent, seat)
		b.bankrupt(p, seat)
	case "dice_rolled", "turn_ended", "turn_started", "match_finished":
		return b.settled(e)
	}
	return nil
}

func (b *monoBoard) trade(p map[string]any) {
	t, _ := p["trade"].(map[string]any)
	from, _ := fieldInt(t, "proposer")
	to, _ := fieldInt(t, "target")
	give, _ := t["give_props"].([]any)
	want, _ := t["want_props"].([]any)
	for _, v := range give {
		if f, ok := v.(float64); ok {
			b.owner[int(f)] = to
		}
	}
	for _, v := range want {
		if f, ok := v.(float64); ok {
			b.owner[int(f)] = from
		}
	}
}

func (b *monoBoard) bankrupt(p map[string]any, seat int) {
	creditor, _ := fieldInt(p, "creditor")
	for _, sq := range bankruptProperties(p, b.owner, seat) {
		b.owner[sq] = creditor
		if creditor < 0 {
			b.mortgaged[sq] = false
		}
	}
}

// bankruptProperties are the squares a bankruptcy hands over: the kit's
// payload lists them; the platform's does not, and they are then every
// square the events gave the seat (owner, by square).
func bankruptProperties(p map[string]any, owner map[int]int, seat int) []int {
	if props, ok := p["properties"].([]any); ok {
		return ints2(props)
	}
	var out []int
	for sq, o := range owner {
		if o == seat {
			out = append(out, sq)
		}
	}
	slices.Sort(out)
	return out
}

// settled fails a card or a rent still owed when the next move starts.
func (b *monoBoard) settled(e frame) error {
	for seat := range b.card {
		return verdict.Failf("PYYOL-MONO-EV-CARD-DRAWN", "card_drawn", "none", "seat %d stood on %d (a card square) with no card drawn before event %d", seat, b.pos[seat], e.Seq)
	}
	for seat, sq := range b.rent {
		if at, ok := b.toBank[seat]; ok {
			// The rent left the payer as a payment to the bank: the owner
			// was never paid (PYYOL-MONO-EV-RENT-PAID: rent_paid {from, to}).
			return verdict.Failf("PYYOL-MONO-EV-RENT-PAID", fmt.Sprintf("rent_paid from seat %d to seat %d", seat, b.owner[sq]),
				fmt.Sprintf("the rent paid to the bank (cash_changed, event %d)", at), "seat %d's landing on square %d", seat, sq)
		}
		if l := b.ledger; l != nil && l.ok && e.Type != "match_finished" {
			if b.unpaid == nil {
				b.unpaid = &unpaidLanding{seat: seat, sq: sq, owner: b.owner[sq], seq: e.Seq, ownerJailed: b.jailed[b.owner[sq]]}
			}
			delete(b.rent, seat)
			continue
		}
		return verdict.Failf("PYYOL-MONO-EV-RENT-PAID", "rent_paid", "none", "seat %d landed on seat %d's square %d with no rent paid before event %d", seat, b.owner[sq], sq, e.Seq)
	}
	clear(b.toBank)
	return nil
}

// unpaidRent judges, at the view after it, a landing whose rent_paid
// never came: the payer's cash as the events left it means no rent was
// charged at all, which standard Monopoly's rent forbids
// (PYYOL-MONO-RENT) unless the owner sat in jail, where whether it
// collects is left open (PYYOL-MONO-REF-RENT); cash that moved without
// its event is the event's missing (PYYOL-MONO-EV-RENT-PAID). The view's
// cash then becomes the ledger's.
func (b *monoBoard) unpaidRent(i int, players []monoPlayer) error {
	w, l := b.unpaid, b.ledger
	b.unpaid = nil
	defer func() {
		for s, p := range players {
			if l != nil && s < len(l.cash) && p.Cash != nil {
				l.cash[s] = *p.Cash
			}
		}
	}()
	if w == nil || l == nil || w.seat < 0 || w.seat >= len(players) || w.seat >= len(l.cash) {
		return nil
	}
	if c := players[w.seat].Cash; c != nil && *c == l.cash[w.seat] && l.ok {
		if w.ownerJailed {
			return nil
		}
		return verdict.Failf("PYYOL-MONO-RENT", fmt.Sprintf("rent for square %d charged to seat %d", w.sq, w.seat), "no rent charged",
			"seat %d landed on seat %d's square %d before event %d; its cash at turn view %d is what the events left", w.seat, w.owner, w.sq, w.seq, i)
	}
	return verdict.Failf("PYYOL-MONO-EV-RENT-PAID", "rent_paid", "none", "seat %d landed on seat %d's square %d with no rent paid before event %d", w.seat, w.owner, w.sq, w.seq)
}

// view compares a view with what the events said, then takes the view's
// owners and mortgages as the truth.
func (b *monoBoard) view(i int, t *monoTurn) error {
	if t.view.State == nil {
		return nil
	}
	if err := b.unpaidRent(i, t.view.State.Players); err != nil {
		return err
	}
	for s, p := range t.view.State.Players {
		if p.Bankrupt {
			continue
		}
		if p.InJail && !b.jailed[s] {
			return verdict.Failf("PYYOL-MONO-EV-WENT-TO-JAIL", "went_to_jail before a jailed seat", "none", "seat %d in turn view %d", s, i)
		}
		if !p.InJail && b.jailed[s] {
			return verdict.Failf("PYYOL-MONO-EV-LEFT-JAIL", "left_jail before a freed seat", "none", "seat %d in turn view %d", s, i)
		}
	}
	for _, h := range t.view.State.Holdings {
		if o, ok := b.owner[h.Square]; ok && o != h.Owner || !ok && h.Owner >= 0 {
			return verdict.Failf("PYYOL-MONO-EV-PROPERTY-PURCHASED", fmt.Sprintf("owner %d from the events", b.owner[h.Square]), h.Owner, "square %d in turn view %d", h.Square, i)
		}
	}
	for s, p := range t.view.State.Players {
		if !p.Bankrupt && p.Position != b.pos[s] {
			return verdict.Failf("PYYOL-MONO-EV-MOVED", fmt.Sprintf("square %d from the moved events", b.pos[s]), p.Position, "seat %d in turn view %d", s, i)
		}
	}
	for _, h := range t.view.State.Holdings {
		b.owner[h.Square], b.mortgaged[h.Square] = h.Owner, h.Mortgaged
	}
	return nil
}

// tradedHoldings: the view after an executed trade shows each property
// it moved with the seat it went to (PYYOL-MONO-ACT-ACCEPT-TRADE:
// accepting executes the trade, properties as well as cash). A property
// a later event moved again (a bankruptcy) is its event's.
func (m *monoRun) tradedHoldings() error {
	var moved map[int]int // square -> the seat the last trade gave it to
	return m.replay(func(e frame) error {
		p := payload(e)
		switch e.Type {
		case "trade_executed":
			tb := &monoBoard{owner: map[int]int{}}
			tb.trade(p)
			if moved == nil {
				moved = map[int]int{}
			}
			maps.Copy(moved, tb.owner)
		case "bankrupt", "property_purchased", "auction_won":
			moved = nil
		}
		return nil
	}, func(i int, t *monoTurn) error {
		if moved == nil || t.view.State == nil {
			return nil
		}
		for _, h := range t.view.State.Holdings {
			if to, ok := moved[h.Square]; ok && h.Owner != to {
				return verdict.Failf("PYYOL-MONO-ACT-ACCEPT-TRADE", fmt.Sprintf("square %d owned by seat %d, the trade's", h.Square, to), h.Owner,
					"the owner at turn view %d, after the trade executed", i)
			}
		}
		moved = nil
		return nil
	})
}
