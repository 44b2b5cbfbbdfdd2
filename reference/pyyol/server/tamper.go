package server

import "encoding/json"

// Tamper names a deliberate defect, for the kit's own tests: a broken
// gateway the runner must catch. The zero value is a faithful gateway.
type Tamper string

// The defects the tamper tests use.
const (
	// AnyID applies any response to the turn in flight, whatever its id.
	AnyID Tamper = "any-id"
	// LateApplies applies a response to a turn that already timed out to
	// the turn in flight instead.
	LateApplies Tamper = "late-applies"
	// NoFallback wedges the match instead of falling back.
	NoFallback Tamper = "no-fallback"
	// FallbackHighest falls back to the highest card instead of the lowest.
	FallbackHighest Tamper = "fallback-highest"
	// IgnoresRound plays a move's card whatever round it names.
	IgnoresRound Tamper = "ignores-round"
	// AcceptAnyToken registers any token.
	AcceptAnyToken Tamper = "accept-any-token"
	// NoReregister refuses a second registration while a match runs.
	NoReregister Tamper = "no-reregister"
	// UnorderedEvents sends each round's events in reverse order.
	UnorderedEvents Tamper = "unordered-events"
	// FakeOpen announces open prizes but shuffles them.
	FakeOpen Tamper = "fake-open"
)

// rewrite passes a frame through Options.Rewrite; without one it is the
// frame itself, already encoded.
func (g *Gateway) rewrite(frame any) ([][]byte, error) {
	data, err := json.Marshal(frame)
	if err != nil || g.opts.Rewrite == nil {
		return [][]byte{data}, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	var out [][]byte
	for _, f := range g.opts.Rewrite(m) {
		b, err := json.Marshal(f)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}
