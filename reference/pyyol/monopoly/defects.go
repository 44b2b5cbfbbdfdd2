package monopoly

// Defect names a deliberate fault, for the kit's own tamper tests only: a
// broken gateway built on a broken engine, which the runner must catch.
// The zero value is a faithful engine.
type Defect string

// The defects the tamper tests use.
const (
	// TradeMintsMoney pays the proposer $100 from nowhere on every trade.
	TradeMintsMoney Defect = "trade-mints-money"
	// UnevenBuild lets a seat build on any street it owns, group or not,
	// evenly or not.
	UnevenBuild Defect = "uneven-build"
	// RentWhenMortgaged charges rent on mortgaged properties.
	RentWhenMortgaged Defect = "rent-when-mortgaged"
	// NoTurnCap ignores the announced turn cap.
	NoTurnCap Defect = "no-turn-cap"
	// NoAuctions never auctions a declined property, auctions on or not.
	NoAuctions Defect = "no-auctions"
	// DeclineBuys buys the property a seat declined.
	DeclineBuys Defect = "decline-buys"
	// RefusedCostsCash takes $1 from a seat whose move was refused.
	RefusedCostsCash Defect = "refused-costs-cash"
	// SkipKeepsFloor leaves the trade floor open after the first skip_trade
	// of each turn.
	SkipKeepsFloor Defect = "skip-keeps-floor"
	// DebtGoesNegative lets a seat pay what it cannot afford, its cash
	// going below zero, instead of resolving the debt.
	DebtGoesNegative Defect = "debt-goes-negative"
	// BankruptToBank liquidates every bankrupt seat to the bank, whoever
	// its creditor.
	BankruptToBank Defect = "bankrupt-to-bank"
	// RejectExecutes executes a rejected trade.
	RejectExecutes Defect = "reject-executes"
	// CounterRejects turns a counter offer into a plain rejection.
	CounterRejects Defect = "counter-rejects"
	// ProposeIgnored takes propose_trade and drops the offer.
	ProposeIgnored Defect = "propose-ignored"
	// SellKeepsHouse pays for a sold house and leaves it standing.
	SellKeepsHouse Defect = "sell-keeps-house"
	// PoolNeverPays never pays the free-parking pool out.
	PoolNeverPays Defect = "pool-never-pays"
	// PoolTaxesOnly is no fault but a reading the docs leave open ("taxes
	// and fines fund" the pool: which fines): the real platform's engine
	// pools taxes alone and pays jail fines to the bank. The kit's
	// faithful-variant tests run it and must fail nothing.
	PoolTaxesOnly Defect = "pool-taxes-only"
	// JailAlwaysEscapes frees a seat on any jail roll, doubles or not.
	JailAlwaysEscapes Defect = "jail-always-escapes"
	// JailCardKept lets a seat use a jail card without spending it.
	JailCardKept Defect = "jail-card-kept"
	// HotelUneven lets a street on four houses take its hotel while the
	// rest of its group stands lower (even-build broken at the hotel only).
	HotelUneven Defect = "hotel-uneven"

	// The referee's money and legality defects (issue 25, class 4): each
	// one realistic slip in the arithmetic or the legal list.

	// RentIgnoresHouses charges a built street its unimproved rent.
	RentIgnoresHouses Defect = "rent-ignores-houses"
	// RentNoSetDouble never doubles the rent of a whole, unimproved group.
	RentNoSetDouble Defect = "rent-no-set-double"
	// RailroadFlat charges one railroad's rent however many the owner holds.
	RailroadFlat Defect = "railroad-flat"
	// UtilityFlat charges 4x the dice however many utilities the owner holds.
	UtilityFlat Defect = "utility-flat"
	// UtilityFee charges a utility a flat $25 whatever the dice and
	// however many utilities the owner holds.
	UtilityFee Defect = "utility-fee"
	// NoSalaryOnPass pays the GO salary only on landing on GO.
	NoSalaryOnPass Defect = "no-salary-on-pass"
	// SalaryTwice pays the GO salary twice.
	SalaryTwice Defect = "salary-twice"
	// TaxSwapped charges each tax square the other one's amount.
	TaxSwapped Defect = "tax-swapped"
	// MortgageFullPrice mortgages a property for its whole list price.
	MortgageFullPrice Defect = "mortgage-full-price"
	// BuyWithoutCash lists buy whatever the seat's cash.
	BuyWithoutCash Defect = "buy-without-cash"
	// BuildWithoutSet lists build for a seat owning any unmortgaged street.
	BuildWithoutSet Defect = "build-without-set"
	// JailFineDoubled charges $100 for pay_jail.
	JailFineDoubled Defect = "jail-fine-doubled"
	// AuctionFree hands the auctioned property to its winner without
	// taking the bid.
	AuctionFree Defect = "auction-free"
	// DeckLeaked shows the order of the decks in every view.
	DeckLeaked Defect = "deck-leaked"
	// UnmortgageAtPar lifts a mortgage for the mortgage value, no interest.
	UnmortgageAtPar Defect = "unmortgage-at-par"
	// BuyOverprice charges 10% over the list price for a purchase.
	BuyOverprice Defect = "buy-overprice"
	// BuildChargesPrice charges a house the street's list price, not its
	// house cost.
	BuildChargesPrice Defect = "build-charges-price"
	// SellFullPrice pays the whole house cost back for a sold house.
	SellFullPrice Defect = "sell-full-price"
	// JailPaysSalary pays the GO salary to a seat sent to jail from past
	// the jail square, as if it moved forward through GO.
	JailPaysSalary Defect = "jail-pays-salary"
)

