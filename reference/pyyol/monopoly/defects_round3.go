package monopoly

// The gateway sweep's third-round Monopoly defects (issue 25,
// docs/detection.md "Pyyol gateway, round 3"): each one realistic bug an
// implementer of games.md's Monopoly section would write, planted alone.
const (
	// BidAsTotal reads a bid's amount as the new high bid, not the raise
	// over it ("Raise the current high bid by amount").
	BidAsTotal Defect = "bid-as-total"
	// JailCardAndFine spends the get-out-of-jail-free card and takes the
	// $50 fine as well.
	JailCardAndFine Defect = "jail-card-and-fine"
	// CapWinnerByCash names the turn cap's winner by cash alone, not net
	// worth (match_finished's net_worths still the true figures).
	CapWinnerByCash Defect = "cap-winner-by-cash"
	// BankruptCashLost gives a bankrupt seat's holdings to its creditor
	// and its cash to nobody.
	BankruptCashLost Defect = "bankrupt-cash-lost"
	// UnmortgageWithoutCash lists unmortgage for a mortgaged property the
	// seat cannot pay the mortgage and 10% on (the engine still refuses it).
	UnmortgageWithoutCash Defect = "unmortgage-without-cash"
	// PoolNotEmptied pays the Free Parking jackpot but leaves the pool
	// as it was, so the next landing is paid it again.
	PoolNotEmptied Defect = "pool-not-emptied"
	// RerollInManage lists roll in manage after doubles, in place of
	// end_turn (the re-roll offered where the turn is ended).
	RerollInManage Defect = "reroll-in-manage"
)

// manageEnd is the action that closes manage for seat: end_turn, or a
// re-roll after doubles under the defect.
func (g *Game) manageEnd(p Player) string {
	if g.defect == RerollInManage && g.doubles > 0 && !p.InJail && !p.Bankrupt {
		return ActRoll
	}
	return ActEndTurn
}

// raiseTo is the high bid after seat raises high by amount.
func (g *Game) raiseTo(high, amount int) int {
	if g.defect == BidAsTotal {
		return amount
	}
	return high + amount
}

// jailCardFined reports whether use_jail_card takes the fine too.
func (g *Game) jailCardFined() bool { return g.defect == JailCardAndFine }

// capWorth is what the turn cap ranks a seat by.
func (g *Game) capWorth(seat int, reason string) int {
	if g.defect == CapWinnerByCash && reason == "turn_cap" {
		return g.players[seat].Cash
	}
	return g.NetWorth(seat)
}

// estateCashLost reports whether a bankrupt seat's cash reaches nobody.
func (g *Game) estateCashLost() bool { return g.defect == BankruptCashLost }

// unmortgageListed reports whether unmortgage is listed on sq for seat:
// canUnmortgage, or any mortgaged property of the seat's under a defect.
func (g *Game) unmortgageListed(seat, sq int) bool {
	if g.defect == UnmortgageWithoutCash {
		return g.owns(seat, sq) && g.holdings[sq].Mortgaged
	}
	return g.canUnmortgage(seat, sq)
}

// poolPaidOut is what the pool loses when amount of it is paid out.
func (g *Game) poolPaidOut(amount int, reason string) int {
	if g.defect == PoolNotEmptied && reason == "free_parking" {
		return 0
	}
	return amount
}
