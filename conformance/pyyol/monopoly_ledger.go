package pyyol

import (
	"fmt"
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
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
		v, ok := intOf(p, k)
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
		give, _ := intOf(t, "give_cash")
		want, _ := intOf(t, "want_cash")
		l.cash[from] += want - give
		l.cash[to] += give - want
		l.trade = true
	case "bankrupt":
		s, cash := seat("seat"), get("cash")
		l.cash[s] -= cash
		if c, _ := intOf(p, "creditor"); c >= 0 && c < len(l.cash) {
			l.cash[c] += cash
		}
	}
}

func seat2(l *monoLedger, t map[string]any, k string) int {
	s, ok := intOf(t, k)
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
		seat, _ := intOf(p, "seat")
		sq, _ := intOf(p, "property")
		switch e.Type {
		case "moved":
			position[seat], _ = intOf(p, "to")
		case "mortgaged":
			mortgaged[sq] = true
		case "unmortgaged":
			mortgaged[sq] = false
		case "rent_paid":
			from, ok := intOf(p, "from")
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
		if turn, ok := intOf(p, "turn"); capped && e.Type == "turn_started" && ok && turn > limit {
			return verdict.Failf("PYYOL-MONO-WIN-TURN-CAP", fmt.Sprintf("the game over by turn %d", limit), fmt.Sprintf("turn %d started", turn), "event %d", e.Seq)
		}
		if s, ok := intOf(p, "seat"); e.Type == "bankrupt" && ok {
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

// monoEffect is the event each chosen action must produce before the next
// turn, and the rule a missing one breaks: the event's own row, or
// PYYOL-MONO-LEGAL-ACCEPTED (a listed action is accepted).
var monoEffect = map[string][2]string{
	"roll": {"dice_rolled", "PYYOL-MONO-EV-DICE-ROLLED"}, "roll_jail": {"dice_rolled", "PYYOL-MONO-EV-DICE-ROLLED"},
	"buy": {"property_purchased", "PYYOL-MONO-LEGAL-ACCEPTED"}, "mortgage": {"mortgaged", "PYYOL-MONO-EV-MORTGAGED"},
	"propose_trade": {"trade_proposed", "PYYOL-MONO-EV-TRADE-PROPOSED"}, "pay_jail": {"left_jail", "PYYOL-MONO-EV-LEFT-JAIL"},
	"pass": {"auction_passed", "PYYOL-MONO-EV-AUCTION-PASSED"}, "bankrupt": {"bankrupt", "PYYOL-MONO-EV-BANKRUPT"},
	"decline": {"auction_started", "PYYOL-MONO-CFG-AUCTIONS"}, "bid": {"bid_placed", "PYYOL-MONO-ACT-BID"}, "unmortgage": {"unmortgaged", "PYYOL-MONO-EV-UNMORTGAGED"},
}

// checkEffects: every action the agent chose from legal_actions took effect.
func (m *monoRun) checkEffects() error {
	for i, t := range m.turns {
		a, _ := t.move["action"].(string)
		effect, ok := monoEffect[a]
		if !ok || i == len(m.turns)-1 && m.end == nil || !slices.Contains(t.view.LegalActions, a) {
			continue
		}
		if a == "decline" && slices.ContainsFunc(t.after, func(e frame) bool {
			s, _ := intOf(payload(e), "seat")
			return e.Type == "property_purchased" && s == m.seat
		}) {
			return verdict.Failf("PYYOL-MONO-ACT-DECLINE", "the property left unbought (or auctioned)", "bought by the seat that declined", "turn view %d", i)
		}
		if on, known := m.ruleBool("auctions"); a == "decline" && (!known || !on) {
			continue // auctions off, or not announced: a decline opens none
		}
		at := slices.IndexFunc(t.after, func(e frame) bool { return e.Type == effect[0] })
		if at < 0 {
			return verdict.Failf(effect[1], effect[0], "no such event before the next turn", "the listed action %s chosen at turn view %d", a, i)
		}
		if err := m.effectAgrees(i, t, t.after[at]); err != nil {
			return err
		}
	}
	return nil
}

// effectAgrees checks an action's event against the move: roll moves the
// token (or jails it), buy pays the list price of the square the seat
// stands on, mortgage pays cash for the square named, a proposed trade is
// the one offered (PYYOL-MONO-ACT-ROLL, PYYOL-MONO-ACT-BUY,
// PYYOL-MONO-ACT-MORTGAGE, PYYOL-MONO-MOVE-PROPERTY, PYYOL-MONO-MOVE-TRADE).
func (m *monoRun) effectAgrees(i int, t *monoTurn, e frame) error {
	p := payload(e)
	a, _ := t.move["action"].(string)
	switch a {
	case "roll":
		if !slices.ContainsFunc(t.after, func(e frame) bool { return e.Type == "moved" || e.Type == "went_to_jail" }) {
			return verdict.Failf("PYYOL-MONO-ACT-ROLL", "moved (or went_to_jail) after the roll", "neither", "turn view %d", i)
		}
	case "buy":
		board, _ := monopoly.StandardBoard()
		sq, _ := intOf(p, "property")
		price, ok := intOf(p, "price")
		if t.view.State != nil && sq >= 0 && sq < len(board.Squares) && ok && price != board.Squares[sq].Price {
			return verdict.Failf("PYYOL-MONO-ACT-BUY", board.Squares[sq].Price, price, "the price of square %d bought at turn view %d", sq, i)
		}
	case "mortgage":
		sq, _ := intOf(p, "property")
		if want, _ := t.move["property"].(int); sq != want {
			return verdict.Failf("PYYOL-MONO-MOVE-PROPERTY", want, sq, "the square mortgaged at turn view %d", i)
		}
		if amt, ok := intOf(p, "amount"); ok && amt <= 0 {
			return verdict.Failf("PYYOL-MONO-ACT-MORTGAGE", "cash for the mortgage", amt, "turn view %d", i)
		}
	case "pass":
		if seat, ok := intOf(p, "seat"); ok && seat != m.seat {
			return verdict.Failf("PYYOL-MONO-ACT-PASS", m.seat, seat, "the seat that passed at turn view %d", i)
		}
	case "unmortgage":
		return m.unmortgageCost(i, t, p)
	case "roll_jail":
		if d, _ := p["dice"].([]any); len(d) == 2 && d[0] == d[1] &&
			!slices.ContainsFunc(t.after, func(e frame) bool { return e.Type == "left_jail" }) {
			return verdict.Failf("PYYOL-MONO-ACT-ROLL-JAIL", "left_jail after doubles", fmt.Sprint(d), "the jail roll at turn view %d", i)
		}
	case "bid":
		if amt, ok := intOf(p, "amount"); ok && amt != 1 {
			return verdict.Failf("PYYOL-MONO-MOVE-AMOUNT", 1, amt, "the raise bid at turn view %d", i)
		}
		high, ok := intOf(p, "high_bid")
		if a := t.view.State; ok && a != nil && a.Auction != nil && high != a.Auction.HighBid+1 {
			return verdict.Failf("PYYOL-MONO-ACT-BID", a.Auction.HighBid+1, high, "the high bid after raising by 1 at turn view %d", i)
		}
	case "pay_jail":
		paid := 0
		for _, e := range t.after {
			if s, _ := intOf(payload(e), "seat"); e.Type == "cash_changed" && s == m.seat {
				amt, _ := intOf(payload(e), "amount")
				paid -= amt
			}
		}
		if paid != 50 {
			return verdict.Failf("PYYOL-MONO-ACT-PAY-JAIL", 50, paid, "the fine paid at turn view %d", i)
		}
	case "propose_trade":
		offered, _ := t.move["trade"].(map[string]any)
		got, _ := p["trade"].(map[string]any)
		for _, k := range []string{"proposer", "target", "give_cash", "want_cash"} {
			want := fmt.Sprint(offered[k])
			if have, ok := intOf(got, k); !ok || fmt.Sprint(have) != want {
				return verdict.Failf("PYYOL-MONO-MOVE-TRADE", offered, got, "the trade offered at turn view %d", i)
			}
		}
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

// checkAuctions: an auction shown in a view was announced by
// auction_started; every auction closes with auction_won (after at least
// one bid_placed) or auction_unsold before the turn ends
// (PYYOL-MONO-EV-AUCTION-STARTED, PYYOL-MONO-EV-AUCTION-WON,
// PYYOL-MONO-EV-AUCTION-UNSOLD, PYYOL-MONO-EV-BID-PLACED).
func (m *monoRun) checkAuctions() error {
	open, bids := false, 0
	return m.replay(func(e frame) error {
		switch e.Type {
		case "auction_started":
			open, bids = true, 0
		case "bid_placed":
			bids++
		case "auction_won":
			if bids == 0 {
				return verdict.Failf("PYYOL-MONO-EV-BID-PLACED", "bid_placed before auction_won", "no bid", "event %d", e.Seq)
			}
			open = false
		case "auction_unsold":
			open = false
		case "turn_ended", "turn_started", "match_finished":
			if open && bids > 0 {
				return verdict.Failf("PYYOL-MONO-EV-AUCTION-WON", "auction_won closing an auction with bids", "none", "before event %d", e.Seq)
			}
			if open {
				return verdict.Failf("PYYOL-MONO-EV-AUCTION-UNSOLD", "auction_unsold closing an auction nobody bid in", "none", "before event %d", e.Seq)
			}
		}
		return nil
	}, func(i int, t *monoTurn) error {
		if t.view.Phase == "auction" && !open {
			return verdict.Failf("PYYOL-MONO-EV-AUCTION-STARTED", "auction_started before an auction", "none", "turn view %d", i)
		}
		return nil
	})
}

// unmortgageCost: lifting a mortgage costs the cash the mortgage paid plus
// 10% (rounded either way) (PYYOL-MONO-ACT-UNMORTGAGE).
func (m *monoRun) unmortgageCost(i int, t *monoTurn, p map[string]any) error {
	sq, _ := intOf(p, "property")
	paid, known := 0, false
	for _, e := range m.events[:min(t.seen, len(m.events))] {
		q := payload(e)
		if s, _ := intOf(q, "property"); e.Type == "mortgaged" && s == sq {
			paid, known = intOf(q, "amount")
		}
	}
	cost, ok := intOf(p, "amount")
	if !known || !ok {
		return nil
	}
	if cost < 0 {
		cost = -cost
	}
	if lo, hi := paid*11/10, (paid*11+9)/10; cost < lo || cost > hi {
		return verdict.Failf("PYYOL-MONO-ACT-UNMORTGAGE", fmt.Sprintf("%d (the mortgage's %d + 10%%)", hi, paid), cost, "lifting the mortgage on square %d at turn view %d", sq, i)
	}
	return nil
}

// checkEndTurns: end_turn ends the turn (turn_ended) unless the seat
// rolled doubles and is not in jail, when it rolls again
// (PYYOL-MONO-ACT-END-TURN).
func (m *monoRun) checkEndTurns() error {
	doubles := false
	for i, t := range m.turns {
		for _, e := range m.events[:min(t.seen, len(m.events))] {
			if e.Type == "turn_started" {
				doubles = false
			}
			if s, _ := intOf(payload(e), "seat"); e.Type == "dice_rolled" && s == m.seat {
				d, _ := payload(e)["dice"].([]any)
				doubles = len(d) == 2 && d[0] == d[1]
			}
		}
		if a, _ := t.move["action"].(string); a != "end_turn" || i == len(m.turns)-1 || !slices.Contains(t.view.LegalActions, a) {
			continue
		}
		ended := slices.ContainsFunc(t.after, func(e frame) bool { return e.Type == "turn_ended" })
		jailed := t.view.State != nil && m.seat < len(t.view.State.Players) && t.view.State.Players[m.seat].InJail
		if !ended && !(doubles && !jailed) {
			return verdict.Failf("PYYOL-MONO-ACT-END-TURN", "turn_ended", "none", "end_turn at turn view %d without doubles", i)
		}
	}
	return nil
}

// checkTrades: every trade the kit offered was answered, executed or
// rejected, before its next decision; a missing answer is blamed on
// trade_executed when the kit's cash moved as the trade says, else on
// trade_rejected (PYYOL-MONO-ACT-PROPOSE-TRADE, PYYOL-MONO-EV-TRADE-EXECUTED,
// PYYOL-MONO-EV-TRADE-REJECTED).
func (m *monoRun) checkTrades() error {
	for i, t := range m.turns {
		if a, _ := t.move["action"].(string); a != "propose_trade" || i == len(m.turns)-1 || !slices.Contains(t.view.LegalActions, a) {
			continue
		}
		if slices.ContainsFunc(t.after, func(e frame) bool {
			return e.Type == "trade_executed" || e.Type == "trade_rejected" || e.Type == "bankrupt"
		}) || slices.ContainsFunc(t.after[min(1, len(t.after)):], func(e frame) bool { return e.Type == "trade_proposed" }) {
			continue
		}
		rule := "PYYOL-MONO-EV-TRADE-REJECTED"
		before, after := t.view.State, m.turns[i+1].view.State
		offer, _ := t.move["trade"].(map[string]any)
		give, _ := offer["give_cash"].(int)
		want, _ := offer["want_cash"].(int)
		if before != nil && after != nil && m.seat < len(before.Players) && m.seat < len(after.Players) &&
			before.Players[m.seat].Cash != nil && after.Players[m.seat].Cash != nil &&
			*after.Players[m.seat].Cash == *before.Players[m.seat].Cash-give+want && give != want {
			rule = "PYYOL-MONO-EV-TRADE-EXECUTED"
		}
		return verdict.Failf(rule, "trade_executed or trade_rejected", "no answer", "the trade offered at turn view %d", i)
	}
	return nil
}
