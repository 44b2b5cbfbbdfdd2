package pyyol

import (
	"context"
	"fmt"
	"slices"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// gatewayMonopolyMoneySteps registers the steps of features/pyyol/gateway-monopoly.feature (its rules on money).
func (m *monoRun) gatewayMonopolyMoneySteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent plays the Monopoly match as a (dealer|spendthrift|miser)$`), func(ctx context.Context, style string) error {
		m.style = style
		return m.play(ctx)
	})
	sc.Step(pattern(`^every view showed the whole board$`), m.checkWholeBoard)
	sc.Step(pattern(`^no seat owed more than its cash without resolving the debt$`), m.checkDebts)
	sc.Step(pattern(`^the bankrupt seat's estate went to its creditor$`), m.checkBankrupt)
	sc.Step(pattern(`^taxes and fines funded the Free Parking pool and its lander took it$`), m.checkPool)
	sc.Step(pattern(`^the economy was the standard one$`), m.checkEconomy)
	sc.Step(pattern(`^every seat's cash matched the money events$`), m.checkMoney)
	sc.Step(pattern(`^no rent was paid for a mortgaged property$`), m.checkRent)
	sc.Step(pattern(`^every move, jailing, purchase, card and rent had its event$`), m.checkBoardEvents)
}

// checkBoardEvents: every move, jailing, release, purchase, card and rent
// a view shows was announced by its event.
func (m *monoRun) checkBoardEvents() error {
	board, err := monopoly.StandardBoard()
	if err != nil {
		return err
	}
	b := &monoBoard{board: board, pos: map[int]int{}, jailed: map[int]bool{}, owner: map[int]int{},
		mortgaged: map[int]bool{}, card: map[int]bool{}, rent: map[int]int{}, ledger: m.newLedger()}
	return m.replay(b.event, b.view)
}

// checkDebts: the agent is never asked to play on (outside
// resolve_debt) with negative cash, since a seat owing more than its cash
// raises funds or goes bankrupt first; and a resolve_debt view owes more
// than the agent's cash when it shows the debt
// (PYYOL-MONO-PHASE-RESOLVE-DEBT). Negative cash shown while resolving
// the debt is a reading the contract leaves open.
func (m *monoRun) checkDebts() error {
	for i, t := range m.turns {
		s := t.view.State
		if s == nil {
			continue
		}
		me := m.mine(t.view)
		if mine := s.Players; m.seat < len(mine) && mine[m.seat].Cash != nil && me.cash < 0 && t.view.Phase != "resolve_debt" {
			return verdict.Failf("PYYOL-MONO-PHASE-RESOLVE-DEBT", "the debt resolved before play goes on", fmt.Sprintf("cash %d in phase %s", me.cash, t.view.Phase), "turn view %d", i)
		}
		if t.view.Phase == "resolve_debt" && s.Debt != nil && s.Debt.Seat == m.seat && s.Debt.Amount <= me.cash {
			return verdict.Failf("PYYOL-MONO-PHASE-RESOLVE-DEBT", fmt.Sprintf("a debt above the cash %d", me.cash), s.Debt.Amount, "turn view %d in resolve_debt", i)
		}
	}
	return nil
}

