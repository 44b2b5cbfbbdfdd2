package server

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// The Monopoly defects the tamper tests use (reference/pyyol/monopoly.Defect).
const (
	// MonopolyTradeMintsMoney creates $100 on every trade.
	MonopolyTradeMintsMoney Tamper = "monopoly-trade-mints-money"
	// MonopolyUnevenBuild builds on any owned street, unevenly.
	MonopolyUnevenBuild Tamper = "monopoly-uneven-build"
	// MonopolyRentWhenMortgaged charges rent on mortgaged properties.
	MonopolyRentWhenMortgaged Tamper = "monopoly-rent-when-mortgaged"
	// MonopolyNoTurnCap plays on past the announced turn cap.
	MonopolyNoTurnCap Tamper = "monopoly-no-turn-cap"
	// MonopolyNoAuctions never auctions a declined property.
	MonopolyNoAuctions Tamper = "monopoly-no-auctions"
	// MonopolyDeclineBuys buys a declined property.
	MonopolyDeclineBuys Tamper = "monopoly-decline-buys"
	// MonopolyRefusedCostsCash takes $1 for a refused move.
	MonopolyRefusedCostsCash Tamper = "monopoly-refused-costs-cash"
	// MonopolySkipKeepsFloor keeps the trade floor open after a skip.
	MonopolySkipKeepsFloor Tamper = "monopoly-skip-keeps-floor"
	// MonopolyDebtGoesNegative lets cash go below zero instead of resolve_debt.
	MonopolyDebtGoesNegative Tamper = "monopoly-debt-goes-negative"
	// MonopolyBankruptToBank liquidates every bankrupt seat to the bank.
	MonopolyBankruptToBank Tamper = "monopoly-bankrupt-to-bank"
	// MonopolyRejectExecutes executes a rejected trade.
	MonopolyRejectExecutes Tamper = "monopoly-reject-executes"
	// MonopolyCounterRejects turns a counter offer into a rejection.
	MonopolyCounterRejects Tamper = "monopoly-counter-rejects"
	// MonopolyProposeIgnored drops the agent's trade offers.
	MonopolyProposeIgnored Tamper = "monopoly-propose-ignored"
	// MonopolySellKeepsHouse pays for a sold house and leaves it standing.
	MonopolySellKeepsHouse Tamper = "monopoly-sell-keeps-house"
	// MonopolyPoolNeverPays never pays the free-parking pool out.
	MonopolyPoolNeverPays Tamper = "monopoly-pool-never-pays"
	// MonopolyPoolTaxesOnly is a faithful reading, not a fault: the pool
	// takes taxes alone, as the real platform's engine does.
	MonopolyPoolTaxesOnly Tamper = "monopoly-pool-taxes-only"
	// MonopolyJailAlwaysEscapes frees a seat on any jail roll.
	MonopolyJailAlwaysEscapes Tamper = "monopoly-jail-always-escapes"
	// MonopolyJailCardKept lets a seat use a jail card without spending it.
	MonopolyJailCardKept Tamper = "monopoly-jail-card-kept"
	// MonopolyAnswersTrades answers the trades put to the agent itself,
	// without asking the agent.
	MonopolyAnswersTrades Tamper = "monopoly-answers-trades"
	// MonopolyHotelUneven builds a hotel beside streets of fewer houses.
	MonopolyHotelUneven Tamper = "monopoly-hotel-uneven"
	// MonopolyRentIgnoresHouses charges a built street its unimproved rent.
	MonopolyRentIgnoresHouses Tamper = "monopoly-rent-ignores-houses"
	// MonopolyRentNoSetDouble never doubles a whole group's unimproved rent.
	MonopolyRentNoSetDouble Tamper = "monopoly-rent-no-set-double"
	// MonopolyRailroadFlat charges one railroad's rent however many are held.
	MonopolyRailroadFlat Tamper = "monopoly-railroad-flat"
	// MonopolyUtilityFlat charges 4x the dice however many utilities are held.
	MonopolyUtilityFlat Tamper = "monopoly-utility-flat"
	// MonopolyUtilityFee charges a utility a flat $25, ignoring the dice.
	MonopolyUtilityFee Tamper = "monopoly-utility-fee"
	// MonopolyNoSalaryOnPass pays the GO salary only on landing on GO.
	MonopolyNoSalaryOnPass Tamper = "monopoly-no-salary-on-pass"
	// MonopolySalaryTwice pays the GO salary twice.
	MonopolySalaryTwice Tamper = "monopoly-salary-twice"
	// MonopolyTaxSwapped charges each tax square the other's amount.
	MonopolyTaxSwapped Tamper = "monopoly-tax-swapped"
	// MonopolyMortgageFullPrice mortgages for the whole list price.
	MonopolyMortgageFullPrice Tamper = "monopoly-mortgage-full-price"
	// MonopolyBuyWithoutCash lists buy whatever the cash.
	MonopolyBuyWithoutCash Tamper = "monopoly-buy-without-cash"
	// MonopolyBuildWithoutSet lists build without a whole colour group.
	MonopolyBuildWithoutSet Tamper = "monopoly-build-without-set"
	// MonopolyJailFineDoubled charges $100 to leave jail.
	MonopolyJailFineDoubled Tamper = "monopoly-jail-fine-doubled"
	// MonopolyAuctionFree never charges an auction's winner.
	MonopolyAuctionFree Tamper = "monopoly-auction-free"
	// MonopolyDeckLeaked shows the deck order in every view.
	MonopolyDeckLeaked Tamper = "monopoly-deck-leaked"
	// MonopolyUnmortgageAtPar lifts a mortgage without the 10% interest.
	MonopolyUnmortgageAtPar Tamper = "monopoly-unmortgage-at-par"
	// MonopolyBuyOverprice charges 10% over the list price.
	MonopolyBuyOverprice Tamper = "monopoly-buy-overprice"
	// MonopolyBuildChargesPrice charges a house the street's list price.
	MonopolyBuildChargesPrice Tamper = "monopoly-build-charges-price"
	// MonopolySellFullPrice pays the whole house cost for a sold house.
	MonopolySellFullPrice Tamper = "monopoly-sell-full-price"
	// MonopolyJailPaysSalary pays the GO salary to a seat sent to jail.
	MonopolyJailPaysSalary Tamper = "monopoly-jail-pays-salary"
)