// Break sets a defect on the game.
func (g *Game) Break(d Defect) { g.defect = d }

// jailFine is the fine pay_jail charges: the board's, unless a defect
// doubles it.
func (g *Game) jailFine() int {
	if g.defect == JailFineDoubled {
		return 2 * g.board.JailFine
	}
	return g.board.JailFine
}

// taxOf is what a tax square charges: its own tax, unless a defect swaps
// the two tax squares' amounts.
func (g *Game) taxOf(sq int) int {
	if g.defect == OlderLuxuryTax && g.board.Squares[sq].Tax == 100 {
		return 75
	}
	if g.defect != TaxSwapped {
		return g.board.Squares[sq].Tax
	}
	for o, s := range g.board.Squares {
		if o != sq && s.Kind == KindTax {
			return s.Tax
		}
	}
	return g.board.Squares[sq].Tax
}

// mortgageValue is what mortgaging sq pays: half the price, unless a
// defect pays the whole of it.
func (g *Game) mortgageValue(sq int) int {
	if g.defect == MortgageFullPrice {
		return g.board.Squares[sq].Price
	}
	return g.board.MortgageValue(sq)
}

// unmortgageCost is what lifting sq's mortgage costs: the value plus 10%,
// unless a defect drops the interest.
func (g *Game) unmortgageCost(sq int) int {
	if g.defect == UnmortgageAtPar {
		return g.board.MortgageValue(sq)
	}
	if g.defect == UnmortgageOnPrice {
		return g.board.MortgageValue(sq) + g.board.Squares[sq].Price/10
	}
	return g.board.UnmortgageCost(sq)
}

// anyStreet reports whether seat owns an unmortgaged street (the
// BuildWithoutSet defect lists build on it).
func (g *Game) anyStreet(seat int) bool {
	for sq, h := range g.holdings {
		if h.Owner == seat && !h.Mortgaged && g.board.Squares[sq].Kind == KindStreet && h.Houses < 5 {
			return true
		}
	}
	return false
}

// Deck is the deck order the DeckLeaked defect shows in views: the card
// texts in the order they will be drawn.
func (g *Game) deckOrder() map[string][]string {
	if g.defect != DeckLeaked {
		return nil
	}
	out := map[string][]string{}
	for _, d := range []struct {
		name  string
		order []int
		cards []Card
	}{{"chance", g.chance, g.board.Chance}, {"community_chest", g.chest, g.board.CommunityChest}} {
		for _, i := range d.order {
			out[d.name] = append(out[d.name], d.cards[i].Text)
		}
	}
	return out
}

// listPrice is what buy charges for sq: its list price, unless a defect
// adds 10%.
func (g *Game) listPrice(sq int) int {
	if g.defect == BuyOverprice {
		return g.board.Squares[sq].Price * 11 / 10
	}
	return g.board.Squares[sq].Price
}

// buildCost is what a house on sq costs, and saleValue what a sold one
// pays back: the house cost and half of it, unless a defect charges the
// list price or pays the whole cost back.
func (g *Game) buildCost(sq int) int {
	if g.defect == BuildChargesPrice {
		return g.board.Squares[sq].Price
	}
	return g.board.Squares[sq].HouseCost
}

func (g *Game) saleValue(sq int) int {
	if g.defect == SellFullPrice {
		return g.board.Squares[sq].HouseCost
	}
	return g.board.Squares[sq].HouseCost / 2
}

// jailSalary pays the GO salary to a seat jailed from past the jail
// square under the JailPaysSalary defect.
func (g *Game) jailSalary(seat, from int) {
	if g.defect == JailPaysSalary && from > JailSquare {
		g.bankCash(seat, g.rules.GoSalary, "go_salary")
	}
}
