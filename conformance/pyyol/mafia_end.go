package pyyol

import (
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

// checkMafiaEnd: result is the last phase and nothing happens after it
// (PYYOL-MAFIA-RESULT); the winner is a team (PYYOL-MAFIA-TEAMS); the
// revealed table is the standard one (PYYOL-MAFIA-TABLE); the match ended
// as soon as a team won, with that team (PYYOL-MAFIA-WIN-TOWN,
// PYYOL-MAFIA-WIN-MAFIA). Without a reveal (PYYOL-MAFIA-REF-REVEAL) the
// role checks use what the seat knows and are otherwise unchecked.
func checkMafiaEnd(mm *mafiaMatch, found func(error)) error {
	if err := checkResultLast(mm); err != nil {
		return err
	}
	winner := strOf(mm.end["winner"])
	if winner != "town" && winner != "mafia" {
		return verdict.Failf("PYYOL-MAFIA-TEAMS", []string{"town", "mafia"}, mm.end["winner"], "game_end.result.winner")
	}
	roles := mm.revealedRoles()
	if len(roles) == 0 {
		found(verdict.Failf("PYYOL-MAFIA-REF-REVEAL", "game_end.result.roles", "none", "the roles are not revealed"))
	} else if err := checkRevealedCase(roles); err != nil {
		return err
	} else if err := checkTable(roles); err != nil {
		return err
	}
	seats, known := mm.mafiaSeats()
	if !known {
		return nil
	}
	return checkWinTiming(mm, seats, winner)
}

func checkResultLast(mm *mafiaMatch) error {
	steps := mm.timeline()
	at := slices.IndexFunc(steps, func(s mafiaStep) bool { return s.event.Type == "phase" && s.phase == "result" })
	if at < 0 {
		return verdict.Failf("PYYOL-MAFIA-RESULT", "a result phase before game_end", "none", "the match ended without one")
	}
	for _, s := range steps[at+1:] {
		if s.event.Type != "moderator" {
			return verdict.Failf("PYYOL-MAFIA-RESULT", "nothing after the terminal result phase", s.event, "after result")
		}
	}
	return nil
}

func checkTable(roles []string) error {
	count := map[string]int{}
	for _, r := range roles {
		count[r]++
	}
	want := map[string]int{"Mafia": 3, "Detective": 1, "Doctor": 1, "Sheriff": 1, "Villager": 6}
	for r, n := range want {
		if count[r] != n || len(roles) != mafia.Seats {
			return verdict.Failf("PYYOL-MAFIA-TABLE", want, count, "the revealed roles")
		}
	}
	return nil
}

// checkWinTiming replays the eliminations: once every Mafia is out town
// has won, once the living Mafia equal the living Town mafia has won, and
// the match may go no further.
func checkWinTiming(mm *mafiaMatch, seats map[int]bool, winner string) error {
	for _, s := range mm.timeline() {
		if s.event.Type != "phase" || s.phase == "result" {
			continue
		}
		m, t := 0, 0
		for seat, ok := range s.alive {
			switch {
			case !ok:
			case seats[seat]:
				m++
			default:
				t++
			}
		}
		if m == 0 {
			return verdict.Failf("PYYOL-MAFIA-WIN-TOWN", "town wins when every Mafia is eliminated", s.event, "the match went on")
		}
		if m >= t {
			return verdict.Failf("PYYOL-MAFIA-WIN-MAFIA", "mafia wins as soon as it equals the Town", s.event, "the match went on with %d Mafia, %d Town", m, t)
		}
	}
	return checkWinner(mm, seats, winner)
}

func checkWinner(mm *mafiaMatch, seats map[int]bool, winner string) error {
	steps := mm.timeline()
	if len(steps) == 0 {
		return nil
	}
	final := steps[len(steps)-1].alive
	for _, s := range steps {
		if at := intOf(s.event.Payload["target"]); s.event.Type == "eliminate" && at >= 0 && at < mafia.Seats {
			final[at] = false
		}
	}
	m, t := 0, 0
	for seat, ok := range final {
		if ok && seats[seat] {
			m++
		} else if ok {
			t++
		}
	}
	// "town wins when every Mafia has been eliminated": not before, and
	// then; "mafia wins as soon as" it equals the Town: not before, and then.
	switch {
	case winner == "town" && m > 0, m == 0 && winner != "town":
		return verdict.Failf("PYYOL-MAFIA-WIN-TOWN", "town exactly when no Mafia is alive", winner, "%d Mafia, %d Town alive", m, t)
	case winner == "mafia" && m < t, m > 0 && m >= t && winner != "mafia":
		return verdict.Failf("PYYOL-MAFIA-WIN-MAFIA", "mafia exactly when the Mafia equal the Town", winner, "%d Mafia, %d Town alive", m, t)
	}
	return nil
}
