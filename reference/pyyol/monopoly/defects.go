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
	// JailAlwaysEscapes frees a seat on any jail roll, doubles or not.
	JailAlwaysEscapes Defect = "jail-always-escapes"
	// JailCardKept lets a seat use a jail card without spending it.
	JailCardKept Defect = "jail-card-kept"
	// HotelUneven lets a street on four houses take its hotel while the
	// rest of its group stands lower (even-build broken at the hotel only).
	HotelUneven Defect = "hotel-uneven"
)

// Break sets a defect on the game.
func (g *Game) Break(d Defect) { g.defect = d }
