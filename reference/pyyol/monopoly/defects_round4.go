package monopoly

// The gateway sweep's fourth-round Monopoly defects (issue 25,
// docs/detection.md "Pyyol gateway, round 4"): each one realistic bug an
// implementer of games.md's Monopoly section would write, planted alone.
const (
	// PayEachToBank pays a "pay each player" card's amount to the bank,
	// as a plain fine, the other seats getting nothing.
	PayEachToBank Defect = "pay-each-to-bank"
	// CollectFromOne collects a "collect from every player" card from the
	// first other seat only.
	CollectFromOne Defect = "collect-from-one"
	// RepairsFlat charges a repairs card its house rate once, as a plain
	// fine, whatever the seat's buildings.
	RepairsFlat Defect = "repairs-flat"
	// BankruptBankKeepsOwner leaves a seat bankrupt to the bank the owner
	// of its properties (the bank's branch never clears the owner).
	BankruptBankKeepsOwner Defect = "bankrupt-bank-keeps-owner"
	// SellListedBare lists sell_house for any owned street, built or not.
	SellListedBare Defect = "sell-listed-bare"
	// DebtPaidToBank pays a debt raised in resolve_debt to the bank, its
	// creditor seat forgotten.
	DebtPaidToBank Defect = "debt-paid-to-bank"
	// GoLandingDouble pays twice the salary for landing on GO exactly
	// (the house rule).
	GoLandingDouble Defect = "go-landing-double"
	// TradeWantedKept executes a trade without moving the properties the
	// proposer asked for.
	TradeWantedKept Defect = "trade-wanted-kept"
)

// eachPaid is who a "pay each player" card pays: the other seats, or
// the bank under the defect.
func (g *Game) eachPaid(others []int) []int {
	if g.defect == PayEachToBank {
		return nil
	}
	return others
}

// collectsFrom reports whether a "collect from every player" card takes
// from the i-th other seat.
func (g *Game) collectsFrom(i int) bool { return g.defect != CollectFromOne || i == 0 }

// repairCost is what a repairs card charges for a street with houses
// buildings.
func (g *Game) repairCost(c Card, houses int) int {
	if houses == 5 {
		return c.Hotel
	}
	return houses * c.House
}

// repairsFlat reports whether a repairs card is charged as a plain fine
// of its house rate.
func (g *Game) repairsFlat() bool { return g.defect == RepairsFlat }

// bankTakesBack reports whether a bankruptcy to the bank clears the
// owner of the bankrupt's properties.
func (g *Game) bankTakesBack() bool { return g.defect != BankruptBankKeepsOwner }

// sellListed reports whether sell_house is listed on sq for seat.
func (g *Game) sellListed(seat, sq int) bool {
	if g.defect == SellListedBare {
		return g.owns(seat, sq) && g.board.Squares[sq].Kind == KindStreet
	}
	return g.canSell(seat, sq)
}

// debtCreditors is who a debt raised in resolve_debt is paid to.
func (g *Game) debtCreditors(d Debt) []int {
	if g.defect == DebtPaidToBank {
		return nil
	}
	return d.Creditors
}

// goLandingBonus reports whether a landing on GO pays the salary twice.
func (g *Game) goLandingBonus(to int) bool { return g.defect == GoLandingDouble && to == 0 }

// wantedMoves reports whether a trade's wanted properties change hands.
func (g *Game) wantedMoves() bool { return g.defect != TradeWantedKept }