// checkBankrupt: the agent's bankrupt goes to the creditor its debt
// named (one seat, or the bank) and hands over every property it held
// (PYYOL-MONO-ACT-BANKRUPT: give up, liquidate to the creditor). A debt
// to several seats is left open: the contract names one creditor.
func (m *monoRun) checkBankrupt() error {
	for i, t := range m.turns {
		if a, _ := t.move["action"].(string); a != "bankrupt" || !slices.Contains(t.view.LegalActions, a) || t.view.State == nil {
			continue
		}
		at := slices.IndexFunc(t.after, func(e frame) bool {
			s, _ := fieldInt(payload(e), "seat")
			return e.Type == "bankrupt" && s == m.seat
		})
		if at < 0 {
			continue // PYYOL-MONO-EV-BANKRUPT's to judge
		}
		p := payload(t.after[at])
		if d := t.view.State.Debt; d != nil && len(d.Creditors) <= 1 {
			want := -1
			if len(d.Creditors) == 1 {
				want = d.Creditors[0]
			}
			if got, ok := fieldInt(p, "creditor"); ok && got != want {
				return verdict.Failf("PYYOL-MONO-ACT-BANKRUPT", fmt.Sprintf("creditor %d (the debt's)", want), got, "the bankruptcy at turn view %d", i)
			}
		}
		if props, ok := p["properties"].([]any); ok {
			if want, got := m.heldBy(t.view), ints2(props); !slices.Equal(want, got) {
				return verdict.Failf("PYYOL-MONO-ACT-BANKRUPT", want, got, "the properties handed over at turn view %d", i)
			}
		}
		if err := m.estateKept(i, t, at); err != nil {
			return err
		}
		if err := m.estateCash(i, t, at); err != nil {
			return err
		}
	}
	return nil
}

// estateKept: the properties a bankruptcy to a seat handed over are that
// seat's, so none of them is bought or auctioned from the bank later
// while the creditor stays solvent (PYYOL-MONO-ACT-BANKRUPT: liquidate
// to the creditor); at is the bankrupt event's index in t.after. Only a
// table that plays on after the agent's bankruptcy shows it.
func (m *monoRun) estateKept(i int, t *monoTurn, at int) error {
	creditor, ok := fieldInt(payload(t.after[at]), "creditor")
	if !ok || creditor < 0 || creditor == m.seat {
		return nil
	}
	held := m.heldBy(t.view)
	for _, e := range t.after[at+1:] {
		p := payload(e)
		s, _ := fieldInt(p, "seat")
		sq, _ := fieldInt(p, "property")
		switch {
		case e.Type == "bankrupt" && s == creditor:
			return nil
		case (e.Type == "property_purchased" || e.Type == "auction_started") && slices.Contains(held, sq):
			return verdict.Failf("PYYOL-MONO-ACT-BANKRUPT", fmt.Sprintf("square %d seat %d's, the creditor's", sq, creditor),
				fmt.Sprintf("%s of it from the bank, event %d", e.Type, e.Seq), "the estate handed over at turn view %d", i)
		}
	}
	return nil
}

// estateCash: a bankruptcy to a seat hands it the cash the agent still
// held too (PYYOL-MONO-ACT-BANKRUPT: liquidate to the creditor). Money
// moving between seats has its event in the feed ("an itemized event
// feed of everything between your turns"), so the bankrupt move's own
// events (up to the next turn_ended, turn_started or dice_rolled) credit
// the creditor at least that much; where a later
// view shows the creditor's cash, its rise (what the events took from
// the creditor added back) may stand for the events.
func (m *monoRun) estateCash(i int, t *monoTurn, at int) error {
	c, ok := fieldInt(payload(t.after[at]), "creditor")
	if !ok || c < 0 || c == m.seat {
		return nil
	}
	cashOf := func(s *monoState, seat int) (int, bool) {
		if s == nil || seat >= len(s.Players) || s.Players[seat].Cash == nil {
			return 0, false
		}
		return *s.Players[seat].Cash, true
	}
	left, known := cashOf(t.view.State, m.seat)
	if !known || left <= 0 {
		return nil
	}
	// The bankrupt move's own events: up to the turn that follows it.
	end := at + 1 + slices.IndexFunc(t.after[at+1:], func(e frame) bool {
		return e.Type == "turn_ended" || e.Type == "turn_started" || e.Type == "dice_rolled"
	})
	if end <= at {
		end = len(t.after)
	}
	credits, debits := 0, 0
	for _, e := range t.after[:end] {
		p := payload(e)
		amount, _ := fieldInt(p, "amount")
		seat, _ := fieldInt(p, "seat")
		from, _ := fieldInt(p, "from")
		to, _ := fieldInt(p, "to")
		switch {
		case e.Type == "cash_changed" && seat == c && amount > 0, e.Type == "rent_paid" && to == c:
			credits += amount
		case e.Type == "cash_changed" && seat == c:
			debits -= amount
		case e.Type == "rent_paid" && from == c:
			debits += amount
		}
	}
	if credits >= left {
		return nil
	}
	if i+1 < len(m.turns) {
		before, ok1 := cashOf(t.view.State, c)
		after, ok2 := cashOf(m.turns[i+1].view.State, c)
		if !ok1 || !ok2 || after-before+debits >= left {
			return nil
		}
	}
	return verdict.Failf("PYYOL-MONO-ACT-BANKRUPT", fmt.Sprintf("the $%d the agent still held, to creditor %d", left, c),
		fmt.Sprintf("$%d credited", credits), "the bankruptcy at turn view %d", i)
}

