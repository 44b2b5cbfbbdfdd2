// Package monopoly is the pure, seeded reference engine of Pyyol's
// Monopoly (games.md "Monopoly"): a phase machine over the standard board
// with 2-8 seats, rents, building, mortgages, jail, auctions, trades, debts
// and bankruptcy. It never touches the network; the gateway drives it.
package monopoly

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// The phases (games.md "Phases").
const (
	PhaseRoll          = "roll"
	PhaseJail          = "jail"
	PhaseAcquire       = "acquire"
	PhaseAuction       = "auction"
	PhaseResolveDebt   = "resolve_debt"
	PhaseManage        = "manage"
	PhaseTradeResponse = "trade_response"
	PhaseTrade         = "trade"
	PhaseGameOver      = "game_over"
)

// Rules is the configurable rule set (games.md "Configurable rules").
type Rules struct {
	Players         int  `json:"players"`
	StartingCash    int  `json:"starting_cash"`
	GoSalary        int  `json:"go_salary"`
	Auctions        bool `json:"auctions"`
	FreeParkingPool bool `json:"free_parking_pool"`
	// TurnCap is the number of turns after which net worth decides
	// (PYYOL-MONO-REF-TURN-CAP).
	TurnCap int `json:"turn_cap"`
}

// DefaultRules are the documented defaults: 4 seats, $1500, $200 salary,
// auctions on, no pool (PYYOL-MONO-CFG-PLAYERS, PYYOL-MONO-CFG-ECONOMY).
func DefaultRules() Rules {
	return Rules{Players: 4, StartingCash: 1500, GoSalary: 200, Auctions: true, TurnCap: DefaultTurnCap}
}

// DefaultTurnCap is the reference's turn cap (PYYOL-MONO-REF-TURN-CAP).
const DefaultTurnCap = 200

// ErrRules wraps every refused rule set.
var ErrRules = errors.New("bad monopoly rules")

// Normalize fills zero fields with defaults and refuses a table outside
// 2..8 seats (PYYOL-MONO-CFG-PLAYERS).
func (r Rules) Normalize() (Rules, error) {
	d := DefaultRules()
	if r.Players == 0 {
		r.Players = d.Players
	}
	if r.StartingCash == 0 {
		r.StartingCash = d.StartingCash
	}
	if r.GoSalary == 0 {
		r.GoSalary = d.GoSalary
	}
	if r.TurnCap == 0 {
		r.TurnCap = d.TurnCap
	}
	if r.Players < 2 || r.Players > 8 {
		return r, fmt.Errorf("%w: players must be 2..8, got %d", ErrRules, r.Players)
	}
	if r.StartingCash < 0 || r.GoSalary < 0 || r.TurnCap < 1 {
		return r, fmt.Errorf("%w: negative economy or turn cap", ErrRules)
	}
	return r, nil
}

// Player is one seat's public standing.
type Player struct {
	Cash      int  `json:"cash"`
	Position  int  `json:"position"`
	InJail    bool `json:"in_jail"`
	JailTurns int  `json:"jail_turns"`
	JailCards int  `json:"jail_cards"`
	Bankrupt  bool `json:"bankrupt"`
}

// Holding is one ownable square's standing; Houses 5 is a hotel.
type Holding struct {
	Square    int  `json:"square"`
	Owner     int  `json:"owner"`
	Houses    int  `json:"houses"`
	Mortgaged bool `json:"mortgaged"`
}

// Auction is an open auction (PYYOL-MONO-PHASE-AUCTION).
type Auction struct {
	Property   int   `json:"property"`
	HighBid    int   `json:"high_bid"`
	HighBidder int   `json:"high_bidder"`
	Active     []int `json:"active"`
}

// Trade is a trade offer (games.md "Your move", `trade`).
type Trade struct {
	Proposer  int   `json:"proposer"`
	Target    int   `json:"target"`
	GiveProps []int `json:"give_props"`
	GiveCash  int   `json:"give_cash"`
	WantProps []int `json:"want_props"`
	WantCash  int   `json:"want_cash"`
}

// Debt is money a seat owes and cannot pay yet (PYYOL-MONO-PHASE-RESOLVE-DEBT).
// Creditors empty means the bank; more than one means each of them is owed Each.
type Debt struct {
	Seat      int    `json:"seat"`
	Creditors []int  `json:"creditors"`
	Amount    int    `json:"amount"`
	Reason    string `json:"reason"`
	thenMove  bool
}

