package monopoly

// The Monopoly-only slip sweep's defects (issue 25, docs/detection.md
// "Pyyol Monopoly (round 2)"): each one realistic bug an implementer of
// games.md's Monopoly section would write, planted alone in the engine.
const (
	// CardMoveNoSalary pays the GO salary on dice moves only: an
	// "Advance to" card that wraps past GO pays nothing.
	CardMoveNoSalary Defect = "card-move-no-salary"
	// RailroadLinear charges $25 per railroad held (25/50/75/100), not
	// the doubling table.
	RailroadLinear Defect = "railroad-linear"
	// UtilitySwapped charges 10x the dice for one utility and 4x for both.
	UtilitySwapped Defect = "utility-swapped"
	// SetDoublesBuilt doubles a whole group's rent with houses too.
	SetDoublesBuilt Defect = "set-doubles-built"
	// JailedOwnerNoRent collects no rent for an owner in jail.
	// That is the reference's choice, not a slip (PYYOL-MONO-REF-RENT):
	// the faithful table's.
	JailedOwnerNoRent Defect = "jailed-owner-no-rent"
	// UnmortgageOnPrice charges the interest on the list price: the
	// mortgage value plus 10% of the price.
	UnmortgageOnPrice Defect = "unmortgage-on-price"
	// ThirdRollFree lets a seat out on its third failed jail roll without
	// the fine.
	ThirdRollFree Defect = "third-roll-free"
	// DoublesNoReroll ends the turn at end_turn after doubles.
	DoublesNoReroll Defect = "doubles-no-reroll"
	// BankruptHoldingsToBank gives a bankrupt seat's cash to its creditor
	// and its holdings back to the bank.
	BankruptHoldingsToBank Defect = "bankrupt-holdings-to-bank"
	// TradeCashDropped executes a trade without moving the proposer's
	// give_cash.
	TradeCashDropped Defect = "trade-cash-dropped"
	// MortgageBuiltGroup lets a street be mortgaged while another street
	// of its group has houses (the check looks at the street alone): the
	// reference's choice, not a slip (PYYOL-MONO-REF-MORTGAGE), for the
	// faithful table.
	MortgageBuiltGroup Defect = "mortgage-built-group"
	// BuildWithoutCash lists build for a whole group the seat cannot pay a
	// house on (the engine still refuses it).
	BuildWithoutCash Defect = "build-without-cash"
	// JailCardListed lists use_jail_card in jail without a card.
	JailCardListed Defect = "jail-card-listed"
	// PayJailEndsRoll takes the fine and leaves the seat in manage, its
	// roll lost.
	PayJailEndsRoll Defect = "pay-jail-ends-roll"
	// TurnCountPerRoll advances the turn counter on a doubles re-roll
	// too: the real platform's cap counts every roll, so this is a
	// faithful reading, for the faithful table.
	TurnCountPerRoll Defect = "turn-count-per-roll"
	// RerollAsTurn opens a doubles re-roll as a turn of its own:
	// turn_ended, then turn_started for the same seat, as the real
	// platform's endTurn does; a faithful reading, for the faithful table.
	RerollAsTurn Defect = "reroll-as-turn"
	// TurnCountTwice advances the turn counter at the end of a turn as
	// well as at its start, so the cap comes at half the turns.
	TurnCountTwice Defect = "turn-count-twice"
	// DeckOrderLeaked shows the decks' order as card ids in every view.
	DeckOrderLeaked Defect = "deck-order-leaked"
	// RentSkippedOnDoubles charges no rent to a seat that rolled doubles
	// (the landing cut short for the re-roll).
	RentSkippedOnDoubles Defect = "rent-skipped-on-doubles"
	// OlderLuxuryTax charges the older editions' $75 luxury tax: a
	// reading "standard Monopoly" leaves open, for the faithful table.
	OlderLuxuryTax Defect = "older-luxury-tax"
)

// cardSalary reports whether a card's forward move collects the salary.
func (g *Game) cardSalary() bool { return g.defect != CardMoveNoSalary }

// railroadRent is the rent of one of owned railroads.
func (g *Game) railroadRent(owned int) int {
	if g.defect == RailroadLinear {
		return 25 * owned
	}
	return g.board.RailroadRent[owned-1]
}

// utilityFactor is the dice multiplier of one of owned utilities.
func (g *Game) utilityFactor(owned int) int {
	if g.defect == UtilitySwapped {
		return g.board.UtilityFactor[len(g.board.UtilityFactor)-owned]
	}
	return g.board.UtilityFactor[owned-1]
}

// builtRent is the rent of a street with houses, of a whole group or not.
func (g *Game) builtRent(s Square, houses int, whole bool) int {
	if g.defect == SetDoublesBuilt && whole {
		return 2 * s.Rent[houses]
	}
	return s.Rent[houses]
}

// rentWaived reports whether an owner collects no rent under a defect:
// in jail, or from a seat that rolled doubles.
func (g *Game) rentWaived(owner int) bool {
	return g.defect == JailedOwnerNoRent && g.players[owner].InJail || g.defect == RentSkippedOnDoubles && g.doubles > 0
}

// defectiveLiquidation reports whether a bankrupt seat's holdings go to
// the bank whatever its creditor.
func (g *Game) defectiveLiquidation() bool { return g.defect == BankruptHoldingsToBank }

// dropTradeCash undoes the give_cash a trade moved.
func (g *Game) dropTradeCash(t *Trade) {
	if g.defect == TradeCashDropped {
		g.players[t.Proposer].Cash += t.GiveCash
		g.players[t.Target].Cash -= t.GiveCash
	}
}

// buildableWithoutCash reports whether build would be legal for seat if
// its cash were no bar, under the BuildWithoutCash defect.
func (g *Game) buildableWithoutCash(seat int) bool {
	if g.defect != BuildWithoutCash {
		return false
	}
	cash := g.players[seat].Cash
	defer func() { g.players[seat].Cash = cash }()
	g.players[seat].Cash = 1 << 30
	return g.anySquare(seat, g.canBuild)
}

// deckIDs is the deck order as card ids, shown only under DeckOrderLeaked.
func (g *Game) deckIDs() map[string][]int {
	if g.defect != DeckOrderLeaked {
		return nil
	}
	return map[string][]int{"chance": append([]int{}, g.chance...), "community_chest": append([]int{}, g.chest...)}
}
