package pyyol

import (
	"fmt"
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// The shadow referee (issue 25, class 4): it follows every Monopoly event
// and view the runner saw, keeps the public board (owners, buildings,
// mortgages, dice, cash) and recomputes each money move the contract
// fixes ("A standard Monopoly game ... $200 for passing GO", "Standard
// Monopoly"): the GO salary, rent by the standard table, taxes, mortgage
// values and the auction price, and each view's legal list and secrecy
// (referee_monopoly_legal.go). Where the contract leaves a figure open
// (an edition's tax, a card's rent, rounding) it accepts every reading;
// the standard figures come from the reference board
// (PYYOL-MONO-REF-BOARD), read through its own code.

// refBoard is the public board the referee keeps between views.
type refBoard struct {
	board     *monopoly.Board
	salary    int
	owner     map[int]int
	houses    map[int]int
	mortgaged map[int]bool
	ledger    *monoLedger
	// dice is the last roll's sum (0: none yet); carded is set once a card
	// was drawn since it, so a move is the card's, not the dice's.
	dice   int
	roller int
	carded bool
	// open are the money windows a landing opened, closed by the payment
	// or the next move.
	salary1  *refWindow
	noSalary *refWindow
	rent     *refWindow
	tax      *refWindow
	// diceUsed is set once a move took the last roll's steps.
	diceUsed bool
	// jailed are the seats in jail, whose only cash payment is the fine.
	jailed map[int]bool
	// highBid is the open auction's high bid from its events; wonBy the
	// seats that won an auction since the last view.
	highBid int
	wonBy   map[int]int
	// bothUtilities is set once a seat landed by the dice on a utility of
	// an owner holding both: the 10x reading a flat 4x misses
	// (PYYOL-MONO-RENT).
	bothUtilities bool
	// threeRailroads is set once a seat landed on a railroad of an owner
	// holding three or more: where a rent of $25 a railroad held parts
	// from the doubling table (PYYOL-MONO-RENT).
	threeRailroads bool
	// managed is the last cash_changed of a building or a sale the
	// platform sends before its house_built or house_sold.
	managed *managedCash
	// card is the money of the last card drawn, judged when its window
	// closes (referee_monopoly_cards.go); out the bankrupt seats.
	card *cardMoney
	out  map[int]bool
}

// managedCash is one seat's cash_changed for a building or a sale.
type managedCash struct {
	seat, amount int
	reason       string
}

// withManagedAmount gives a house_built or house_sold without an amount
// (the platform's) the amount of the cash_changed just before it for the
// same seat and reason, so the referee judges the figure either way.
func (b *refBoard) withManagedAmount(p map[string]any, seat int, reason string) map[string]any {
	c := b.managed
	b.managed = nil
	if _, has := p["amount"]; has || c == nil || c.seat != seat || c.reason != reason {
		return p
	}
	return map[string]any{"amount": float64(c.amount), "houses": p["houses"], "count": p["count"]}
}

// refWindow is a payment a landing owes: who, where and the amounts the
// readings accept (rent, tax), or how many salaries came (salary).
type refWindow struct {
	seat, sq, to int
	accept       []int
	count        int
	seq          int
}

// newRefBoard starts a board with every square unowned and every seat on
// its starting cash.
func (m *monoRun) newRefBoard(board *monopoly.Board) *refBoard {
	salary, ok := m.rule("go_salary")
	if !ok {
		salary = 200
	}
	b := &refBoard{board: board, salary: salary, owner: map[int]int{}, houses: map[int]int{},
		mortgaged: map[int]bool{}, wonBy: map[int]int{}, jailed: map[int]bool{}, out: map[int]bool{}}
	b.ledger = m.newLedger()
	return b
}

// newLedger starts a ledger with every seat on the starting cash
// initialize announced; nil when it announced neither that nor the seats.
func (m *monoRun) newLedger() *monoLedger {
	start, ok1 := m.rule("starting_cash")
	players, ok2 := m.rule("players")
	if !ok1 || !ok2 || players < 2 || players > 8 {
		return nil
	}
	l := &monoLedger{cash: make([]int, players), ok: true}
	for i := range l.cash {
		l.cash[i] = start
	}
	return l
}

// refereeMonopoly judges the match just played; nil when every recomputed
// figure matched.
func (m *monoRun) refereeMonopoly() error {
	board := standardBoard()
	if board == nil {
		return verdict.Errorf("the standard board fixture cannot be read")
	}
	b := m.newRefBoard(board)
	defer m.bookBothUtilities(b)
	if err := m.replay(b.event, func(i int, t *monoTurn) error {
		if err := m.judgeView(b, i, t); err != nil {
			return err
		}
		return b.view(i, t)
	}); err != nil {
		return err
	}
	return m.tradedHoldings()
}

// bookBothUtilities notes the rent on a utility of an owner holding both
// among the states reached, so the collector knows to stop steering.
func (m *monoRun) bookBothUtilities(b *refBoard) {
	if m.ref != nil && b.bothUtilities {
		m.ref.reached[stateBothUtilities] = true
	}
	if m.ref != nil && b.threeRailroads {
		m.ref.reached[stateThreeRailroads] = true
	}
}

// read books one event into the ledger and an open card's payments, and
// decodes its payload, seat and property.
func (b *refBoard) read(e frame) (p map[string]any, seat, sq int) {
	if b.ledger != nil {
		b.ledger.book(e)
	}
	p = payload(e)
	seat, _ = fieldInt(p, "seat")
	sq, _ = fieldInt(p, "property")
	b.noteCard(e, p)
	return p, seat, sq
}

// event books one event and judges the payments it closes.
func (b *refBoard) event(e frame) error {
	p, seat, sq := b.read(e)
	switch e.Type {
	case "dice_rolled", "turn_started", "turn_ended", "went_to_jail", "match_finished":
		if err := b.closeWindows(e); err != nil {
			return err
		}
		if e.Type == "dice_rolled" {
			b.dice, b.roller, b.carded, b.diceUsed = diceSum(p), seat, false, false
		}
		if e.Type == "went_to_jail" {
			// "$200 for passing GO": a seat sent to jail passes no GO.
			b.noSalary = &refWindow{seat: seat, seq: e.Seq}
			b.jailed[seat] = true
		}
	case "left_jail":
		b.jailed[seat] = false
	case "moved":
		if err := b.closeWindows(e); err != nil {
			return err
		}
		b.moved(e, p, seat)
	case "card_drawn":
		// A card's payment is no salary: the pass of GO is judged here.
		if err := b.closeWindows(e); err != nil {
			return err
		}
		b.carded = true
		b.openCard(e, p, seat)
	case "cash_changed":
		return b.cash(e, p, seat)
	case "rent_paid":
		return b.rentPaid(e, p)
	case "mortgaged":
		b.mortgaged[sq] = true
		return b.mortgageAmount(e, p, sq)
	case "unmortgaged":
		b.mortgaged[sq] = false
	default:
		return b.holdingEvent(e, p, seat, sq)
	}
	return nil
}

// holdingEvent books purchases, auctions, buildings, trades and
// bankruptcies into the board.
func (b *refBoard) holdingEvent(e frame, p map[string]any, seat, sq int) error {
	switch e.Type {
	case "property_purchased":
		b.owner[sq] = seat
		return b.figure(e, p, sq, "PYYOL-MONO-ACT-BUY", "the list price", []string{"price", "amount"}, b.board.Squares[sq].Price)
	case "auction_started":
		b.highBid = 0
	case "bid_placed":
		if hb, ok := fieldInt(p, "high_bid"); ok {
			b.highBid = hb
		} else if amt, ok := fieldInt(p, "amount"); ok {
			b.highBid += amt
		}
	case "auction_won":
		b.owner[sq] = seat
		b.wonBy[seat] += b.highBid
		return b.auctionPrice(e, p)
	case "house_built":
		p = b.withManagedAmount(p, seat, "build")
		b.houses[sq] = houseCount(p, b.houses[sq]+1)
		return b.figure(e, p, sq, "PYYOL-MONO-ACT-BUILD", "the house cost", []string{"amount"}, b.board.Squares[sq].HouseCost)
	case "house_sold":
		p = b.withManagedAmount(p, seat, "sell_house")
		b.houses[sq] = houseCount(p, b.houses[sq]-1)
		n, ok := fieldInt(p, "count")
		if !ok || n < 1 {
			n = 1
		}
		return b.figure(e, p, sq, "PYYOL-MONO-ACT-SELL-HOUSE", fmt.Sprintf("half the house cost for %d", n), []string{"amount"}, n*(b.board.Squares[sq].HouseCost/2))
	case "trade_executed":
		tb := &monoBoard{owner: b.owner}
		tb.trade(p)
	case "bankrupt":
		b.out[seat] = true
		creditor, _ := fieldInt(p, "creditor")
		for _, sq := range bankruptProperties(p, b.owner, seat) {
			b.owner[sq], b.houses[sq] = creditor, 0
			if creditor < 0 {
				b.mortgaged[sq] = false
			}
		}
	}
	return nil
}

// houseCount is the buildings an event says now stand, else fallback.
func houseCount(p map[string]any, fallback int) int {
	if h, ok := fieldInt(p, "houses"); ok {
		return h
	}
	return max(fallback, 0)
}

// diceSum reads a dice_rolled payload's two dice (a [a, b] pair, or a
// total); 0 when neither is there.
func diceSum(p map[string]any) int {
	if d, ok := p["dice"].([]any); ok {
		sum := 0
		for _, v := range d {
			f, _ := v.(float64)
			sum += int(f)
		}
		return sum
	}
	if t, ok := fieldInt(p, "total"); ok {
		return t
	}
	return 0
}

// moved opens the windows of a landing: the GO salary when the dice took
// the token past GO, the rent of another seat's property, a tax.
func (b *refBoard) moved(e frame, p map[string]any, seat int) {
	from, ok1 := fieldInt(p, "from")
	to, ok2 := fieldInt(p, "to")
	if !ok1 || !ok2 || to < 0 || to >= len(b.board.Squares) {
		return
	}
	byDice := b.dice > 0 && b.roller == seat && !b.carded && !b.diceUsed && (from+b.dice)%40 == to
	b.diceUsed = b.diceUsed || byDice
	s := b.board.Squares[to]
	switch {
	case byDice && from+b.dice >= 40, cardPassesGo(b.carded, from, to):
		b.salary1 = &refWindow{seat: seat, sq: to, seq: e.Seq}
	case byDice && s.Kind != monopoly.KindFreePark:
		b.noSalary = &refWindow{seat: seat, sq: to, seq: e.Seq}
	}
	switch {
	case s.Kind == monopoly.KindTax:
		b.tax = &refWindow{seat: seat, sq: to, seq: e.Seq, accept: b.taxReadings(seat, to)}
	case b.board.Ownable(to):
		owner, owned := b.owner[to]
		if owned && owner >= 0 && owner != seat && !b.mortgaged[to] {
			b.rent = &refWindow{seat: seat, sq: to, to: owner, seq: e.Seq, accept: b.rentReadings(to, !byDice)}
			all, _, whole := b.groupOwned(to, owner)
			b.bothUtilities = b.bothUtilities || byDice && s.Kind == monopoly.KindUtility && whole && all == 2
			b.threeRailroads = b.threeRailroads || s.Kind == monopoly.KindRailroad && all >= 3
		}
	}
}

// cardPassesGo reports whether a card's move took the token forward past
// (or onto) GO: every standard card that moves a token forward pays the
// salary on passing GO ("Advance to ... If you pass Go, collect $200");
// the one backward card, "Go back 3 spaces", never wraps past GO
// forward (PYYOL-MONO-ECONOMY).
func cardPassesGo(carded bool, from, to int) bool {
	return carded && to < from && from-to != 3
}

// closeWindows ends the landing's windows at the next move: a pass of GO
// owes exactly one salary (PYYOL-MONO-ECONOMY). A rent or tax never paid
// is left to the event checks (a debt may defer it).
func (b *refBoard) closeWindows(e frame) error {
	if err := b.closeCard(e); err != nil {
		return err
	}
	w := b.salary1
	b.salary1, b.noSalary, b.rent, b.tax = nil, nil, nil, nil
	if w != nil && w.count != 1 {
		return verdict.Failf("PYYOL-MONO-ECONOMY", fmt.Sprintf("one $%d salary for passing GO", b.salary),
			fmt.Sprintf("%d salaries", w.count), "seat %d's roll past GO to square %d (event %d), before event %d", w.seat, w.sq, w.seq, e.Seq)
	}
	return nil
}

// cash judges a one-sided payment: the salary of a pass of GO, the tax of
// a tax square (PYYOL-MONO-ECONOMY: a standard game).
func (b *refBoard) cash(e frame, p map[string]any, seat int) error {
	amount, ok := fieldInt(p, "amount")
	if r, _ := p["reason"].(string); !ok || monoManagedMoney[r] {
		if ok && (r == "build" || r == "sell_house") {
			b.managed = &managedCash{seat: seat, amount: amount, reason: r}
		}
		return nil
	}
	if w := b.salary1; w != nil && w.seat == seat && amount == b.salary {
		w.count++
	}
	if b.jailed[seat] && amount < 0 && amount != -b.board.JailFine {
		return verdict.Failf("PYYOL-MONO-ACT-PAY-JAIL", fmt.Sprintf("the $%d fine, a jailed seat's only payment", b.board.JailFine), -amount,
			"seat %d in jail, event %d", seat, e.Seq)
	}
	if w := b.noSalary; w != nil && w.seat == seat && amount == b.salary {
		return verdict.Failf("PYYOL-MONO-ECONOMY", "no salary without passing GO", fmt.Sprintf("$%d to seat %d", amount, seat),
			"after the move or jailing of event %d, event %d", w.seq, e.Seq)
	}
	if w := b.tax; w != nil && w.seat == seat && amount < 0 {
		b.tax = nil
		if !slices.Contains(w.accept, -amount) {
			return verdict.Failf("PYYOL-MONO-ECONOMY", fmt.Sprintf("a standard tax of $%v on square %d", w.accept, w.sq), -amount,
				"seat %d's tax, event %d", seat, e.Seq)
		}
	}
	return nil
}

// monoManagedMoney are the reasons of the cash_changed the real platform
// sends beside a building, a sale, a mortgage, a bankruptcy or a trade's
// mortgaged property (backend/internal/engine/monopoly/engine.go): none
// is a salary, a tax or a jail fine, so the landing checks leave them be.
var monoManagedMoney = map[string]bool{"build": true, "sell_house": true, "mortgage": true, "unmortgage": true,
	"mortgage_interest": true, "liquidate": true, "bankruptcy_estate": true}

// rentPaid judges the rent a landing owed (PYYOL-MONO-RENT).
func (b *refBoard) rentPaid(e frame, p map[string]any) error {
	w := b.rent
	from, ok1 := fieldInt(p, "from")
	to, ok2 := fieldInt(p, "to")
	amount, ok3 := fieldInt(p, "amount")
	if w == nil || !ok1 || !ok2 || !ok3 || from != w.seat || to != w.to {
		return nil
	}
	b.rent = nil
	if !slices.Contains(w.accept, amount) {
		return verdict.Failf("PYYOL-MONO-RENT", fmt.Sprintf("standard rent %v for square %d (%s)", w.accept, w.sq, b.board.Squares[w.sq].Name), amount,
			"seat %d landing on seat %d's property, event %d", w.seat, w.to, e.Seq)
	}
	return nil
}

// mortgageAmount judges what a mortgage paid: half the list price, the
// standard mortgage value (PYYOL-MONO-ACT-MORTGAGE).
func (b *refBoard) mortgageAmount(e frame, p map[string]any, sq int) error {
	amount, ok := fieldInt(p, "amount")
	if !ok || !b.board.Ownable(sq) {
		return nil
	}
	if want := b.board.MortgageValue(sq); abs(amount) != want {
		return verdict.Failf("PYYOL-MONO-ACT-MORTGAGE", fmt.Sprintf("$%d (half the list price of %s)", want, b.board.Squares[sq].Name), abs(amount), "the mortgage of event %d", e.Seq)
	}
	return nil
}

// auctionPrice judges the price an auction's winner paid: its high bid
// (PYYOL-MONO-EV-AUCTION-WON).
func (b *refBoard) auctionPrice(e frame, p map[string]any) error {
	price, ok := fieldInt(p, "price")
	if !ok {
		price, ok = fieldInt(p, "amount")
	}
	if ok && b.highBid > 0 && abs(price) != b.highBid {
		return verdict.Failf("PYYOL-MONO-EV-AUCTION-WON", fmt.Sprintf("the high bid $%d", b.highBid), abs(price), "the auction won at event %d", e.Seq)
	}
	return nil
}

// view takes a view's board as the truth and judges the cash it shows:
// an auction's winner paid its high bid (PYYOL-MONO-EV-AUCTION-WON).
func (b *refBoard) view(i int, t *monoTurn) error {
	s := t.view.State
	if s == nil {
		return nil
	}
	if l := b.ledger; l != nil && l.ok && len(s.Players) == len(l.cash) {
		for seat, p := range s.Players {
			if paid, won := b.wonBy[seat]; won && p.Cash != nil && *p.Cash == l.cash[seat]+paid && paid > 0 {
				return verdict.Failf("PYYOL-MONO-EV-AUCTION-WON", fmt.Sprintf("the winner's cash down by its high bid, to $%d", l.cash[seat]), *p.Cash,
					"seat %d's cash at turn view %d after winning an auction", seat, i)
			}
		}
		if err := ledgerAgrees(l, s.Players, i); err != nil {
			return err
		}
	}
	clear(b.wonBy)
	clear(b.jailed)
	for seat, p := range s.Players {
		b.jailed[seat] = p.InJail
	}
	clear(b.owner)
	clear(b.houses)
	clear(b.mortgaged)
	for _, h := range s.Holdings {
		b.owner[h.Square], b.houses[h.Square], b.mortgaged[h.Square] = h.Owner, h.Houses, h.Mortgaged
	}
	return nil
}

// figure judges an event's money against the standard figure want (a
// list price, a house cost, half of it), read from the first of keys the
// payload carries; a payload with none decides nothing.
func (b *refBoard) figure(e frame, p map[string]any, sq int, rule, what string, keys []string, want int) error {
	if !b.board.Ownable(sq) {
		return nil
	}
	for _, k := range keys {
		if got, ok := fieldInt(p, k); ok {
			if abs(got) != want {
				return verdict.Failf(rule, fmt.Sprintf("$%d (%s of %s)", want, what, b.board.Squares[sq].Name), abs(got), "%s at event %d", e.Type, e.Seq)
			}
			return nil
		}
	}
	return nil
}

// ledgerAgrees compares each seat's cash in a view with the events since
// the last view (the balances across consecutive views): a difference
// after a trade is the trade's (PYYOL-MONO-ACT-ACCEPT-TRADE), otherwise
// money moved without its event (PYYOL-MONO-EV-CASH-CHANGED). The view's
// cash then becomes the ledger's.
func ledgerAgrees(l *monoLedger, players []monoPlayer, i int) error {
	for seat, p := range players {
		if p.Cash == nil || *p.Cash == l.cash[seat] {
			continue
		}
		rule := "PYYOL-MONO-EV-CASH-CHANGED"
		if l.trade {
			rule = "PYYOL-MONO-ACT-ACCEPT-TRADE"
		}
		return verdict.Failf(rule, l.cash[seat], *p.Cash, "seat %d's cash at turn view %d against the events since the view before", seat, i)
	}
	l.trade = false
	return nil
}
