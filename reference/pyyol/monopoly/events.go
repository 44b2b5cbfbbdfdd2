package monopoly

// The event types (games.md "Events", one rule each).
const (
	EvMatchCreated      = "match_created"      // PYYOL-MONO-EV-MATCH-CREATED
	EvTurnStarted       = "turn_started"       // PYYOL-MONO-EV-TURN-STARTED
	EvDiceRolled        = "dice_rolled"        // PYYOL-MONO-EV-DICE-ROLLED
	EvMoved             = "moved"              // PYYOL-MONO-EV-MOVED
	EvCashChanged       = "cash_changed"       // PYYOL-MONO-EV-CASH-CHANGED
	EvRentPaid          = "rent_paid"          // PYYOL-MONO-EV-RENT-PAID
	EvPropertyPurchased = "property_purchased" // PYYOL-MONO-EV-PROPERTY-PURCHASED
	EvCardDrawn         = "card_drawn"         // PYYOL-MONO-EV-CARD-DRAWN
	EvWentToJail        = "went_to_jail"       // PYYOL-MONO-EV-WENT-TO-JAIL
	EvLeftJail          = "left_jail"          // PYYOL-MONO-EV-LEFT-JAIL
	EvHouseBuilt        = "house_built"        // PYYOL-MONO-EV-HOUSE-BUILT
	EvHouseSold         = "house_sold"         // PYYOL-MONO-EV-HOUSE-SOLD
	EvMortgaged         = "mortgaged"          // PYYOL-MONO-EV-MORTGAGED
	EvUnmortgaged       = "unmortgaged"        // PYYOL-MONO-EV-UNMORTGAGED
	EvAuctionStarted    = "auction_started"    // PYYOL-MONO-EV-AUCTION-STARTED
	EvBidPlaced         = "bid_placed"         // PYYOL-MONO-EV-BID-PLACED
	EvAuctionPassed     = "auction_passed"     // PYYOL-MONO-EV-AUCTION-PASSED
	EvAuctionWon        = "auction_won"        // PYYOL-MONO-EV-AUCTION-WON
	EvAuctionUnsold     = "auction_unsold"     // PYYOL-MONO-EV-AUCTION-UNSOLD
	EvBankrupt          = "bankrupt"           // PYYOL-MONO-EV-BANKRUPT
	EvTradeProposed     = "trade_proposed"     // PYYOL-MONO-EV-TRADE-PROPOSED
	EvTradeExecuted     = "trade_executed"     // PYYOL-MONO-EV-TRADE-EXECUTED
	EvTradeRejected     = "trade_rejected"     // PYYOL-MONO-EV-TRADE-REJECTED
	EvTurnEnded         = "turn_ended"         // PYYOL-MONO-EV-TURN-ENDED
	EvMatchFinished     = "match_finished"     // PYYOL-MONO-EV-MATCH-FINISHED
)

// Version names the reference's rule set in match_created, where the real
// platform names its own (backend/internal/engine/monopoly/state.go).
const Version = "conformance-reference-monopoly-1"

// EventTypes lists every documented event type, in the docs' order.
var EventTypes = []string{EvMatchCreated, EvTurnStarted, EvDiceRolled, EvMoved, EvCashChanged,
	EvRentPaid, EvPropertyPurchased, EvCardDrawn, EvWentToJail, EvLeftJail, EvHouseBuilt,
	EvHouseSold, EvMortgaged, EvUnmortgaged, EvAuctionStarted, EvBidPlaced, EvAuctionPassed,
	EvAuctionWon, EvAuctionUnsold, EvBankrupt, EvTradeProposed, EvTradeExecuted,
	EvTradeRejected, EvTurnEnded, EvMatchFinished}

// Event is one public game event: {seq, type, payload}, seq from 1 and
// strictly increasing (PYYOL-MONO-EVENTS).
// Payloads use the real platform's field names where the contract is
// silent (docs/pyyol-monopoly-layout.md): cash_changed carries seat, the
// signed delta and the balance after, and moves the money of buildings,
// sales, mortgages and bankruptcies too (before their own event);
// rent_paid carries from, to, property and amount (PYYOL-MONO-REF-LEDGER).
type Event struct {
	Seq     int            `json:"seq"`
	Type    string         `json:"type"`
	Payload map[string]any `json:"payload"`
}

func (g *Game) emit(typ string, payload map[string]any) {
	g.events = append(g.events, Event{Seq: len(g.events) + 1, Type: typ, Payload: payload})
}

// EventsAfter returns the events with seq greater than seq, in order.
func (g *Game) EventsAfter(seq int) []Event {
	if seq >= len(g.events) {
		return nil
	}
	return append([]Event(nil), g.events[seq:]...)
}

// LastSeq is the seq of the latest event.
func (g *Game) LastSeq() int { return len(g.events) }
