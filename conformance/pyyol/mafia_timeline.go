package pyyol

import (
	"fmt"
	"slices"
	"strconv"
)

// mafiaStep is one public event placed in the phase it happened in, with
// the living seats just before it.
type mafiaStep struct {
	event mafiaEvent
	day   int
	phase string
	alive [12]bool
}

// timeline places every public event the agent received in its phase.
func (mm *mafiaMatch) timeline() []mafiaStep { return timelineOf(mm.events) }

// timelineOf is the timeline of one stream of events in its order: the
// match's event frames, or one view's public transcript.
func timelineOf(events []mafiaEvent) []mafiaStep {
	var out []mafiaStep
	day, phase := 0, ""
	var alive [12]bool
	for i := range alive {
		alive[i] = true
	}
	for _, e := range events {
		if e.Type == "phase" {
			day, phase = intOf(e.Payload["day"]), strOf(e.Payload["phase"])
		}
		out = append(out, mafiaStep{event: e, day: day, phase: phase, alive: alive})
		if e.Type == "eliminate" {
			if s := intOf(e.Payload["target"]); s >= 0 && s < 12 {
				alive[s] = false
			}
		}
	}
	return out
}

// phaseRuns splits the timeline into the runs of one phase each.
func phaseRuns(steps []mafiaStep) [][]mafiaStep {
	var runs [][]mafiaStep
	for _, s := range steps {
		if s.event.Type == "phase" || len(runs) == 0 {
			runs = append(runs, nil)
		}
		runs[len(runs)-1] = append(runs[len(runs)-1], s)
	}
	return runs
}

// revealedRoles are the roles game_end names by seat, if it does
// (PYYOL-MAFIA-REF-REVEAL).
func (mm *mafiaMatch) revealedRoles() []string {
	raw, ok := mm.end["roles"].([]any)
	if !ok {
		return nil
	}
	roles := make([]string, len(raw))
	for i, r := range raw {
		roles[i] = strOf(r)
	}
	return roles
}

// mafiaSeats are the seats known to be Mafia: from the reveal, else from
// the agent's own allies when it is Mafia; known reports whether either.
func (mm *mafiaMatch) mafiaSeats() (seats map[int]bool, known bool) {
	seats = map[int]bool{}
	if roles := mm.revealedRoles(); len(roles) == 12 {
		for s, r := range roles {
			if r == "Mafia" {
				seats[s] = true
			}
		}
		return seats, true
	}
	for _, t := range mm.turns {
		if t.view.YourRole == "Mafia" {
			seats[t.view.YourSeat] = true
			for _, a := range t.view.Allies {
				seats[a] = true
			}
			return seats, true
		}
	}
	return seats, false
}

func intOf(v any) int {
	switch n := v.(type) {
	case float64:
		return int(n)
	case int:
		return n
	case string:
		i, err := strconv.Atoi(n)
		if err == nil {
			return i
		}
	}
	return -1
}

func strOf(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// bySeq is a transcript in seq order ("order by seq"), a stable sort of
// a copy, so the order it was sent in never decides anything.
func bySeq(events []mafiaEvent) []mafiaEvent {
	out := slices.Clone(events)
	slices.SortStableFunc(out, func(a, b mafiaEvent) int { return a.Seq - b.Seq })
	return out
}
