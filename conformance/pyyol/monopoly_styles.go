package pyyol

import (
	"context"
	"fmt"
	"slices"

	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// The play styles beside the default one: each steers a practice match
// to the situations a short default match never reaches.
const (
	// styleDealer answers the trades put to it (accept, reject, counter
	// in turn), buys whole colour groups from the bots, builds evenly and
	// sells a house once (PYYOL-MONO-REF-PRACTICE-DEALS).
	styleDealer = "dealer"
	// styleSpendthrift gives its cash away on every trade floor and buys
	// nothing, so it falls into debt and goes bankrupt.
	styleSpendthrift = "spendthrift"
	// styleMiser buys nothing and never bids, so on a poor table an
	// auction closes unsold.
	styleMiser = "miser"
	// styleSpendthriftBuyer buys the first two properties it can, then
	// plays the spendthrift: it goes bankrupt holding them, so the estate
	// handed to its creditor has properties in it (PYYOL-MONO-ACT-BANKRUPT).
	styleSpendthriftBuyer = "spendthrift buyer"
)

// standardBoard is the standard board (PYYOL-MONO-REF-BOARD); nil if the
// fixture cannot be read, and the styles then play the safe choices.
func standardBoard() *monopoly.Board {
	b, err := monopoly.StandardBoard()
	if err != nil {
		return nil
	}
	return b
}

// seatView is the agent's own standing and the board's holdings by square.
type seatView struct {
	cash     int
	holdings map[int]monoHolding
}

// mine reads the agent's cash and the board's holdings from a view.
func (m *monoRun) mine(v monoView) seatView {
	s := seatView{holdings: map[int]monoHolding{}}
	if v.State == nil {
		return s
	}
	if m.seat < len(v.State.Players) && v.State.Players[m.seat].Cash != nil {
		s.cash = *v.State.Players[m.seat].Cash
	}
	for _, h := range v.State.Holdings {
		s.holdings[h.Square] = h
	}
	return s
}

// sorted lists the holdings in square order, so a policy is repeatable.
func (s seatView) sorted() []monoHolding {
	var out []monoHolding
	for sq := range 40 {
		if h, ok := s.holdings[sq]; ok {
			out = append(out, h)
		}
	}
	return out
}

// act is a move of one action kind; onSquare one naming a property.
func act(a string) map[string]any { return map[string]any{"action": a} }

func onSquare(a string, sq int) map[string]any { return map[string]any{"action": a, "property": sq} }

// spendthriftPolicy: a spendthrift gives all its cash to the next seat on
// every trade floor; both it and the miser decline every property, pass
// every auction, reject every offer, use a jail card or roll for doubles
// in jail and, in debt, mortgage what they can before going bankrupt.
func (m *monoRun) spendthriftPolicy(v monoView) map[string]any {
	has := func(a string) bool { return slices.Contains(v.LegalActions, a) }
	me := m.mine(v)
	buyer := m.style == styleSpendthriftBuyer
	// The buyer keeps $1 back, so the estate its creditor takes holds
	// cash as well as properties (estateCash).
	kept := 0
	if buyer {
		kept = 1
	}
	switch {
	case buyer && has("buy") && len(m.heldBy(v)) < 2:
		return act("buy")
	case (m.style == styleSpendthrift || buyer && len(m.heldBy(v)) >= 2) && has("propose_trade") && me.cash > kept && v.State != nil && len(v.State.Players) > 1:
		target := (m.seat + 1) % len(v.State.Players)
		return map[string]any{"action": "propose_trade", "trade": map[string]any{"proposer": m.seat, "target": target,
			"give_props": []int{}, "give_cash": me.cash - kept, "want_props": []int{}, "want_cash": 0}}
	case has("mortgage") && v.Phase == "resolve_debt":
		if sq := m.mortgageable(me); sq >= 0 {
			return onSquare("mortgage", sq)
		}
	}
	for _, a := range []string{"bankrupt", "decline", "pass", "reject_trade", "use_jail_card", "roll_jail", "skip_trade", "roll", "end_turn"} {
		if has(a) {
			return act(a)
		}
	}
	return m.safe(v)
}

// safe is the first listed action, or end_turn.
func (m *monoRun) safe(v monoView) map[string]any {
	if len(v.LegalActions) > 0 {
		return act(v.LegalActions[0])
	}
	return act("end_turn")
}

// dealerPolicy: see styleDealer.
func (m *monoRun) dealerPolicy(v monoView) map[string]any {
	has := func(a string) bool { return slices.Contains(v.LegalActions, a) }
	me := m.mine(v)
	b := standardBoard()
	switch v.Phase {
	case "trade_response":
		return m.answerTrade(v, me)
	case "resolve_debt":
		if sq := m.sellable(b, me); has("sell_house") && sq >= 0 {
			return onSquare("sell_house", sq)
		}
		if sq := m.mortgageable(me); has("mortgage") && sq >= 0 {
			return onSquare("mortgage", sq)
		}
		return act("bankrupt")
	case "jail":
		for _, a := range []string{"use_jail_card", "roll_jail"} {
			if has(a) {
				return act(a)
			}
		}
	case "acquire":
		if has("buy") {
			return act("buy")
		}
	}
	if has("propose_trade") {
		if offer := m.groupOffer(b, v, me); offer != nil {
			return map[string]any{"action": "propose_trade", "trade": offer}
		}
	}
	if sq := m.sellable(b, me); has("sell_house") && !m.sold && sq >= 0 && me.holdings[sq].Houses >= 2 {
		m.sold = true
		return onSquare("sell_house", sq)
	}
	if sq := m.unevenHotel(b, me); has("build") && !m.probed && sq >= 0 {
		m.probed, m.probing = true, true
		return onSquare("build", sq)
	}
	if sq := m.buildable(b, v, me); has("build") && sq >= 0 {
		return onSquare("build", sq)
	}
	for _, a := range []string{"end_turn", "roll", "roll_jail", "pass", "skip_trade", "decline"} {
		if has(a) {
			return act(a)
		}
	}
	return m.safe(v)
}

// answerTrade accepts, rejects and counters in turn; a counter offers the
// proposer a dollar back.
func (m *monoRun) answerTrade(v monoView, me seatView) map[string]any {
	has := func(a string) bool { return slices.Contains(v.LegalActions, a) }
	m.answers++
	proposer := -1
	if v.State != nil && v.State.Trade != nil {
		proposer = v.State.Trade.Proposer
	}
	switch {
	case m.answers%3 == 1 && has("accept_trade"):
		return act("accept_trade")
	case m.answers%3 == 0 && has("counter_trade") && me.cash >= 1 && proposer >= 0:
		return map[string]any{"action": "counter_trade", "trade": map[string]any{"proposer": m.seat, "target": proposer,
			"give_props": []int{}, "give_cash": 1, "want_props": []int{}, "want_cash": 0}}
	case has("reject_trade"):
		return act("reject_trade")
	}
	return m.safe(v)
}

// groupOffer offers a bot twice the list price of its part of a colour
// group whose other squares are the agent's, unbuilt and unmortgaged,
// while the agent keeps $200 (the dealing bots accept it).
func (m *monoRun) groupOffer(b *monopoly.Board, v monoView, me seatView) map[string]any {
	if b == nil || v.State == nil {
		return nil
	}
	for sq := range b.Squares {
		if b.Squares[sq].Kind != monopoly.KindStreet || b.Group(sq)[0] != sq {
			continue
		}
		owner, want, cost := -1, []int{}, 0
		ok := true
		for _, o := range b.Group(sq) {
			h, known := me.holdings[o]
			ok = ok && known && h.Owner >= 0 && h.Houses == 0 && !h.Mortgaged
			if known && h.Owner != m.seat && h.Owner >= 0 {
				ok = ok && (owner < 0 || owner == h.Owner)
				owner = h.Owner
				want = append(want, o)
				cost += 2 * b.Squares[o].Price
			}
		}
		if ok && owner >= 0 && owner < len(v.State.Players) && !v.State.Players[owner].Bankrupt && me.cash >= cost+200 {
			return map[string]any{"proposer": m.seat, "target": owner, "give_props": []int{}, "give_cash": cost,
				"want_props": want, "want_cash": 0}
		}
	}
	return nil
}

// buildable is a street the even-build rules let the agent build on with
// $150 to spare, or -1 (PYYOL-MONO-ACT-BUILD).
func (m *monoRun) buildable(b *monopoly.Board, v monoView, me seatView) int {
	if b == nil {
		return -1
	}
	for _, h := range me.sorted() {
		sq := h.Square
		if h.Owner != m.seat || b.Squares[sq].Kind != monopoly.KindStreet || h.Houses >= 5 || me.cash < b.Squares[sq].HouseCost+150 {
			continue
		}
		lo, whole := 5, true
		for _, o := range b.Group(sq) {
			g := me.holdings[o]
			whole = whole && g.Owner == m.seat && !g.Mortgaged
			lo = min(lo, g.Houses)
		}
		if whole && h.Houses == lo && m.supplied(v, h.Houses) {
			return sq
		}
	}
	return -1
}

// supplied reports whether the bank, as the view shows it, has the house
// (or, on four houses, the hotel) to build; a view without the counts is
// taken to have them.
func (m *monoRun) supplied(v monoView, houses int) bool {
	if v.State == nil || v.State.BankHouses == nil || v.State.BankHotels == nil {
		return true
	}
	if houses == 4 {
		return *v.State.BankHotels > 0
	}
	return *v.State.BankHouses > 0
}

// sellable is a street of the agent's with as many buildings as the most
// of its group (even sell), or -1; a hotel is left alone.
func (m *monoRun) sellable(b *monopoly.Board, me seatView) int {
	if b == nil {
		return -1
	}
	for _, h := range me.sorted() {
		sq := h.Square
		if h.Owner != m.seat || h.Houses == 0 || h.Houses == 5 {
			continue
		}
		hi := 0
		for _, o := range b.Group(sq) {
			hi = max(hi, me.holdings[o].Houses)
		}
		if h.Houses == hi {
			return sq
		}
	}
	return -1
}

// mortgageable is an unmortgaged square of the agent's with no buildings
// in its group, or -1 (PYYOL-MONO-ACT-MORTGAGE).
func (m *monoRun) mortgageable(me seatView) int {
	b := standardBoard()
	for _, h := range me.sorted() {
		sq := h.Square
		if h.Owner != m.seat || h.Mortgaged || b == nil {
			continue
		}
		built := false
		for _, o := range b.Group(sq) {
			built = built || me.holdings[o].Houses > 0
		}
		if !built {
			return sq
		}
	}
	return -1
}

// unevenHotel is a street of the agent's on four houses while another of
// its group stands lower, with cash for the hotel, or -1: the hotel the
// even-build rules forbid, which the dealer asks for once to see it
// refused (PYYOL-MONO-ACT-BUILD).
func (m *monoRun) unevenHotel(b *monopoly.Board, me seatView) int {
	if b == nil {
		return -1
	}
	for _, h := range me.sorted() {
		if h.Owner != m.seat || h.Houses != 4 || me.cash < b.Squares[h.Square].HouseCost {
			continue
		}
		lo := 5
		for _, o := range b.Group(h.Square) {
			lo = min(lo, me.holdings[o].Houses)
		}
		if lo < 4 {
			return h.Square
		}
	}
	return -1
}

// steered are the actions each style steers its match towards.
var steered = map[string][]string{
	"":                    {"propose_trade", "decline", "bid", "roll_jail", "mortgage", "unmortgage"},
	styleDealer:           {"accept_trade", "reject_trade", "counter_trade", "build", "sell_house", "use_jail_card", "roll_jail"},
	styleSpendthrift:      {"propose_trade", "bankrupt", "roll_jail", "use_jail_card"},
	styleSpendthriftBuyer: {"buy", "propose_trade", "bankrupt"},
	styleMiser:            {"decline", "pass"},
	stylePauper:           {"buy", "mortgage"},
}

// noteUnreached writes in the run's transcript which of the style's
// actions the match never offered, so a pass says what it did not decide
// (their checks had nothing to judge in this match).
func (m *monoRun) noteUnreached() {
	var missing []string
	for _, a := range steered[m.style] {
		if !m.chose(a) {
			missing = append(missing, a)
		}
	}
	if len(missing) > 0 && m.g.env != nil && m.g.env.HTTP != nil {
		m.g.env.HTTP.Recorder().Note(fmt.Sprintf("Monopoly (%s play): this match never reached %v; the checks of those actions decided nothing here", styleName(m.style), missing))
	}
}

func styleName(style string) string {
	if style == "" {
		return "default"
	}
	return style
}

// playUntil plays matches of a style on the registered table until one
// reached what the scenario looks for, at most tries of them; the checks then judge that match. Each new match registers
// again on a new connection. A rare situation (a jail card held in
// jail) comes this way in most runs; with none, the last match is
// judged and its note says what it never reached.
func (m *monoRun) playUntil(ctx context.Context, style string, tries int, reached func() bool) error {
	m.style = style
	for n := 1; ; n++ {
		if err := m.play(ctx); err != nil || n >= tries || reached() {
			return err
		}
		m.g.ws.Close()
		*m = monoRun{g: m.g, practice: m.practice, style: style, ref: m.ref}
		if err := m.registerMonopoly(ctx); err != nil {
			return err
		}
	}
}

// chose reports whether the agent chose action from a legal list.
func (m *monoRun) chose(action string) bool {
	return slices.ContainsFunc(m.turns, func(t *monoTurn) bool {
		a, _ := t.move["action"].(string)
		return a == action && slices.Contains(t.view.LegalActions, a)
	})
}

// bankruptToSeat reports whether the agent went bankrupt on a debt its
// view showed owed to one seat (PYYOL-MONO-ACT-BANKRUPT's telling case).
func (m *monoRun) bankruptToSeat() bool {
	return slices.ContainsFunc(m.turns, func(t *monoTurn) bool {
		a, _ := t.move["action"].(string)
		s := t.view.State
		return a == "bankrupt" && s != nil && s.Debt != nil && len(s.Debt.Creditors) == 1
	})
}
