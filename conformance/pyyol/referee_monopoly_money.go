package pyyol

import (
	"slices"

	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// rentReadings lists every rent standard Monopoly allows for landing on
// sq now (PYYOL-MONO-RENT): a street's rent for its buildings, or its
// base rent, doubled when one owner holds the whole colour group (a
// mortgaged member counted or not: PYYOL-MONO-REF-RENT's edge case is
// the reference's own); railroads by how many the owner holds (mortgaged
// ones counted or not), utilities 4x or 10x the dice. A move a card made
// (viaCard) may owe the card's rent: twice a railroad's, ten times the
// dice, or a fresh roll's.
func (b *refBoard) rentReadings(sq int, viaCard bool) []int {
	s := b.board.Squares[sq]
	owner := b.owner[sq]
	all, unmortgaged, whole := b.groupOwned(sq, owner)
	var out []int
	switch s.Kind {
	case monopoly.KindRailroad:
		for _, n := range []int{all, unmortgaged} {
			if n >= 1 && n <= len(b.board.RailroadRent) {
				r := b.board.RailroadRent[n-1]
				out = append(out, r)
				if viaCard {
					out = append(out, 2*r)
				}
			}
		}
	case monopoly.KindUtility:
		for _, n := range []int{all, unmortgaged} {
			if n >= 1 && n <= len(b.board.UtilityFactor) {
				out = append(out, b.board.UtilityFactor[n-1]*b.dice)
			}
		}
		if viaCard {
			for d := 2; d <= 12; d++ {
				out = append(out, 10*d, b.board.UtilityFactor[0]*d, b.board.UtilityFactor[len(b.board.UtilityFactor)-1]*d)
			}
		}
	default:
		h := b.houses[sq]
		switch {
		case h > 0 && h < len(s.Rent):
			out = append(out, s.Rent[h])
		case whole && unmortgaged == all:
			out = append(out, 2*s.Rent[0])
		case whole:
			out = append(out, 2*s.Rent[0], s.Rent[0])
		default:
			out = append(out, s.Rent[0])
		}
	}
	return out
}

// groupOwned counts the members of sq's group owner holds, all and
// unmortgaged, and whether it holds the whole group.
func (b *refBoard) groupOwned(sq, owner int) (all, unmortgaged int, whole bool) {
	group := b.board.Group(sq)
	for _, o := range group {
		if w, ok := b.owner[o]; ok && w == owner {
			all++
			if !b.mortgaged[o] {
				unmortgaged++
			}
		}
	}
	return all, unmortgaged, all == len(group)
}

// taxReadings lists the taxes a standard game may charge on sq: the
// board's figure; for the $100 square also the older $75; for the $200
// square also the older edition's 10% of the seat's worth (its cash,
// list prices and buildings, rounded either way).
func (b *refBoard) taxReadings(seat, sq int) []int {
	t := b.board.Squares[sq].Tax
	out := []int{t}
	switch t {
	case 100:
		out = append(out, 75)
	case 200:
		lo, hi := b.worth(seat)
		for v := lo / 10; v <= (hi+9)/10 && v < t; v++ {
			out = append(out, v)
		}
	}
	return out
}

// worth bounds the seat's total worth for the 10% reading: cash alone at
// the low end; cash, list prices and building costs at the high end. With
// no cash known, nothing beyond the board's figure is accepted.
func (b *refBoard) worth(seat int) (lo, hi int) {
	if b.ledger == nil || !b.ledger.ok || seat < 0 || seat >= len(b.ledger.cash) {
		return 0, -10
	}
	cash := b.ledger.cash[seat]
	hi = cash
	for sq, o := range b.owner {
		if o == seat && b.board.Ownable(sq) {
			hi += b.board.Squares[sq].Price + b.houses[sq]*b.board.Squares[sq].HouseCost
		}
	}
	return max(cash, 0), hi
}

// ownedStreets lists the streets seat holds in the view, in board order.
func ownedStreets(board *monopoly.Board, v monoView, seat int) []monoHolding {
	var out []monoHolding
	for _, h := range v.State.Holdings {
		if h.Owner == seat && h.Square >= 0 && h.Square < len(board.Squares) && board.Squares[h.Square].Kind == monopoly.KindStreet {
			out = append(out, h)
		}
	}
	slices.SortFunc(out, func(a, b monoHolding) int { return a.Square - b.Square })
	return out
}
