package pyyol

import (
	"fmt"
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
)

// monoLedger replays each seat's cash from the events
// (PYYOL-MONO-REF-LEDGER); ok turns false when a money event lacks the
// reference's payload layout, and the ledger checks then decide nothing.
type monoLedger struct {
	cash  []int
	ok    bool
	trade bool // a trade executed since the last comparison
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
		s, amt := seat("seat"), get("amount")
		l.cash[s] += amt
	case "rent_paid":
		from, to, amt := seat("from"), seat("to"), get("amount")
		l.cash[from] -= amt
		l.cash[to] += amt
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
		s, cash := seat("seat"), get("cash")
		l.cash[s] -= cash
		if c, _ := fieldInt(p, "creditor"); c >= 0 && c < len(l.cash) {
			l.cash[c] += cash
		}
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

// checkMoney: each seat's cash in every view is what the events say; a
// difference after a trade is the trade's fault (PYYOL-MONO-ACT-ACCEPT-TRADE),
// otherwise money moved without its event (PYYOL-MONO-EV-CASH-CHANGED).
func (m *monoRun) checkMoney() error {
	start, ok := m.rule("starting_cash")
	players, ok2 := m.rule("players")
	if !ok || !ok2 || players < 2 || players > 8 {
		return nil // no rule set to start from: the ledger cannot decide
	}
	l := &monoLedger{cash: make([]int, players), ok: true}
	for i := range l.cash {
		l.cash[i] = start
	}
	return m.replay(func(e frame) error { l.book(e); return nil }, func(i int, t *monoTurn) error {
		if !l.ok || t.view.State == nil || len(t.view.State.Players) != players {
			return nil
		}
		for s, p := range t.view.State.Players {
			if p.Cash == nil || *p.Cash == l.cash[s] {
				continue
			}
			rule := "PYYOL-MONO-EV-CASH-CHANGED"
			if l.trade {
				rule = "PYYOL-MONO-ACT-ACCEPT-TRADE"
			}
			return verdict.Failf(rule, l.cash[s], *p.Cash, "seat %d's cash at turn view %d against the events", s, i)
		}
		l.trade = false
		return nil
	})
}

// checkRent: no rent_paid for landing on a mortgaged property
// (PYYOL-MONO-RENT), the mortgages known from the last view and the
// mortgaged/unmortgaged events since.
func (m *monoRun) checkRent() error {
	position := map[int]int{}
	mortgaged := map[int]bool{}
	return m.replay(func(e frame) error {
		p := payload(e)
		seat, _ := fieldInt(p, "seat")
		sq, _ := fieldInt(p, "property")
		switch e.Type {
		case "moved":
			position[seat], _ = fieldInt(p, "to")
		case "mortgaged":
			mortgaged[sq] = true
		case "unmortgaged":
			mortgaged[sq] = false
		case "rent_paid":
			from, ok := fieldInt(p, "from")
			if p["reason"] != "rent" || !ok {
				return nil
			}
			if at, known := position[from]; known && mortgaged[at] {
				return verdict.Failf("PYYOL-MONO-RENT", "no rent on a mortgaged property", fmt.Sprintf("seat %d paid %v for landing on mortgaged square %d", from, p["amount"], at), "event %d", e.Seq)
			}
		}
		return nil
	}, func(_ int, t *monoTurn) error {
		if t.view.State != nil {
			clear(mortgaged)
			for _, h := range t.view.State.Holdings {
				mortgaged[h.Square] = h.Mortgaged
			}
		}
		return nil
	})
}

// checkEnd: the match ended by the turn cap it announced; when one seat
// alone stayed solvent it is the winner (PYYOL-MONO-WIN-TURN-CAP,
// PYYOL-MONO-WIN-LAST-SOLVENT).
func (m *monoRun) checkEnd() error {
	limit, capped := m.rule("turn_cap")
	players, _ := m.rule("players")
	bankrupt := map[int]bool{}
	for _, e := range m.events {
		p := payload(e)
		if turn, ok := fieldInt(p, "turn"); capped && e.Type == "turn_started" && ok && turn > limit {
			return verdict.Failf("PYYOL-MONO-WIN-TURN-CAP", fmt.Sprintf("the game over by turn %d", limit), fmt.Sprintf("turn %d started", turn), "event %d", e.Seq)
		}
		if s, ok := fieldInt(p, "seat"); e.Type == "bankrupt" && ok {
			bankrupt[s] = true
		}
	}
	if m.end == nil || players < 2 || len(bankrupt) != players-1 {
		return nil
	}
	last := -1
	for s := range players {
		if !bankrupt[s] {
			last = s
		}
	}
	var body struct {
		Result struct {
			Winners []int `json:"winners"`
			Winner  *int  `json:"winner"`
		} `json:"result"`
	}
	jsonInto(m.end.raw, &body)
	w := body.Result.Winners
	if body.Result.Winner != nil {
		w = append(w, *body.Result.Winner)
	}
	if !slices.Contains(w, last) || slices.ContainsFunc(w, func(s int) bool { return s != last }) {
		return verdict.Failf("PYYOL-MONO-WIN-LAST-SOLVENT", last, w, "the winner of a match everyone else went bankrupt in")
	}
	return nil
}

// checkEvents: events come in increasing seq and are of the documented
// types (PYYOL-MONO-EVENTS).
func (m *monoRun) checkEvents() error {
	documented := []string{"match_created", "turn_started", "dice_rolled", "moved", "cash_changed", "rent_paid",
		"property_purchased", "card_drawn", "went_to_jail", "left_jail", "house_built", "house_sold", "mortgaged",
		"unmortgaged", "auction_started", "bid_placed", "auction_passed", "auction_won", "auction_unsold", "bankrupt",
		"trade_proposed", "trade_executed", "trade_rejected", "turn_ended", "match_finished"}
	for i, e := range m.events {
		if e.Type == "match_finished" && slices.ContainsFunc(m.turns, func(t *monoTurn) bool { return t.seen > i }) {
			return verdict.Failf("PYYOL-MONO-PHASE-GAME-OVER", "no decision after match_finished", "a turn", "after event %d", e.Seq)
		}
	}
	if len(m.events) > 0 && m.events[0].Type != "match_created" {
		return verdict.Failf("PYYOL-MONO-EV-MATCH-CREATED", "match_created first", m.events[0].Type, "the first event")
	}
	if n := len(m.events); m.end != nil && n > 0 && m.events[n-1].Type != "match_finished" {
		return verdict.Failf("PYYOL-MONO-EV-MATCH-FINISHED", "match_finished before game_end", m.events[n-1].Type, "the last event")
	}
	if err := m.checkTurnEvents(); err != nil {
		return err
	}
	last := 0
	for _, e := range m.events {
		if e.Seq <= last {
			return verdict.Failf("PYYOL-MONO-EVENTS", fmt.Sprintf("seq above %d", last), e.Seq, "event order")
		}
		last = e.Seq
		if !slices.Contains(documented, e.Type) {
			return verdict.Failf("PYYOL-MONO-EVENTS", documented, e.Type, "event %d", e.Seq)
		}
	}
	return nil
}

// checkTurnEvents: a turn_started opens every turn and a turn_ended closes
// each but the last (PYYOL-MONO-EV-TURN-STARTED, PYYOL-MONO-EV-TURN-ENDED).
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
		return nil
	})
}