// checkPool: with free_parking_pool on, "taxes and fines fund a Free
// Parking jackpot" and a token landing on Free Parking takes it
// (PYYOL-MONO-CFG-FREE-PARKING). Which fines is open: the real platform's
// engine pools taxes alone (a jail fine goes to the bank), so the
// jackpot owed is at least the taxes paid since the last one, and at most
// every payment to the bank since then (a jackpot above that was never in
// the pool: a pool paid out and not emptied). A lander's credit of the
// salary, after a move that passed GO, is the salary's.
func (m *monoRun) checkPool() error {
	if on, known := m.ruleBool("free_parking_pool"); !known || !on {
		return nil // the table did not announce the pool
	}
	b, err := monopoly.StandardBoard()
	if err != nil {
		return err
	}
	salary, _ := m.rule("go_salary")
	pool, funds, lander, passed := 0, 0, -1, false
	for _, e := range m.events {
		p := payload(e)
		seat, _ := fieldInt(p, "seat")
		amount, _ := fieldInt(p, "amount")
		switch e.Type {
		case "cash_changed":
			if amount < 0 && p["reason"] == "tax" {
				pool -= amount // the one payment every reading puts in the pool
			}
			if amount < 0 {
				funds -= amount
			}
			if seat == lander && passed && amount == salary {
				passed = false
				continue
			}
			if seat == lander && amount > funds && amount > 0 {
				return verdict.Failf("PYYOL-MONO-CFG-FREE-PARKING", fmt.Sprintf("at most $%d, every payment to the bank since the last jackpot", funds),
					fmt.Sprintf("$%d", amount), "seat %d's Free Parking jackpot, event %d", lander, e.Seq)
			}
			if seat == lander && amount >= pool && amount > 0 {
				pool, funds, lander = 0, funds-amount, -1
			}
		case "moved":
			to, _ := fieldInt(p, "to")
			passed = p["passed_go"] == true
			if to >= 0 && to < len(b.Squares) && b.Squares[to].Kind == monopoly.KindFreePark && pool > 0 {
				lander = seat
			}
		case "dice_rolled", "turn_ended", "turn_started", "match_finished":
			if lander >= 0 {
				return verdict.Failf("PYYOL-MONO-CFG-FREE-PARKING", fmt.Sprintf("at least $%d from the pool", pool), "nothing",
					"seat %d landed on Free Parking, before event %d", lander, e.Seq)
			}
		}
	}
	return nil
}

