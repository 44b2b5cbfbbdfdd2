package pyyol

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// The Monopoly state model the checks read. games.md names only players
// and holdings ("owner/houses/mortgaged per square"); the real platform
// (backend/internal/engine/monopoly/state.go, the reference too since
// docs/pyyol-monopoly-layout.md) sends holdings for all 40 squares
// indexed by square, turn_count, houses_remaining, hotels_remaining,
// pending_trade and a debt's debtor and creditor, where the kit once sent
// a list of ownable squares with their square, turn, bank_houses,
// bank_hotels, trade and a debt's seat and creditors. monoState reads
// both, and players and holdings as a list or as an object keyed by index
// (the SDK's Monopoly template reads them so), onto one model.

// monoHolding is one square of a Monopoly view's holdings.
type monoHolding struct {
	Square    int  `json:"square"`
	Owner     int  `json:"owner"`
	Houses    int  `json:"houses"`
	Mortgaged bool `json:"mortgaged"`
	// Flagged is set when the entry spells mortgaged at all, so a false
	// one is told apart from a spelling the decoder does not read.
	Flagged bool `json:"-"`
}

// monoPlayer is one seat of a Monopoly view's players.
type monoPlayer struct {
	Cash     *int `json:"cash"`
	Position int  `json:"position"`
	InJail   bool `json:"in_jail"`
	Bankrupt bool `json:"bankrupt"`
	// JailCards is the count of held jail cards.
	JailCards *int `json:"jail_cards"`
	// Placed is set when the entry shows a position at all (a missing one
	// decodes as square 0).
	Placed bool `json:"-"`
	// Jailed is set when the entry shows in_jail at all, so a false one
	// is told apart from a spelling the decoder does not read.
	Jailed bool `json:"-"`
}

// UnmarshalJSON reads a player and notes whether it shows a position and
// in_jail at all, in one decode (a Monopoly view carries every seat, and
// a live run reads thousands of views).
func (p *monoPlayer) UnmarshalJSON(b []byte) error {
	var w struct {
		Cash      *int  `json:"cash"`
		Position  *int  `json:"position"`
		InJail    *bool `json:"in_jail"`
		Bankrupt  bool  `json:"bankrupt"`
		JailCards *int  `json:"jail_cards"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*p = monoPlayer{Cash: w.Cash, Position: deref(w.Position), InJail: w.InJail != nil && *w.InJail,
		Bankrupt: w.Bankrupt, JailCards: w.JailCards, Placed: w.Position != nil, Jailed: w.InJail != nil}
	return nil
}

// monoTrade is a pending offer's parties.
type monoTrade struct {
	Proposer int `json:"proposer"`
	Target   int `json:"target"`
}

// monoDebt is the open debt (PYYOL-MONO-PHASE-RESOLVE-DEBT): the debtor
// as Seat, every seat owed as Creditors (none: the bank).
type monoDebt struct {
	Seat      int   `json:"seat"`
	Debtor    *int  `json:"debtor"`
	Creditor  *int  `json:"creditor"`
	Creditors []int `json:"creditors"`
	Amount    int   `json:"amount"`
}

// monoState is a view's state in the model's terms.
type monoState struct {
	Players  []monoPlayer
	Holdings []monoHolding
	Turn     int
	Auction  *struct {
		HighBid int `json:"high_bid"`
	}
	Trade      *monoTrade
	BankHouses *int
	BankHotels *int
	Debt       *monoDebt
}

// monoStateWire is every spelling of the state's fields the decoder reads.
type monoStateWire struct {
	Players   json.RawMessage `json:"players"`
	Holdings  json.RawMessage `json:"holdings"`
	Turn      *int            `json:"turn"`
	TurnCount *int            `json:"turn_count"`
	Auction   *struct {
		HighBid int `json:"high_bid"`
	} `json:"auction"`
	Trade           *monoTrade `json:"trade"`
	PendingTrade    *monoTrade `json:"pending_trade"`
	BankHouses      *int       `json:"bank_houses"`
	HousesRemaining *int       `json:"houses_remaining"`
	BankHotels      *int       `json:"bank_hotels"`
	HotelsRemaining *int       `json:"hotels_remaining"`
	Debt            *monoDebt  `json:"debt"`
}

// UnmarshalJSON reads a state in either spelling.
func (s *monoState) UnmarshalJSON(b []byte) error {
	var w monoStateWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	players, err := indexedList[monoPlayer](w.Players)
	if err != nil {
		return err
	}
	holdings, err := monoHoldings(w.Holdings)
	if err != nil {
		return err
	}
	*s = monoState{Players: players, Holdings: holdings, Turn: deref(first(w.TurnCount, w.Turn)), Auction: w.Auction,
		Trade: first(w.PendingTrade, w.Trade), BankHouses: first(w.HousesRemaining, w.BankHouses),
		BankHotels: first(w.HotelsRemaining, w.BankHotels), Debt: w.Debt.model()}
	return nil
}

// model fills the debt's model fields from the platform's debtor and
// creditor.
func (d *monoDebt) model() *monoDebt {
	if d == nil {
		return nil
	}
	if d.Debtor != nil {
		d.Seat = *d.Debtor
	}
	if d.Creditors == nil && d.Creditor != nil && *d.Creditor >= 0 {
		d.Creditors = []int{*d.Creditor}
	}
	return d
}

// monoHoldings reads holdings: a list (each entry's square, else its
// index) or an object keyed by square; entries without an owner are
// skipped.
func monoHoldings(raw json.RawMessage) ([]monoHolding, error) {
	type wire struct {
		Square    *int  `json:"square"`
		Owner     *int  `json:"owner"`
		Houses    int   `json:"houses"`
		Mortgaged *bool `json:"mortgaged"`
	}
	list, err := indexedList[*wire](raw)
	var out []monoHolding
	for i, h := range list {
		if h == nil || h.Owner == nil {
			continue
		}
		sq := i
		if h.Square != nil {
			sq = *h.Square
		}
		out = append(out, monoHolding{Square: sq, Owner: *h.Owner, Houses: h.Houses,
			Mortgaged: h.Mortgaged != nil && *h.Mortgaged, Flagged: h.Mortgaged != nil})
	}
	return out, err
}

// indexedList reads a JSON list, or an object keyed by the indexes 0..n-1
// (any other key refuses it), as a list; null or absent is nil.
func indexedList[T any](raw json.RawMessage) ([]T, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var list []T
	if err := json.Unmarshal(raw, &list); err == nil {
		return list, nil
	}
	var byKey map[string]T
	if err := json.Unmarshal(raw, &byKey); err != nil {
		return nil, err
	}
	keys := make([]int, 0, len(byKey))
	for k := range byKey {
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= 1<<10 {
			return nil, fmt.Errorf("a list keyed by index, not by %q", k)
		}
		keys = append(keys, i)
	}
	slices.Sort(keys)
	if len(keys) > 0 {
		list = make([]T, keys[len(keys)-1]+1)
	}
	for _, i := range keys {
		list[i] = byKey[strconv.Itoa(i)]
	}
	return list, nil
}

// first is the first non-nil pointer.
func first[T any](ps ...*T) *T {
	for _, p := range ps {
		if p != nil {
			return p
		}
	}
	return nil
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
