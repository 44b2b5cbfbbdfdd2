package monopoly

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/agentgames/conformance/fixtures"
)

// Square is one of the forty board squares of fixtures/pyyol/monopoly-board.json.
type Square struct {
	Index     int    `json:"index"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Group     string `json:"group,omitempty"`
	Price     int    `json:"price,omitempty"`
	HouseCost int    `json:"house_cost,omitempty"`
	Rent      []int  `json:"rent,omitempty"`
	Tax       int    `json:"tax,omitempty"`
}

// Card is one Chance or Community Chest card.
type Card struct {
	Text   string `json:"text"`
	Kind   string `json:"kind"`
	To     int    `json:"to,omitempty"`
	Amount int    `json:"amount,omitempty"`
	House  int    `json:"house,omitempty"`
	Hotel  int    `json:"hotel,omitempty"`
}

// Board is the standard board: squares, railroad and utility rents, the
// bank's building supply and the two decks (PYYOL-MONO-REF-BOARD).
type Board struct {
	Squares        []Square `json:"squares"`
	RailroadRent   []int    `json:"railroad_rent"`
	UtilityFactor  []int    `json:"utility_multiplier"`
	Houses         int      `json:"houses"`
	Hotels         int      `json:"hotels"`
	JailFine       int      `json:"jail_fine"`
	Chance         []Card   `json:"chance"`
	CommunityChest []Card   `json:"community_chest"`
	groups         map[string][]int
}

// The square kinds of the board fixture.
const (
	KindStreet   = "street"
	KindRailroad = "railroad"
	KindUtility  = "utility"
	KindTax      = "tax"
	KindChance   = "chance"
	KindChest    = "community_chest"
	KindGoToJail = "go_to_jail"
	KindFreePark = "free_parking"
)

// JailSquare is where a jailed token stands.
const JailSquare = 10

var (
	boardOnce sync.Once
	board     *Board
	boardErr  error
)

// StandardBoard loads the board fixture once.
func StandardBoard() (*Board, error) {
	boardOnce.Do(func() {
		raw, err := fixtures.ReadFile("pyyol/monopoly-board.json")
		if err != nil {
			boardErr = err
			return
		}
		b := &Board{}
		if err := json.Unmarshal(raw, b); err != nil {
			boardErr = fmt.Errorf("monopoly board: %w", err)
			return
		}
		if len(b.Squares) != 40 {
			boardErr = fmt.Errorf("monopoly board: %d squares, want 40", len(b.Squares))
			return
		}
		b.groups = map[string][]int{}
		for _, s := range b.Squares {
			if s.Group != "" {
				b.groups[s.Group] = append(b.groups[s.Group], s.Index)
			}
		}
		board = b
	})
	return board, boardErr
}

// Ownable reports whether a square can be bought.
func (b *Board) Ownable(sq int) bool {
	return sq >= 0 && sq < len(b.Squares) && b.Squares[sq].Price > 0
}

// Group lists the squares of sq's colour group (or railroads, utilities).
func (b *Board) Group(sq int) []int { return b.groups[b.Squares[sq].Group] }

// MortgageValue is half the list price (PYYOL-MONO-REF-MORTGAGE).
func (b *Board) MortgageValue(sq int) int { return b.Squares[sq].Price / 2 }

// UnmortgageCost is the mortgage value plus 10% interest, rounded up
// (PYYOL-MONO-ACT-UNMORTGAGE).
func (b *Board) UnmortgageCost(sq int) int { return (b.MortgageValue(sq)*11 + 9) / 10 }