// checkMoney: each seat's cash in every view is what the events say; a
// difference after a trade is the trade's fault (PYYOL-MONO-ACT-ACCEPT-TRADE);
// a view still showing the cash of the view before, where the events
// since moved it, is a stale view (PYYOL-MONO-VIEW-STATE: the state holds
// the players' cash); otherwise money moved without its event
// (PYYOL-MONO-EV-CASH-CHANGED). The properties a trade moved are judged
// after the cash (tradedHoldings).
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
	before := slices.Clone(l.cash) // each seat's cash as of the view before
	if err := m.replay(func(e frame) error { l.book(e); return nil }, func(i int, t *monoTurn) error {
		if !l.ok || t.view.State == nil || len(t.view.State.Players) != players {
			return nil
		}
		off := func(seat int) (int, bool) {
			if seat < 0 || seat >= players || t.view.State.Players[seat].Cash == nil {
				return 0, false
			}
			return *t.view.State.Players[seat].Cash - l.cash[seat], true
		}
		for s, p := range t.view.State.Players {
			if p.Cash == nil || *p.Cash == l.cash[s] {
				continue
			}
			rule := "PYYOL-MONO-EV-CASH-CHANGED"
			switch {
			case l.trade:
				rule = "PYYOL-MONO-ACT-ACCEPT-TRADE"
			case l.rentMisstated(s, off):
				rule = "PYYOL-MONO-EV-RENT-PAID" // the rent moved, not by the amount its event says
			case *p.Cash == before[s]:
				rule = "PYYOL-MONO-VIEW-STATE" // the view did not take in the events it followed
			}
			return verdict.Failf(rule, l.cash[s], *p.Cash, "seat %d's cash at turn view %d against the events (%d at the view before)", s, i, before[s])
		}
		l.trade, l.rents = false, nil
		copy(before, l.cash)
		return nil
	}); err != nil {
		return err
	}
	return m.tradedHoldings()
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

// checkWholeBoard: every view shows every seat's cash and, in its
// holdings, every square the events say is owned with an owner (a view
// may list the unowned squares too, as the bank's, or leave them out)
// (PYYOL-MONO-PERFECT-INFO: the whole board is exposed in state).
func (m *monoRun) checkWholeBoard() error {
	owner := map[int]int{}
	return m.replay(func(e frame) error {
		p := payload(e)
		seat, _ := fieldInt(p, "seat")
		switch e.Type {
		case "property_purchased", "auction_won":
			if sq, ok := fieldInt(p, "property"); ok {
				owner[sq] = seat
			}
		case "trade_executed":
			(&monoBoard{owner: owner}).trade(p)
		case "bankrupt":
			c, _ := fieldInt(p, "creditor")
			for _, sq := range bankruptProperties(p, owner, seat) {
				owner[sq] = c
			}
		}
		return nil
	}, func(i int, t *monoTurn) error {
		s := t.view.State
		if s == nil || len(s.Holdings) == 0 {
			return nil // PYYOL-MONO-VIEW-STATE's to judge
		}
		listed := map[int]bool{}
		for _, h := range s.Holdings {
			listed[h.Square] = listed[h.Square] || h.Owner >= 0
		}
		for sq := range 40 {
			if o, ok := owner[sq]; ok && o >= 0 && !listed[sq] {
				return verdict.Failf("PYYOL-MONO-PERFECT-INFO", fmt.Sprintf("owned square %d in the holdings", sq), "missing", "turn view %d", i)
			}
		}
		for seat, p := range s.Players {
			if p.Cash == nil {
				return verdict.Failf("PYYOL-MONO-PERFECT-INFO", "every seat's cash", "none", "seat %d in turn view %d", seat, i)
			}
		}
		return nil
	})
}

// checkEconomy: with the default economy every seat starts on $1500 and
// the GO salary is $200 (PYYOL-MONO-ECONOMY, PYYOL-MONO-CFG-ECONOMY).
func (m *monoRun) checkEconomy() error {
	start, ok := m.rule("starting_cash")
	if ok && start != 1500 || len(m.turns) == 0 {
		return nil // a table that asked for another economy
	}
	first := m.turns[0]
	if first.view.State == nil {
		return nil
	}
	for s, p := range first.view.State.Players {
		if p.Cash != nil && *p.Cash != 1500 && first.seen <= 2 {
			return verdict.Failf("PYYOL-MONO-ECONOMY", 1500, *p.Cash, "seat %d's cash in the first view, before any money moved", s)
		}
	}
	for _, e := range m.events {
		p := payload(e)
		if amt, ok := fieldInt(p, "amount"); e.Type == "cash_changed" && p["reason"] == "go_salary" && ok && amt != 200 {
			return verdict.Failf("PYYOL-MONO-CFG-ECONOMY", 200, amt, "the GO salary paid at event %d", e.Seq)
		}
	}
	return m.cardsPaid()
}
