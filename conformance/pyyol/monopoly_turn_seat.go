package pyyol

import (
	"fmt"

	"github.com/agentgames/conformance/conformance/verdict"
)

// ownTurnStarted: a view in the roll or jail phase is owed only at the
// top of the agent's own turn ("It's your turn — roll the dice",
// PYYOL-MONO-PHASE-ROLL; PYYOL-MONO-PHASE-JAIL), so the turn that began
// for it is the agent's, and a turn_started that names a seat must name
// the agent's (PYYOL-MONO-EV-TURN-STARTED "A seat's turn began"). The
// turn_started events looked at are those of the turn around the view,
// between the turn_ended before it and the turn_ended after it, so a
// gateway that sends the frames round a turn late still passes; a turn
// whose turn_started events carry no seat decides nothing.
func (m *monoRun) ownTurnStarted(i int, t *monoTurn) error {
	if t.view.Phase != "roll" && t.view.Phase != "jail" {
		return nil
	}
	seats, named := m.turnStartedSeats(min(t.seen, len(m.events)))
	if !named {
		return nil
	}
	for _, s := range seats {
		if s == m.seat {
			return nil
		}
	}
	return verdict.Failf("PYYOL-MONO-EV-TURN-STARTED", fmt.Sprintf("a turn_started naming seat %d, whose %s view it is", m.seat, t.view.Phase),
		fmt.Sprintf("turn_started naming seats %v", seats), "turn view %d", i)
}

// turnStartedSeats are the seats the turn_started events name within the
// turn around event index at: from just after the turn_ended before it to
// the turn_ended at or after it; named is false when none names a seat.
func (m *monoRun) turnStartedSeats(at int) (seats []int, named bool) {
	from := 0
	for k := at - 1; k >= 0; k-- {
		if m.events[k].Type == "turn_ended" {
			from = k + 1
			break
		}
	}
	for _, e := range m.events[from:] {
		if e.Type == "turn_ended" && len(seats) > 0 {
			break
		}
		if s, ok := fieldInt(payload(e), "seat"); ok && e.Type == "turn_started" {
			seats = append(seats, s)
		}
	}
	return seats, len(seats) > 0
}
