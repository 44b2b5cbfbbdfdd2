package server

import "github.com/agentgames/conformance/reference/pyyol/monopoly"

// The Monopoly-only slip sweep's tampers (docs/detection.md "Pyyol
// Monopoly (round 2)"), each one engine defect of
// reference/pyyol/monopoly/defects_slips.go.
const (
	MonopolyCardMoveNoSalary       Tamper = "monopoly-card-move-no-salary"
	MonopolyRailroadLinear         Tamper = "monopoly-railroad-linear"
	MonopolyUtilitySwapped         Tamper = "monopoly-utility-swapped"
	MonopolySetDoublesBuilt        Tamper = "monopoly-set-doubles-built"
	MonopolyJailedOwnerNoRent      Tamper = "monopoly-jailed-owner-no-rent"
	MonopolyUnmortgageOnPrice      Tamper = "monopoly-unmortgage-on-price"
	MonopolyThirdRollFree          Tamper = "monopoly-third-roll-free"
	MonopolyDoublesNoReroll        Tamper = "monopoly-doubles-no-reroll"
	MonopolyBankruptHoldingsToBank Tamper = "monopoly-bankrupt-holdings-to-bank"
	MonopolyTradeCashDropped       Tamper = "monopoly-trade-cash-dropped"
	MonopolyMortgageBuiltGroup     Tamper = "monopoly-mortgage-built-group"
	MonopolyBuildWithoutCash       Tamper = "monopoly-build-without-cash"
	MonopolyJailCardListed         Tamper = "monopoly-jail-card-listed"
	MonopolyPayJailEndsRoll        Tamper = "monopoly-pay-jail-ends-roll"
	MonopolyTurnCountPerRoll       Tamper = "monopoly-turn-count-per-roll"
	MonopolyDeckOrderLeaked        Tamper = "monopoly-deck-order-leaked"
	MonopolyRentSkippedOnDoubles   Tamper = "monopoly-rent-skipped-on-doubles"
	MonopolyTurnCountTwice         Tamper = "monopoly-turn-count-twice"
	MonopolyRerollAsTurn           Tamper = "monopoly-reroll-as-turn"
	// MonopolyOlderLuxuryTax, MonopolyJailedOwnerNoRent,
	// MonopolyMortgageBuiltGroup, MonopolyTurnCountPerRoll and
	// MonopolyRerollAsTurn are faithful readings, not slips: the older
	// editions' $75 luxury tax, two of the reference's choices
	// (PYYOL-MONO-REF-RENT, PYYOL-MONO-REF-MORTGAGE), and the real
	// platform's cap of rolls and re-roll opened as a turn.
	MonopolyOlderLuxuryTax Tamper = "monopoly-older-luxury-tax"

	// The third round's (reference/pyyol/monopoly/defects_round3.go);
	// MonopolyBidAsTotal is the real platform's reading, a faithful one.
	MonopolyBidAsTotal            Tamper = "monopoly-bid-as-total"
	MonopolyJailCardAndFine       Tamper = "monopoly-jail-card-and-fine"
	MonopolyCapWinnerByCash       Tamper = "monopoly-cap-winner-by-cash"
	MonopolyBankruptCashLost      Tamper = "monopoly-bankrupt-cash-lost"
	MonopolyUnmortgageWithoutCash Tamper = "monopoly-unmortgage-without-cash"
	MonopolyPoolNotEmptied        Tamper = "monopoly-pool-not-emptied"
	MonopolyRerollInManage        Tamper = "monopoly-reroll-in-manage"

	// The fourth round's (reference/pyyol/monopoly/defects_round4.go).
	MonopolyPayEachToBank          Tamper = "monopoly-pay-each-to-bank"
	MonopolyCollectFromOne         Tamper = "monopoly-collect-from-one"
	MonopolyRepairsFlat            Tamper = "monopoly-repairs-flat"
	MonopolyBankruptBankKeepsOwner Tamper = "monopoly-bankrupt-bank-keeps-owner"
	MonopolySellListedBare         Tamper = "monopoly-sell-listed-bare"
	MonopolyDebtPaidToBank         Tamper = "monopoly-debt-paid-to-bank"
	MonopolyGoLandingDouble        Tamper = "monopoly-go-landing-double"
	MonopolyTradeWantedKept        Tamper = "monopoly-trade-wanted-kept"
)

// init adds the sweep's tampers to the engine defects they plant.
func init() {
	for t, d := range map[Tamper]monopoly.Defect{
		MonopolyCardMoveNoSalary: monopoly.CardMoveNoSalary, MonopolyRailroadLinear: monopoly.RailroadLinear,
		MonopolyUtilitySwapped: monopoly.UtilitySwapped, MonopolySetDoublesBuilt: monopoly.SetDoublesBuilt,
		MonopolyJailedOwnerNoRent: monopoly.JailedOwnerNoRent, MonopolyUnmortgageOnPrice: monopoly.UnmortgageOnPrice,
		MonopolyThirdRollFree: monopoly.ThirdRollFree, MonopolyDoublesNoReroll: monopoly.DoublesNoReroll,
		MonopolyBankruptHoldingsToBank: monopoly.BankruptHoldingsToBank, MonopolyTradeCashDropped: monopoly.TradeCashDropped,
		MonopolyMortgageBuiltGroup: monopoly.MortgageBuiltGroup, MonopolyBuildWithoutCash: monopoly.BuildWithoutCash,
		MonopolyJailCardListed: monopoly.JailCardListed, MonopolyPayJailEndsRoll: monopoly.PayJailEndsRoll,
		MonopolyTurnCountPerRoll: monopoly.TurnCountPerRoll, MonopolyDeckOrderLeaked: monopoly.DeckOrderLeaked,
		MonopolyOlderLuxuryTax: monopoly.OlderLuxuryTax, MonopolyRentSkippedOnDoubles: monopoly.RentSkippedOnDoubles,
		MonopolyTurnCountTwice: monopoly.TurnCountTwice, MonopolyRerollAsTurn: monopoly.RerollAsTurn,
		MonopolyBidAsTotal: monopoly.BidAsTotal, MonopolyJailCardAndFine: monopoly.JailCardAndFine,
		MonopolyCapWinnerByCash: monopoly.CapWinnerByCash, MonopolyBankruptCashLost: monopoly.BankruptCashLost,
		MonopolyUnmortgageWithoutCash: monopoly.UnmortgageWithoutCash, MonopolyPoolNotEmptied: monopoly.PoolNotEmptied,
		MonopolyRerollInManage: monopoly.RerollInManage,
		MonopolyPayEachToBank:  monopoly.PayEachToBank, MonopolyCollectFromOne: monopoly.CollectFromOne,
		MonopolyRepairsFlat: monopoly.RepairsFlat, MonopolyBankruptBankKeepsOwner: monopoly.BankruptBankKeepsOwner,
		MonopolySellListedBare: monopoly.SellListedBare, MonopolyDebtPaidToBank: monopoly.DebtPaidToBank,
		MonopolyGoLandingDouble: monopoly.GoLandingDouble, MonopolyTradeWantedKept: monopoly.TradeWantedKept,
	} {
		monopolyDefects[t] = d
	}
}