var monopolyDefects = map[Tamper]monopoly.Defect{
	MonopolyTradeMintsMoney:   monopoly.TradeMintsMoney,
	MonopolyUnevenBuild:       monopoly.UnevenBuild,
	MonopolyRentWhenMortgaged: monopoly.RentWhenMortgaged,
	MonopolyNoTurnCap:         monopoly.NoTurnCap,
	MonopolyNoAuctions:        monopoly.NoAuctions,
	MonopolySkipKeepsFloor:    monopoly.SkipKeepsFloor,
	MonopolyDeclineBuys:       monopoly.DeclineBuys,
	MonopolyRefusedCostsCash:  monopoly.RefusedCostsCash,
	MonopolyDebtGoesNegative:  monopoly.DebtGoesNegative,
	MonopolyBankruptToBank:    monopoly.BankruptToBank,
	MonopolyRejectExecutes:    monopoly.RejectExecutes,
	MonopolyCounterRejects:    monopoly.CounterRejects,
	MonopolyProposeIgnored:    monopoly.ProposeIgnored,
	MonopolySellKeepsHouse:    monopoly.SellKeepsHouse,
	MonopolyPoolNeverPays:     monopoly.PoolNeverPays,
	MonopolyPoolTaxesOnly:     monopoly.PoolTaxesOnly,
	MonopolyJailAlwaysEscapes: monopoly.JailAlwaysEscapes,
	MonopolyJailCardKept:      monopoly.JailCardKept,
	MonopolyHotelUneven:       monopoly.HotelUneven,
	MonopolyRentIgnoresHouses: monopoly.RentIgnoresHouses,
	MonopolyRentNoSetDouble:   monopoly.RentNoSetDouble,
	MonopolyRailroadFlat:      monopoly.RailroadFlat,
	MonopolyUtilityFlat:       monopoly.UtilityFlat,
	MonopolyUtilityFee:        monopoly.UtilityFee,
	MonopolyNoSalaryOnPass:    monopoly.NoSalaryOnPass,
	MonopolySalaryTwice:       monopoly.SalaryTwice,
	MonopolyTaxSwapped:        monopoly.TaxSwapped,
	MonopolyMortgageFullPrice: monopoly.MortgageFullPrice,
	MonopolyBuyWithoutCash:    monopoly.BuyWithoutCash,
	MonopolyBuildWithoutSet:   monopoly.BuildWithoutSet,
	MonopolyJailFineDoubled:   monopoly.JailFineDoubled,
	MonopolyAuctionFree:       monopoly.AuctionFree,
	MonopolyDeckLeaked:        monopoly.DeckLeaked,
	MonopolyUnmortgageAtPar:   monopoly.UnmortgageAtPar,
	MonopolyBuyOverprice:      monopoly.BuyOverprice,
	MonopolyBuildChargesPrice: monopoly.BuildChargesPrice,
	MonopolySellFullPrice:     monopoly.SellFullPrice,
	MonopolyJailPaysSalary:    monopoly.JailPaysSalary,
}

