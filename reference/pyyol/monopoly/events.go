package monopoly

// The event types (games.md "Events"; PYYOL-MONO-EV-*).
const (
	EvMatchCreated      = "match_created"
	EvTurnStarted       = "turn_started"
	EvDiceRolled        = "dice_rolled"
	EvMoved             = "moved"
	EvCashChanged       = "cash_changed"
	EvRentPaid          = "rent_paid"
	EvPropertyPurchased = "property_purchased"
	EvCardDrawn         = "card_drawn"
	EvWentToJail        = "went_to_jail"
	EvLeftJail          = "left_jail"
	EvHouseBuilt        = "house_built"
	EvHouseSold         = "house_sold"
	EvMortgaged         = "mortgaged"
	EvUnmortgaged       = "unmortgaged"
	EvAuctionStarted    = "auction_started"
	EvBidPlaced         = "bid_placed"
	EvAuctionPassed     = "auction_passed"
	EvAuctionWon        = "auction_won"
	EvAuctionUnsold     = "auction_unsold"
	EvBankrupt          = "bankrupt"
	EvTradeProposed     = "trade_proposed"
	EvTradeExecuted     = "trade_executed"
	EvTradeRejected     = "trade_rejected"
	EvTurnEnded         = "turn_ended"
	EvMatchFinished     = "match_finished"
)

// EventTypes lists every documented event type, in the docs' order.
var EventTypes = []string{EvMatchCreated, EvTurnStarted, EvDiceRolled, EvMoved, EvCashChanged,
	EvRentPaid, EvPropertyPurchased, EvCardDrawn, EvWentToJail, EvLeftJail, EvHouseBuilt,
	EvHouseSold, EvMortgaged, EvUnmortgaged, EvAuctionStarted, EvBidPlaced, EvAuctionPassed,
	EvAuctionWon, EvAuctionUnsold, EvBankrupt, EvTradeProposed, EvTradeExecuted,
	EvTradeRejected, EvTurnEnded, EvMatchFinished}

// Event is one public game event: {seq, type, payload}, seq from 1.
// Every payload that moves money between a seat and the bank carries
// "seat" and "bank" (the signed amount the seat received from the bank);
// money between seats carries "from", "to" and "amount" (PYYOL-MONO-REF-LEDGER).
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
