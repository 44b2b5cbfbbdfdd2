package goofspiel

// The event types (games.md "Events"; PYYOL-GOOF-EVENTS).
const (
	MatchCreated  = "match_created"
	PrizeRevealed = "prize_revealed"
	CardSealed    = "card_sealed"
	RoundRevealed = "round_revealed"
	MatchFinished = "match_finished"
)

// Event is one public game event: {seq, type, payload}, seq from 1 and
// strictly increasing within a match (PYYOL-WS-EVENT-SEQ).
type Event struct {
	Seq     int    `json:"seq"`
	Type    string `json:"type"`
	Payload any    `json:"payload"`
}

func (m *Match) emit(typ string, payload any) {
	m.events = append(m.events, Event{Seq: len(m.events) + 1, Type: typ, Payload: payload})
}

// EventsAfter returns the events with seq greater than seq, in order.
func (m *Match) EventsAfter(seq int) []Event {
	if seq >= len(m.events) {
		return nil
	}
	return append([]Event(nil), m.events[seq:]...)
}

// LastSeq is the seq of the latest event.
func (m *Match) LastSeq() int { return len(m.events) }
