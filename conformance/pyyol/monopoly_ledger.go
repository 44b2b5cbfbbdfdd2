package pyyol

import (
	"github.com/agentgames/conformance/conformance/verdict"
)

// monoLedger replays each seat's cash from the events
// (PYYOL-MONO-REF-LEDGER); ok turns false when a money event lacks the
// reference's payload layout, and the ledger checks then decide nothing.
type monoLedger struct {
	cash  []int
	ok    bool
	trade bool // a trade executed since the last comparison
	// rents are the {from, to} of the rent_paid events since the last
	// comparison.
	rents [][2]int
}

// book applies one event.
func (l *monoLedger) book(e frame) {
	p := payload(e)
	get := func(k string) int {
		v, ok := fieldInt(p, k)
		if !ok {
			l.ok = false
		}
		return v
	}
	seat := func(k string) int {
		s := get(k)
		if s < 0 || s >= len(l.cash) {
			l.ok = false
			return 0
		}
		return s
	}
	switch e.Type {
	case "cash_changed", "property_purchased", "auction_won", "house_built", "house_sold", "mortgaged", "unmortgaged":
		if !monoBooksOwnMoney(e.Type, p) {
			return
		}
		s, amt := seat("seat"), get("amount")
		l.cash[s] += amt
	case "rent_paid":
		from, to, amt := seat("from"), seat("to"), get("amount")
		l.cash[from] -= amt
		l.cash[to] += amt
		l.rents = append(l.rents, [2]int{from, to})
	case "trade_executed":
		t, _ := p["trade"].(map[string]any)
		if t == nil {
			l.ok = false
			return
		}
		from, to := seat2(l, t, "proposer"), seat2(l, t, "target")
		give, _ := fieldInt(t, "give_cash")
		want, _ := fieldInt(t, "want_cash")
		l.cash[from] += want - give
		l.cash[to] += give - want
		l.trade = true
	case "bankrupt":
		l.bankrupt(p, seat("seat"))
	}
}

// bankrupt books a bankruptcy: the kit's payload names the cash handed to
// the creditor; the platform's does not, and credits the creditor in a
// cash_changed of its own, so the seat is only left with nothing.
func (l *monoLedger) bankrupt(p map[string]any, s int) {
	cash, ok := fieldInt(p, "cash")
	if !ok {
		l.cash[s] = 0
		return
	}
	l.cash[s] -= cash
	if c, _ := fieldInt(p, "creditor"); c >= 0 && c < len(l.cash) {
		l.cash[c] += cash
	}
}

func seat2(l *monoLedger, t map[string]any, k string) int {
	s, ok := fieldInt(t, k)
	if !ok || s < 0 || s >= len(l.cash) {
		l.ok = false
		return 0
	}
	return s
}

// replay walks the match in order: the events before each turn, then the
// turn, then the rest.
func (m *monoRun) replay(onEvent func(frame) error, onTurn func(int, *monoTurn) error) error {
	next := 0
	for i, t := range m.turns {
		for ; next < t.seen && next < len(m.events); next++ {
			if err := onEvent(m.events[next]); err != nil {
				return err
			}
		}
		if err := onTurn(i, t); err != nil {
			return err
		}
	}
	for ; next < len(m.events); next++ {
		if err := onEvent(m.events[next]); err != nil {
			return err
		}
	}
	return nil
}

// checkTurnEvents: a turn_started opens every turn and a turn_ended closes
// each but the last (PYYOL-MONO-EV-TURN-STARTED, PYYOL-MONO-EV-TURN-ENDED),
// and the turn a roll or jail view is in began for the agent's seat
// (ownTurnStarted).
func (m *monoRun) checkTurnEvents() error {
	open := false
	started := 0
	for _, e := range m.events {
		switch e.Type {
		case "turn_started":
			if open {
				return verdict.Failf("PYYOL-MONO-EV-TURN-ENDED", "turn_ended before the next turn_started", "none", "event %d", e.Seq)
			}
			open = true
			started++
		case "turn_ended":
			open = false
		}
	}
	if started == 0 && len(m.turns) > 0 {
		return verdict.Failf("PYYOL-MONO-EV-TURN-STARTED", "turn_started events", "none", "a match of %d turn views", len(m.turns))
	}
	return m.replay(func(frame) error { return nil }, func(i int, t *monoTurn) error {
		n := 0
		for _, e := range m.events[:min(t.seen, len(m.events))] {
			if e.Type == "turn_started" {
				n++
			}
		}
		if n == 0 {
			return verdict.Failf("PYYOL-MONO-EV-TURN-STARTED", "a turn_started before the first decision", "none", "turn view %d", i)
		}
		return m.ownTurnStarted(i, t)
	})
}

// rentMisstated reports whether seat s's cash, off the ledger by its own
// difference, is one party of a rent_paid since the last comparison whose
// other party is off by the opposite: the money moved between the two as
// rent, but not the amount the event says (PYYOL-MONO-EV-RENT-PAID). A
// cash_changed missing moves one seat's cash, never two opposite.
func (l *monoLedger) rentMisstated(s int, off func(seat int) (int, bool)) bool {
	d, ok := off(s)
	if !ok || d == 0 {
		return false
	}
	for _, r := range l.rents {
		other := -1
		switch s {
		case r[0]:
			other = r[1]
		case r[1]:
			other = r[0]
		}
		if o, ok := off(other); other >= 0 && ok && o == -d {
			return true
		}
	}
	return false
}
