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
// of the unshuffled decks (PYYOL-MONO-PERFECT-INFO).
type StateView struct {
	Players         []Player  `json:"players"`
	Holdings        []Holding `json:"holdings"`
	Dice            [2]int    `json:"dice"`
	Current         int       `json:"current"`
	Turn            int       `json:"turn"`
	Doubles         int       `json:"doubles"`
	Auction         *Auction  `json:"auction"`
	Trade           *Trade    `json:"trade"`
	Debt            *Debt     `json:"debt"`
	BankHouses      int       `json:"bank_houses"`
	BankHotels      int       `json:"bank_hotels"`
	FreeParkingPool int       `json:"free_parking_pool"`
	ChanceLeft      int       `json:"chance_cards"`
	ChestLeft       int       `json:"community_chest_cards"`
	Rules           Rules     `json:"rules"`
	// Decks is set only by the DeckLeaked defect: the hidden deck order.
	Decks map[string][]string `json:"decks,omitempty"`
}

// View builds seat's view; legal_actions is empty unless the seat owes
// the decision.
func (g *Game) View(seat int) View {
	s := StateView{Players: slices.Clone(g.players), Dice: g.dice, Current: g.current, Turn: g.turn,
		Doubles: g.doubles, BankHouses: g.houses, BankHotels: g.hotels, FreeParkingPool: g.pool,
		ChanceLeft: len(g.chance), ChestLeft: len(g.chest), Rules: g.rules, Decks: g.deckOrder()}
	for sq := range 40 {
		if h, ok := g.holdings[sq]; ok {
			s.Holdings = append(s.Holdings, *h)
		}
	}
	if g.auction != nil {
		a := *g.auction
		a.Active = slices.Clone(a.Active)
		s.Auction = &a
	}
	if g.trade != nil {
		t := *g.trade
		s.Trade = &t
	}
	if len(g.debts) > 0 {
		d := g.debts[0]
		s.Debt = &d
	}
	return View{Seat: seat, Phase: g.phase, LegalActions: g.Legal(seat), State: s}
}