// monopolyRules applies a practice request to the default rules
// (PYYOL-MONO-REF-PRACTICE: players, seat, turn_cap, auctions,
// free_parking_pool; out-of-range values keep the defaults).
func monopolyRules(p *Practice) (monopoly.Rules, int) {
	r, seat := monopoly.DefaultRules(), 0
	if p == nil {
		return r, seat
	}
	if p.Players >= 2 && p.Players <= 8 {
		r.Players = p.Players
	}
	if p.TurnCap > 0 {
		r.TurnCap = p.TurnCap
	}
	if p.Auctions != nil {
		r.Auctions = *p.Auctions
	}
	if p.FreeParkingPool != nil {
		r.FreeParkingPool = *p.FreeParkingPool
	}
	if p.StartingCash > 0 {
		// PYYOL-MONO-REF-PRACTICE-DEALS: starting_cash is a configurable rule.
		r.StartingCash = p.StartingCash
	}
	if p.Seat != nil && *p.Seat >= 0 && *p.Seat < r.Players {
		seat = *p.Seat
	}
	return r, seat
}

// init puts Monopoly in the gateway's registry of games beside Goofspiel
// (games.go): an agent that registers for monopoly, and not goofspiel,
// gets practice matches (PYYOL-MONO-REF-PRACTICE).
func init() {
	registerGame("monopoly", func(g *Gateway, agentID string, reg Frame) bool {
		g.playMonopoly(agentID, reg.Practice)
		return true
	})
}

// playMonopoly drives one practice match: the agent's seat answers turns
// over the socket, engine bots play the others (PYYOL-MONO-SEATS).
func (g *Gateway) playMonopoly(agentID string, practice *Practice) {
	rules, seat := monopolyRules(practice)
	id, seed := g.nextMatchID()
	game, err := monopoly.New(rules, binary.BigEndian.Uint64(seed))
	if err != nil {
		return
	}
	game.Break(monopolyDefects[g.opts.Tamper])
	if practice != nil && practice.Bots == "dealing" {
		// PYYOL-MONO-REF-PRACTICE-DEALS: the bots deal with the agent.
		game.DealWith(seat)
	}
	run := &matchRun{g: g, agentID: agentID, id: id, seat: seat}
	sent := 0
	flush := func() {
		for _, e := range game.EventsAfter(sent) {
			run.push(eventFrame("monopoly", id, e.Seq, e.Type, e.Payload))
		}
		sent = game.LastSeq()
	}
	g.logf("pyyol-gateway: monopoly match %s for %s (seat %d)", id, agentID, seat)
	run.ask(initializeFrame("init_"+id, "monopoly", id, map[string]any{"seat": seat, "players": rules.Players, "rules": rules}), "init_"+id)
	flush()
	for n := 0; !game.Over(); n++ {
		actor := game.Actor()
		if actor == seat && g.opts.Tamper == MonopolyAnswersTrades && game.Phase() == monopoly.PhaseTradeResponse {
			game.Apply(seat, game.Fallback(seat))
		} else if actor == seat {
			if !g.monopolyTurn(run, game, n) {
				return // the NoFallback defect: the match wedges
			}
		} else {
			game.Apply(actor, game.Bot(actor))
		}
		flush()
	}
	// PYYOL-MONO-WIN-LAST-SOLVENT, PYYOL-MONO-WIN-TURN-CAP: the result
	// names the winners; the record is every event.
	run.push(gameEndFrame("monopoly", id, seat, map[string]any{"winners": game.Winners(), "rules": rules, "history": game.EventsAfter(0)}))
	if ref, ok := g.opts.Referee.(MonopolyReferee); ok {
		ref.MonopolyFinished(agentID, seat, game.Winners())
	}
}

// MonopolyReferee is a Referee that also hears of finished Monopoly
// matches (`conformance simulate monopoly --listen`).
type MonopolyReferee interface {
	MonopolyFinished(agentID string, seat int, winners []int)
}

// monopolyTurn asks the agent for its decision; a missing, failed or
// illegal answer takes the engine's safe fallback (PYYOL-MONO-FALLBACK).
func (g *Gateway) monopolyTurn(run *matchRun, game *monopoly.Game, n int) bool {
	turnID := fmt.Sprintf("turn_%s_%d", run.id, n)
	resp, ok := run.ask(turnFrame(turnID, "monopoly", run.id, game.View(run.seat)), turnID)
	why := "no response in time"
	if ok && resp.Error != "" {
		why = "handler error: " + resp.Error
	}
	if ok && resp.Error == "" {
		var mv monopoly.Move
		err := json.Unmarshal(resp.move(), &mv)
		if err == nil {
			// PYYOL-MONO-MOVE-ACTION: a refused move changes nothing.
			if err = game.Apply(run.seat, mv); err == nil {
				return true
			}
		}
		why = "illegal move " + string(resp.move()) + ": " + err.Error()
	}
	if ref := g.opts.Referee; ref != nil {
		ref.Fallback(run.agentID, n, why)
	}
	if g.opts.Tamper == NoFallback {
		return false
	}
	game.Apply(run.seat, game.Fallback(run.seat))
	return true
}
