package pyyol

import (
	"fmt"
	"strconv"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

// The Mafia side of the shadow referee (issue 25, class 4): the runner
// steers its seat into the moves whose outcome the contract fixes and a
// faithful table never shows by chance. It votes alone, for a living seat
// nobody voted for today (seat 11 votes last on the reference), so only
// a plurality count eliminates the right seat (PYYOL-MAFIA-VOTE); as the
// Doctor it protects the lowest living seat but its own, the seat the
// baseline Mafia names, so a kill that goes through the protection shows
// (PYYOL-MAFIA-PROTECT).

// refereeMafiaMove is the steering move for view v, if it has one.
func refereeMafiaMove(v mafiaView) (mafia.Move, bool) {
	for _, a := range v.Legal {
		switch a {
		case mafia.ActVote:
			if s, ok := loneTarget(v); ok {
				return mafia.Move{Action: a, Target: mafia.At(s)}, true
			}
		case mafia.ActProtect:
			for s := range len(v.Alive) {
				if s != v.YourSeat && v.Alive[strconv.Itoa(s)] == true {
					return mafia.Move{Action: a, Target: mafia.At(s)}, true
				}
			}
		}
	}
	return mafia.Move{}, false
}

// loneTarget is the highest living seat but the agent's own with no vote
// today.
func loneTarget(v mafiaView) (int, bool) {
	counts := votesToday(v.Public)
	for s := len(v.Alive) - 1; s >= 0; s-- {
		if s != v.YourSeat && v.Alive[strconv.Itoa(s)] == true && counts[s] == 0 {
			return s, true
		}
	}
	return 0, false
}

// checkMafiaGuard: a seat the agent protected was never killed that night
// (PYYOL-MAFIA-PROTECT: "if that seat is the Mafia's target, the kill is
// prevented"). The night's outcome is the eliminations after the agent's
// answer and before the next discussion or voting phase.
func checkMafiaGuard(mm *mafiaMatch) error {
	for _, t := range mm.turns {
		mv := t.answered
		if mv == nil || mv.Action != mafia.ActProtect || mv.Target == nil {
			continue
		}
		if seq, killed := killedAfter(mm.events, t.seenSeq, *mv.Target); killed {
			return verdict.Failf("PYYOL-MAFIA-PROTECT", fmt.Sprintf("seat %d, protected, alive after the night", *mv.Target),
				fmt.Sprintf("eliminated at event %d", seq), "the Doctor's protection on day %d", t.view.Day)
		}
	}
	return nil
}

// killedAfter finds an elimination of seat after event seq and before the
// night ends (the next discussion or voting phase).
func killedAfter(events []mafiaEvent, seq, seat int) (int, bool) {
	for _, e := range events {
		if e.Seq <= seq {
			continue
		}
		if e.Type == mafia.EventPhase && (e.Payload["phase"] == mafia.Discussion || e.Payload["phase"] == mafia.Voting) {
			return 0, false
		}
		if e.Type == mafia.EventEliminate && intOf(e.Payload["target"]) == seat && e.Payload["cause"] != causeVote {
			return e.Seq, true
		}
	}
	return 0, false
}

// mafiaSteered says what the steering did in a match, for the run's note:
// how many lone votes and protections of another seat the agent cast.
func mafiaSteered(mm *mafiaMatch) string {
	votes, guards := 0, 0
	for _, t := range mm.turns {
		if t.answered == nil {
			continue
		}
		switch t.answered.Action {
		case mafia.ActVote:
			if t.answered.Target != nil && votesToday(t.view.Public)[*t.answered.Target] == 0 {
				votes++
			}
		case mafia.ActProtect:
			guards++
		}
	}
	return fmt.Sprintf("mafia steering (seat %d, %s): %d lone votes, %d protections of another seat over %d days", mm.seat, mm.role, votes, guards, lastDay(mm))
}

// lastDay is the day of the match's last turn view.
func lastDay(mm *mafiaMatch) int {
	if len(mm.turns) == 0 {
		return 0
	}
	return mm.turns[len(mm.turns)-1].view.Day
}