// Move is a seat's answer (games.md "Your move").
type Move struct {
	Action   string `json:"action"`
	Property *int   `json:"property,omitempty"`
	Amount   *int   `json:"amount,omitempty"`
	Trade    *Trade `json:"trade,omitempty"`
}

// Game is one Monopoly match in progress.
type Game struct {
	board    *Board
	rules    Rules
	pcg      *rand.PCG
	rng      *rand.Rand
	players  []Player
	holdings map[int]*Holding
	houses   int
	hotels   int
	pool     int
	current  int
	phase    string
	dice     [2]int
	doubles  int
	turn     int
	actions  int // manage actions this turn (PYYOL-MONO-REF-MANAGE-LIMIT)
	proposed bool
	auction  *Auction
	trade    *Trade
	counter  bool
	tradeRet string
	debtRet  string
	held     map[int][]heldCard
	debts    []Debt
	chance   []int
	chest    []int
	winners  []int
	events   []Event
	defect   Defect
	// partner is the seat the bots deal with, -1 for none
	// (PYYOL-MONO-REF-PRACTICE-DEALS).
	partner int
}

// New starts a game from a rule set and a seed; the decks are shuffled
// from the seed (PYYOL-MONO-REF-DECKS).
func New(rules Rules, seed uint64) (*Game, error) {
	rules, err := rules.Normalize()
	if err != nil {
		return nil, err
	}
	b, err := StandardBoard()
	if err != nil {
		return nil, err
	}
	g := &Game{board: b, rules: rules, pcg: rand.NewPCG(seed, seed^0x6d6f6e6f),
		holdings: map[int]*Holding{}, held: map[int][]heldCard{}, houses: b.Houses, hotels: b.Hotels, partner: -1}
	g.rng = rand.New(g.pcg)
	// PYYOL-MONO-SEATS: one Player per seat; the gateway seats bots in the
	// seats no agent holds.
	for range rules.Players {
		// PYYOL-MONO-ECONOMY: every seat starts with starting_cash on GO.
		g.players = append(g.players, Player{Cash: rules.StartingCash})
	}
	for _, s := range b.Squares {
		if b.Ownable(s.Index) {
			g.holdings[s.Index] = &Holding{Square: s.Index, Owner: -1}
		}
	}
	g.chance = g.rng.Perm(len(b.Chance))
	g.chest = g.rng.Perm(len(b.CommunityChest))
	// The real platform's payload but its commit: version, players,
	// starting_cash, max_turns (docs/pyyol-monopoly-layout.md; initialize
	// carries the whole rule set).
	g.emit(EvMatchCreated, map[string]any{"version": Version, "players": rules.Players,
		"starting_cash": rules.StartingCash, "max_turns": rules.TurnCap})
	g.startTurn(0)
	return g, nil
}

// Rules returns the game's rule set.
func (g *Game) Rules() Rules { return g.rules }

// Phase is the current phase.
func (g *Game) Phase() string { return g.phase }

// Over reports whether the game reached game_over.
func (g *Game) Over() bool { return g.phase == PhaseGameOver }

// Winners lists the winning seats once the game is over (ties possible).
func (g *Game) Winners() []int { return append([]int(nil), g.winners...) }

// Player returns one seat's standing.
func (g *Game) Player(seat int) Player { return g.players[seat] }

// Holding returns an ownable square's standing.
func (g *Game) Holding(sq int) Holding { return *g.holdings[sq] }

// Supply returns the bank's houses and hotels.
func (g *Game) Supply() (houses, hotels int) { return g.houses, g.hotels }

// Pool is the free-parking pool.
func (g *Game) Pool() int { return g.pool }

// Board returns the board.
func (g *Game) Board() *Board { return g.board }

// Actor is the seat that owes the current decision (-1 when over).
func (g *Game) Actor() int {
	switch {
	case g.phase == PhaseGameOver:
		return -1
	case g.phase == PhaseResolveDebt:
		return g.debts[0].Seat
	case g.phase == PhaseAuction:
		return g.auction.Active[0]
	case g.phase == PhaseTradeResponse:
		return g.trade.Target
	}
	return g.current
}
