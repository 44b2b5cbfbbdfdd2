package mafia

// The event types (games.md "Mafia/Events"; PYYOL-MAFIA-EVENTS).
const (
	EventPhase     = "phase"
	EventModerator = "moderator"
	EventNight     = "night"
	EventMessage   = "message"
	EventVote      = "vote"
	EventEliminate = "eliminate"
	EventVictory   = "victory"
)

// Phases (games.md "Mafia/Phases"; PYYOL-MAFIA-PHASES).
const (
	Night      = "night"
	Morning    = "morning"
	Discussion = "discussion"
	Voting     = "voting"
	Result     = "result"
)

// Causes of an elimination in eliminate events (PYYOL-MAFIA-REF-CAUSE):
// the real platform's spellings (backend/internal/engine/mafia), where
// games.md names the field but not its values. The kit's earlier
// "night_kill" is still read by the runner's decoder.
const (
	CauseNightKill = "mafia"
	CauseVote      = "vote"
)

// Event is one transcript entry: {seq, type, payload}. Public events share
// one seq counter; each seat's private night events have their own
// (PYYOL-MAFIA-REF-SEQ), so a seat cannot count other seats' secrets.
type Event struct {
	Seq     int            `json:"seq"`
	Type    string         `json:"type"`
	Payload map[string]any `json:"payload"`
}

// emit appends a public event.
func (m *Match) emit(typ string, payload map[string]any) {
	m.public = append(m.public, Event{Seq: len(m.public) + 1, Type: typ, Payload: payload})
}

// emitPrivate appends a night event to one seat's own stream
// (PYYOL-MAFIA-NIGHT-PRIVATE: "only ever in YOUR private stream").
func (m *Match) emitPrivate(seat int, payload map[string]any) {
	own := m.private[seat]
	m.private[seat] = append(own, Event{Seq: len(own) + 1, Type: EventNight, Payload: payload})
}

// Public returns a copy of the public transcript.
func (m *Match) Public() []Event { return append([]Event(nil), m.public...) }

// Private returns a copy of seat's own night results.
func (m *Match) Private(seat int) []Event { return append([]Event(nil), m.private[seat]...) }

// PublicAfter returns the public events with seq greater than seq.
func (m *Match) PublicAfter(seq int) []Event {
	if seq >= len(m.public) {
		return nil
	}
	return append([]Event(nil), m.public[seq:]...)
}
