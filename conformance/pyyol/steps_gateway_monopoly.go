package pyyol

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// gatewayMonopolySteps registers the steps of features/pyyol/gateway-monopoly.feature.
func (m *monoRun) gatewayMonopolySteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent registers for a Monopoly practice match of (\d+) seats and a turn cap of (\d+)$`), func(ctx context.Context, seats, limit string) error {
		n, _ := strconv.Atoi(seats)
		c, _ := strconv.Atoi(limit)
		m.practice = map[string]any{"players": n, "turn_cap": c, "seat": 0}
		return m.registerMonopoly(ctx)
	})
	sc.Step(pattern(`^the agent registers for a Monopoly practice match of (\d+) seats, a turn cap of (\d+) and (dealing bots|the free parking pool|starting cash of 100)$`), func(ctx context.Context, seats, limit, table string) error {
		n, _ := strconv.Atoi(seats)
		c, _ := strconv.Atoi(limit)
		m.practice = map[string]any{"players": n, "turn_cap": c, "seat": 0}
		// PYYOL-MONO-REF-PRACTICE-DEALS: the further practice options.
		switch table {
		case "dealing bots":
			m.practice["bots"] = "dealing"
		case "the free parking pool":
			m.practice["free_parking_pool"] = true
		default:
			m.practice["starting_cash"] = 100
		}
		return m.registerMonopoly(ctx)
	})
	sc.Step(pattern(`^the agent plays up to (\d+) Monopoly matches as a (dealer|spendthrift|spendthrift buyer|pauper) until it (uses a jail card|sells a house|goes bankrupt to a seat|pays off a debt to a seat)$`), func(ctx context.Context, n, style, goal string) error {
		tries, _ := strconv.Atoi(n)
		reached := map[string]func() bool{
			"uses a jail card":          func() bool { return m.chose("use_jail_card") },
			"sells a house":             func() bool { return m.chose("sell_house") },
			"goes bankrupt to a seat":   m.bankruptToSeat,
			"pays off a debt to a seat": m.paidOffDebt, // stylePauper's (monopoly_pauper.go)
		}[goal]
		return m.playUntil(ctx, style, tries, reached)
	})
	sc.Step(pattern(`^every turn went roll, landing, manage and end_turn$`), m.checkPhaseMachine)
	sc.Step(pattern(`^the agent plays the Monopoly match choosing from the legal list$`), m.play)
	sc.Step(pattern(`^the table had 2 to 8 seats, as initialize announced$`), m.checkTable)
	sc.Step(pattern(`^every Monopoly view named the seat, a phase and actions legal in it$`), m.checkViews)
	sc.Step(pattern(`^buildings stood only on whole colour groups, built evenly$`), m.checkBuildings)
	sc.Step(pattern(`^the match ended within its turn cap with the documented winner$`), m.checkEnd)
	sc.Step(pattern(`^every action chosen from the legal list took effect$`), m.checkEffects)
	sc.Step(pattern(`^end_turn ended the turn unless doubles were rolled$`), m.checkEndTurns)
	sc.Step(pattern(`^every trade the agent offered was answered$`), m.checkTrades)
	sc.Step(pattern(`^every auction opened and closed with its events$`), m.checkAuctions)
}

// checkEffects: every action the agent chose from legal_actions took effect.
func (m *monoRun) checkEffects() error {
	m.noteUnreached()
	for i, t := range m.turns {
		a, _ := t.move["action"].(string)
		effect, ok := monoEffect[a]
		if t.probe {
			if err := m.probeRefused(i, t); err != nil {
				return err
			}
			continue
		}
		if !ok || i == len(m.turns)-1 && m.end == nil || !slices.Contains(t.view.LegalActions, a) {
			continue
		}
		if a == "decline" && slices.ContainsFunc(t.after, func(e frame) bool {
			s, _ := fieldInt(payload(e), "seat")
			return e.Type == "property_purchased" && s == m.seat
		}) {
			return verdict.Failf("PYYOL-MONO-ACT-DECLINE", "the property left unbought (or auctioned)", "bought by the seat that declined", "turn view %d", i)
		}
		if err := m.actionBroken(i, t); err != nil {
			return err
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

// checkEndTurns: end_turn ends the turn (turn_ended) unless the seat
// rolled doubles and is not in jail, when it rolls again
// (PYYOL-MONO-ACT-END-TURN).
func (m *monoRun) checkEndTurns() error {
	doubles, rolled, read := false, false, 0
	for i, t := range m.turns {
		for _, e := range m.events[min(read, t.seen, len(m.events)):min(t.seen, len(m.events))] {
			if e.Type == "turn_started" {
				doubles, rolled = false, false
			}
			if s, _ := fieldInt(payload(e), "seat"); e.Type == "dice_rolled" && s == m.seat {
				d, _ := payload(e)["dice"].([]any)
				doubles = len(d) == 2 && d[0] == d[1]
			}
		}
		read = max(read, t.seen)
		a, _ := t.move["action"].(string)
		if !slices.Contains(t.view.LegalActions, a) {
			continue
		}
		if a == "roll" || a == "roll_jail" {
			// A jail roll's doubles free the seat; whether they roll
			// again is left open (PYYOL-MONO-REF-JAIL), so only the
			// doubles of a plain roll promise another.
			rolled = a == "roll"
		}
		if a != "end_turn" || i == len(m.turns)-1 {
			continue
		}
		ended := slices.ContainsFunc(t.after, func(e frame) bool { return e.Type == "turn_ended" })
		jailed := t.view.State != nil && m.seat < len(t.view.State.Players) && t.view.State.Players[m.seat].InJail
		if !ended && !(doubles && !jailed) {
			return verdict.Failf("PYYOL-MONO-ACT-END-TURN", "turn_ended", "none", "end_turn at turn view %d without doubles", i)
		}
		if s := m.passedTo(t); s >= 0 && doubles && rolled && !jailed {
			return verdict.Failf("PYYOL-MONO-ACT-END-TURN", "another roll after doubles", fmt.Sprintf("seat %d's turn started", s), "end_turn at turn view %d after doubles", i)
		}
	}
	return nil
}

// passedTo is the other seat whose turn started before the agent's next
// decision, or -1: the re-roll after doubles may come as a turn_ended
// and a turn_started of the agent's own seat (the real platform's
// endTurn), never as another seat's turn. A bankrupt agent rolls no more
// (-1 too).
func (m *monoRun) passedTo(t *monoTurn) int {
	for _, e := range t.after {
		s, _ := fieldInt(payload(e), "seat")
		switch {
		case e.Type == "bankrupt" && s == m.seat:
			return -1
		case e.Type == "turn_started" && s != m.seat:
			return s
		}
	}
	return -1
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

// checkEnd: the match ended by the turn cap it announced; when one seat
// alone stayed solvent it is the winner (PYYOL-MONO-WIN-TURN-CAP,
// PYYOL-MONO-WIN-LAST-SOLVENT).
func (m *monoRun) checkEnd() error {
	limit, capped := m.rule("turn_cap")
	players, _ := m.rule("players")
	bankrupt, turns, rolls := map[int]bool{}, 0, 0
	for _, e := range m.events {
		p := payload(e)
		switch e.Type {
		case "turn_started":
			turns++
		case "dice_rolled":
			rolls++
		}
		if turn, ok := fieldInt(p, "turn"); capped && e.Type == "turn_started" && ok && turn > limit {
			return verdict.Failf("PYYOL-MONO-WIN-TURN-CAP", fmt.Sprintf("the game over by turn %d", limit), fmt.Sprintf("turn %d started", turn), "event %d", e.Seq)
		}
		if s, ok := fieldInt(p, "seat"); e.Type == "bankrupt" && ok {
			bankrupt[s] = true
		}
	}
	if err := m.capReached(limit, capped, max(turns, rolls), players-len(bankrupt)); err != nil {
		return err
	}
	if err := m.capWinner(players, bankrupt); err != nil {
		return err
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
	w := m.endWinners()
	if !slices.Contains(w, last) || slices.ContainsFunc(w, func(s int) bool { return s != last }) {
		return verdict.Failf("PYYOL-MONO-WIN-LAST-SOLVENT", last, w, "the winner of a match everyone else went bankrupt in")
	}
	return nil
}

// checkPhaseMachine: in the agent's own turn no landing is resolved and
// no manage phase opens before the agent rolled or moved (PYYOL-MONO-PHASE-MACHINE:
// roll, resolve where you land, then manage and end_turn).
func (m *monoRun) checkPhaseMachine() error {
	current, rolled, last := -1, false, ""
	return m.replay(func(e frame) error {
		p := payload(e)
		seat, _ := fieldInt(p, "seat")
		switch e.Type {
		case "turn_started":
			current, rolled, last = seat, false, ""
		case "dice_rolled", "moved", "went_to_jail":
			// the roll's own event, or (should that be missing, which
			// PYYOL-MONO-EV-DICE-ROLLED judges) the move it made
			rolled = rolled || seat == m.seat
		}
		return nil
	}, func(i int, t *monoTurn) error {
		if current == m.seat && !rolled && (t.view.Phase == "manage" || t.view.Phase == "acquire") {
			return verdict.Failf(rollOwed(last), "roll before the landing and manage", t.view.Phase,
				"turn view %d: the agent's turn reached %s with no roll", i, t.view.Phase)
		}
		if a, _ := t.move["action"].(string); slices.Contains(t.view.LegalActions, a) {
			last = a
		}
		a, _ := t.move["action"].(string)
		rolled = rolled || (a == "roll" || a == "roll_jail") && slices.Contains(t.view.LegalActions, a)
		return nil
	})
}

// checkViews: every view is the agent's seat, a documented phase, a
// non-empty legal list of actions legal in that phase (end_turn always
// among them in manage), and a state with players and holdings, whose
// mortgaged flags keep the agent's own mortgages (mortgagesShown).
func (m *monoRun) checkViews() error {
	for i, t := range m.turns {
		v := t.view
		where := fmt.Sprintf("turn view %d", i)
		if i > 0 && v.Phase == "trade" && skippedFloor(m.turns[i-1]) {
			return verdict.Failf("PYYOL-MONO-ACT-SKIP-TRADE", "roll or jail after skip_trade", v.Phase, "%s", where)
		}
		if v.Seat == nil || *v.Seat != m.seat {
			return verdict.Failf("PYYOL-MONO-VIEW-SEAT", m.seat, v.Seat, "%s", where)
		}
		allowed, ok := monoLegalIn[v.Phase]
		if !ok || v.Phase == "game_over" {
			return verdict.Failf("PYYOL-MONO-VIEW-PHASE", "a documented phase owing a decision", v.Phase, "%s", where)
		}
		for _, a := range v.LegalActions {
			if _, phase := monoLegalIn[a]; phase && a != "roll" {
				return verdict.Failf("PYYOL-MONO-PHASE-NOT-ACTION", "action names", a, "%s: a phase name listed as an action", where)
			}
		}
		if v.Phase == "manage" && !slices.Contains(v.LegalActions, "end_turn") {
			return verdict.Failf("PYYOL-MONO-END-TURN-SAFE", "end_turn listed", v.LegalActions, "%s", where)
		}
		if len(v.LegalActions) == 0 {
			return verdict.Failf("PYYOL-MONO-VIEW-LEGAL", "at least one legal action", "none", "%s", where)
		}
		for _, a := range v.LegalActions {
			if !slices.Contains(allowed, a) {
				return verdict.Failf(phaseRule(v.Phase), allowed, a, "%s: an action not legal in phase %s", where, v.Phase)
			}
		}
		if v.State == nil || len(v.State.Players) < 2 || len(v.State.Holdings) == 0 {
			return verdict.Failf("PYYOL-MONO-VIEW-STATE", "state with players and holdings", "missing", "%s", where)
		}
		if s := cashless(v.State.Players); s >= 0 {
			return verdict.Failf("PYYOL-MONO-VIEW-STATE", "every seat's cash in players", fmt.Sprintf("no cash for seat %d", s), "%s", where)
		}
		if s := placeless(v.State.Players); s >= 0 {
			return verdict.Failf("PYYOL-MONO-VIEW-STATE", "every seat's position in players", fmt.Sprintf("no position for seat %d", s), "%s", where)
		}
		if freedInJail(v.Phase, m.seat, v.State.Players) {
			return verdict.Failf("PYYOL-MONO-VIEW-STATE", "in_jail true for the seat its jail phase asks", "in_jail false", "%s", where)
		}
	}
	return m.mortgagesShown()
}

// cashless is the first solvent seat whose entry in players shows no
// cash, or -1: the docs name each player's cash in the state ("players
// (cash, position, jail, bankrupt)"), and near-perfect information hides
// no seat's (PYYOL-MONO-VIEW-STATE). A bankrupt seat's may be left out.
func cashless(players []monoPlayer) int {
	return slices.IndexFunc(players, func(p monoPlayer) bool { return p.Cash == nil && !p.Bankrupt })
}

// freedInJail reports whether a view owing the jail decision shows its
// own seat's in_jail as false: the phase jail is a jailed seat's
// (PYYOL-MONO-PHASE-JAIL) and the state holds each player's jail
// (PYYOL-MONO-VIEW-STATE), so the two contradict. A view whose players
// do not spell in_jail is not judged.
func freedInJail(phase string, seat int, players []monoPlayer) bool {
	return phase == "jail" && seat >= 0 && seat < len(players) && players[seat].Jailed && !players[seat].InJail
}

// placeless is the first solvent seat whose entry in players shows no
// position, or -1. The docs name each player's position in the state
// ("players (cash, position, jail, bankrupt)"), and the board is the
// whole board in every view (PYYOL-MONO-VIEW-STATE): a view that redacts
// the other seats' squares hides what it must show.
func placeless(players []monoPlayer) int {
	return slices.IndexFunc(players, func(p monoPlayer) bool { return !p.Placed && !p.Bankrupt })
}

// checkBuildings: a street with buildings belongs to a whole colour group
// of one owner, and its group's buildings differ by at most one
// (PYYOL-MONO-ACT-BUILD: even-build rules apply).
func (m *monoRun) checkBuildings() error {
	b, err := monopoly.StandardBoard()
	if err != nil {
		return err
	}
	for i, t := range m.turns {
		if t.view.State == nil {
			continue
		}
		at := map[int]monoHolding{}
		for _, h := range t.view.State.Holdings {
			at[h.Square] = h
		}
		for _, h := range t.view.State.Holdings {
			if h.Houses == 0 || h.Square < 0 || h.Square >= len(b.Squares) || b.Squares[h.Square].Kind != monopoly.KindStreet {
				continue
			}
			lo, hi := 5, 0
			for _, o := range b.Group(h.Square) {
				g := at[o]
				if g.Owner != h.Owner {
					return verdict.Failf("PYYOL-MONO-ACT-BUILD", "buildings only on a whole colour group", fmt.Sprintf("square %d built (%d) while square %d belongs to seat %d", h.Square, h.Houses, o, g.Owner), "turn view %d", i)
				}
				lo, hi = min(lo, g.Houses), max(hi, g.Houses)
			}
			if hi-lo > 1 {
				return verdict.Failf("PYYOL-MONO-ACT-BUILD", "a group's buildings within one of each other", fmt.Sprintf("%d..%d around square %d", lo, hi, h.Square), "turn view %d", i)
			}
		}
	}
	return nil
}

// checkTable: initialize announced 2..8 seats and every view shows that
// many players (PYYOL-MONO-CFG-PLAYERS, PYYOL-MONO-SEATS).
func (m *monoRun) checkTable() error {
	announced := []int{}
	if n, ok := m.rule("players"); ok {
		announced = append(announced, n)
	}
	var body struct {
		Players *int `json:"players"`
	}
	if m.init != nil && jsonInto(m.init.Body, &body) == nil && body.Players != nil {
		announced = append(announced, *body.Players)
	}
	for _, n := range announced {
		if n < 2 || n > 8 {
			return verdict.Failf("PYYOL-MONO-CFG-PLAYERS", "2..8 seats", n, "the table size initialize announced")
		}
	}
	if len(announced) == 0 {
		return nil
	}
	players := announced[len(announced)-1]
	for i, t := range m.turns {
		if t.view.State != nil && len(t.view.State.Players) != players {
			return verdict.Failf("PYYOL-MONO-SEATS", players, len(t.view.State.Players), "players in turn view %d", i)
		}
	}
	return nil
}

// rollOwed is the rule a turn that reached manage without a roll breaks:
// a fine paid or a card spent promises the roll ("Pay the $50 fine, then
// roll", PYYOL-MONO-ACT-PAY-JAIL, PYYOL-MONO-ACT-USE-JAIL-CARD), else
// the phase machine's order (PYYOL-MONO-PHASE-MACHINE). last is the
// agent's last listed action this turn.
func rollOwed(last string) string {
	switch last {
	case "pay_jail":
		return "PYYOL-MONO-ACT-PAY-JAIL"
	case "use_jail_card":
		return "PYYOL-MONO-ACT-USE-JAIL-CARD"
	}
	return "PYYOL-MONO-PHASE-MACHINE"
}

// capReached: a match that finished with two or more seats solvent ended
// by the turn cap, so at least turn_cap turns were played: one seat's
// turn, a round of all of them, or every roll of the dice (the real
// platform's cap counts rolls, backend/internal/engine/monopoly), so no
// fewer turn_started or dice_rolled events than the cap, whichever
// counts more (PYYOL-MONO-WIN-TURN-CAP: "If the turn cap is reached
// first"). A match the run did not see end decides nothing.
func (m *monoRun) capReached(limit int, capped bool, turns, solvent int) error {
	finished := slices.ContainsFunc(m.events, func(e frame) bool { return e.Type == "match_finished" })
	if !capped || !finished || solvent < 2 || turns >= limit {
		return nil
	}
	return verdict.Failf("PYYOL-MONO-WIN-TURN-CAP", fmt.Sprintf("%d turns (or rolls) before the cap ended the match", limit),
		fmt.Sprintf("%d at most", turns), "a match that finished with %d seats solvent", solvent)
}
