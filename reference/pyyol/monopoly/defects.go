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
)

// Break sets a defect on the game.
func (g *Game) Break(d Defect) { g.defect = d }
