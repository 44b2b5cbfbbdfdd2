package pyyol

import (
	"fmt"

	"github.com/agentgames/conformance/conformance/verdict"
)

// mortgageCashAgrees: the mortgaged event's amount is the cash the
// mortgage paid, so when a mortgage chosen in manage (where no debt takes
// the money on) is all that came between this view and the next (the
// mortgaged event, and a cash_changed of the seat's own for the
// mortgage, as the platform sends beside it), the seat's cash rose by
// that amount (PYYOL-MONO-EV-MORTGAGED "A property was mortgaged", read
// with PYYOL-MONO-ACT-MORTGAGE "for cash"; the view's cash is the truth,
// PYYOL-MONO-VIEW-STATE). Any other event between, or a view without the
// seat's cash, leaves it unchecked.
func (m *monoRun) mortgageCashAgrees(i int, t *monoTurn, p map[string]any) error {
	amt, ok := fieldInt(p, "amount")
	if !ok || t.view.Phase != "manage" || i+1 >= len(m.turns) || !m.onlyMortgageMoney(t) {
		return nil
	}
	gain, known := m.cashMoved(i)
	if known && gain != abs(amt) {
		return verdict.Failf("PYYOL-MONO-EV-MORTGAGED", fmt.Sprintf("$%d, the cash the mortgage paid (turn view %d to %d)", gain, i, i+1), amt, "the mortgaged event after turn view %d", i)
	}
	return nil
}

// onlyMortgageMoney reports whether a turn's events are only its
// mortgaged event and cash_changed events of the agent's own seat for
// the mortgage, so the cash between this view and the next is the
// mortgage's alone.
func (m *monoRun) onlyMortgageMoney(t *monoTurn) bool {
	for _, e := range t.after {
		p := payload(e)
		s, _ := fieldInt(p, "seat")
		if e.Type != "mortgaged" && (e.Type != "cash_changed" || s != m.seat || p["reason"] != "mortgage") {
			return false
		}
	}
	return true
}

// cashMoved is how the agent's cash changed from turn view i to the
// next, when both views show it.
func (m *monoRun) cashMoved(i int) (int, bool) {
	before, after := seatCash(m.turns[i].view.State, m.seat), seatCash(m.turns[i+1].view.State, m.seat)
	if before == nil || after == nil {
		return 0, false
	}
	return *after - *before, true
}

// seatCash is one seat's cash in a view's state, or nil.
func seatCash(s *monoState, seat int) *int {
	if s == nil || seat < 0 || seat >= len(s.Players) {
		return nil
	}
	return s.Players[seat].Cash
}

// builtCountAgrees: a house_built event's houses, where it sends one,
// tells the build the view chose it in: the buildings now standing on
// the square (one more than that view showed) or the one building put up
// (PYYOL-MONO-EV-HOUSE-BUILT: "A house/hotel was built"; the docs fix no
// payload, so both readings pass). A count that is neither (the count
// before the build, say) says no house was built. An event without the
// count decides nothing.
func builtCountAgrees(i int, t *monoTurn, p map[string]any) error {
	n, ok := fieldInt(p, "houses")
	sq, _ := fieldInt(p, "property")
	if !ok || t.view.State == nil {
		return nil
	}
	for _, h := range t.view.State.Holdings {
		if h.Square == sq && n != h.Houses+1 && n != 1 {
			return verdict.Failf("PYYOL-MONO-EV-HOUSE-BUILT", fmt.Sprintf("%d (the buildings now standing) or 1 (the one built)", h.Houses+1), n, "the houses of square %d's house_built after the build at turn view %d", sq, i)
		}
	}
	return nil
}

// mortgagesShown: a square the agent chose to mortgage, whose mortgaged
// event named that same square, shows mortgaged in every view that
// follows until the agent chooses to lift it, an unmortgaged event names
// it, or a trade or a bankruptcy may have moved it (PYYOL-MONO-VIEW-STATE:
// holdings show "mortgaged per square"). The move and the event agreeing
// is what makes the view the odd one out: a mortgaged event alone, or a
// lift without its event, is the events' slip, judged by their own rules
// (PYYOL-MONO-MOVE-PROPERTY, PYYOL-MONO-EV-UNMORTGAGED). A holding that
// does not spell mortgaged (Flagged unset) is not judged here.
func (m *monoRun) mortgagesShown() error {
	mine := map[int]bool{}
	for i, t := range m.turns {
		if t.view.State != nil {
			for _, h := range t.view.State.Holdings {
				if mine[h.Square] && h.Flagged && !h.Mortgaged {
					return verdict.Failf("PYYOL-MONO-VIEW-STATE", fmt.Sprintf("square %d mortgaged (the agent mortgaged it and its event named it)", h.Square), "mortgaged false", "turn view %d", i)
				}
			}
		}
		m.bookMortgages(mine, t)
	}
	return nil
}

// bookMortgages updates mortgagesShown's squares with one turn: the
// agent's mortgage its event confirmed is added; a lift chosen or
// announced removes its square; a trade or a bankruptcy forgets them all.
func (m *monoRun) bookMortgages(mine map[int]bool, t *monoTurn) {
	a, _ := t.move["action"].(string)
	chosen, _ := t.move["property"].(int)
	if a == "unmortgage" {
		delete(mine, chosen)
	}
	for _, e := range t.after {
		sq, _ := fieldInt(payload(e), "property")
		switch e.Type {
		case "mortgaged":
			if a == "mortgage" && sq == chosen && !t.probe {
				mine[sq] = true
			}
		case "unmortgaged":
			delete(mine, sq)
		case "trade_executed", "bankrupt":
			clear(mine)
		}
	}
}
