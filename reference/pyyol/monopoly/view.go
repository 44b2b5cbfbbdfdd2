package monopoly

import "slices"

// View is a seat's turn view (games.md "Turn view"; PYYOL-MONO-VIEW-SEAT,
// PYYOL-MONO-VIEW-PHASE, PYYOL-MONO-VIEW-LEGAL, PYYOL-MONO-VIEW-STATE).
type View struct {
	Seat         int       `json:"seat"`
	Phase        string    `json:"phase"`
	LegalActions []string  `json:"legal_actions"`
	State        StateView `json:"state"`
}

// StateView is the board every seat sees: the whole of it but the order
// of the unshuffled decks (PYYOL-MONO-PERFECT-INFO). games.md names only
// players and holdings; the rest follows the real platform's public state
// (backend/internal/engine/monopoly/state.go, view.go;
// docs/pyyol-monopoly-layout.md): holdings indexed by square, the last
// roll, turn_count, the bank's remaining supply, the pending trade.
type StateView struct {
	Players         []PlayerView  `json:"players"`
	Holdings        []HoldingView `json:"holdings"`
	Phase           string        `json:"phase"`
	Current         int           `json:"current"`
	Dice            [2]int        `json:"last_roll"`
	Turn            int           `json:"turn_count"`
	Auction         *AuctionView  `json:"auction,omitempty"`
	Trade           *Trade        `json:"pending_trade,omitempty"`
	Debt            *DebtView     `json:"debt,omitempty"`
	BankHouses      int           `json:"houses_remaining"`
	BankHotels      int           `json:"hotels_remaining"`
	FreeParkingPool int           `json:"free_parking_pot"`
	Finished        bool          `json:"finished"`
	Winner          int           `json:"winner"`
	// ChanceLeft, ChestLeft and Rules are the kit's additions: the cards
	// left in each deck and the rule set.
	ChanceLeft int   `json:"chance_cards"`
	ChestLeft  int   `json:"community_chest_cards"`
	Rules      Rules `json:"rules"`
	// Decks is set only by the DeckLeaked defect: the hidden deck order.
	Decks map[string][]string `json:"decks,omitempty"`
	// DeckIDs is set only by the DeckOrderLeaked defect: the same order
	// as card ids.
	DeckIDs map[string][]int `json:"deck_order,omitempty"`
}

// PlayerView is one seat in a view: the platform's seat and doubles (the
// doubles the seat rolled in a row this turn) around its standing.
type PlayerView struct {
	Seat int `json:"seat"`
	Player
	Doubles int `json:"doubles"`
}

// HoldingView is one square of the board, ownable or not: owner -1 is
// the bank, houses 5 a hotel.
type HoldingView struct {
	Owner     int  `json:"owner"`
	Houses    int  `json:"houses"`
	Mortgaged bool `json:"mortgaged"`
}

// AuctionView is an open auction as the platform shows it: the seats
// still bidding by seat and the seat whose bid is awaited.
type AuctionView struct {
	Property   int    `json:"property"`
	HighBid    int    `json:"high_bid"`
	HighBidder int    `json:"high_bidder"`
	InAuction  []bool `json:"in_auction"`
	Current    int    `json:"current"`
}

// DebtView is the open debt as the platform shows it: the debtor, one
// creditor (-1 the bank, and a debt to several seats at once), the
// amount; creditors, every seat owed, is the kit's addition.
type DebtView struct {
	Debtor    int    `json:"debtor"`
	Creditor  int    `json:"creditor"`
	Creditors []int  `json:"creditors"`
	Amount    int    `json:"amount"`
	Reason    string `json:"reason"`
}

// View builds seat's view; legal_actions is empty unless the seat owes
// the decision.
func (g *Game) View(seat int) View {
	s := StateView{Phase: g.phase, Dice: g.dice, Current: g.current, Turn: g.turn, BankHouses: g.houses,
		BankHotels: g.hotels, FreeParkingPool: g.pool, Finished: g.phase == PhaseGameOver, Winner: g.soleWinner(),
		ChanceLeft: len(g.chance), ChestLeft: len(g.chest), Rules: g.rules, Decks: g.deckOrder(), DeckIDs: g.deckIDs(),
		Players: g.playerViews(), Holdings: g.holdingViews(), Auction: g.auctionView(), Debt: g.debtView()}
	if g.trade != nil {
		t := *g.trade
		s.Trade = &t
	}
	return View{Seat: seat, Phase: g.phase, LegalActions: g.Legal(seat), State: s}
}

// soleWinner is the one winner, or -1 before the end or for a shared win.
func (g *Game) soleWinner() int {
	if len(g.winners) == 1 {
		return g.winners[0]
	}
	return -1
}

func (g *Game) playerViews() []PlayerView {
	out := make([]PlayerView, len(g.players))
	for s, p := range g.players {
		out[s] = PlayerView{Seat: s, Player: p}
		if s == g.current {
			out[s].Doubles = g.doubles
		}
	}
	return out
}

// holdingViews lists all 40 squares, indexed by square.
func (g *Game) holdingViews() []HoldingView {
	out := make([]HoldingView, 40)
	for sq := range out {
		out[sq].Owner = -1
		if h, ok := g.holdings[sq]; ok {
			out[sq] = HoldingView{Owner: h.Owner, Houses: h.Houses, Mortgaged: h.Mortgaged}
		}
	}
	return out
}

func (g *Game) auctionView() *AuctionView {
	a := g.auction
	if a == nil {
		return nil
	}
	v := &AuctionView{Property: a.Property, HighBid: a.HighBid, HighBidder: a.HighBidder,
		InAuction: make([]bool, len(g.players)), Current: -1}
	for _, s := range a.Active {
		v.InAuction[s] = true
	}
	if len(a.Active) > 0 {
		v.Current = a.Active[0]
	}
	return v
}

func (g *Game) debtView() *DebtView {
	if len(g.debts) == 0 {
		return nil
	}
	d := g.debts[0]
	v := &DebtView{Debtor: d.Seat, Creditor: -1, Creditors: slices.Clone(d.Creditors), Amount: d.Amount, Reason: d.Reason}
	if len(d.Creditors) == 1 {
		v.Creditor = d.Creditors[0]
	}
	return v
}
