package mafia

import "fmt"

// enter opens a phase and announces it (PYYOL-MAFIA-EVENT-PHASE: phase
// {day, phase}).
func (m *Match) enter(phase string) {
	m.phase = phase
	m.acted = map[int]Move{}
	m.emit(EventPhase, map[string]any{"day": m.day, "phase": phase})
}

// advance closes the current phase once nobody is owed a move.
func (m *Match) advance() {
	switch m.phase {
	case Night:
		m.resolveNight()
	case Discussion:
		// PYYOL-MAFIA-PHASES: voting follows discussion.
		m.enter(Voting)
	case Voting:
		m.resolveVote()
	}
}

// resolveNight settles the night: private results to each acting seat,
// then the morning announcement of a kill or a quiet night
// (PYYOL-MAFIA-PHASE-MORNING), then discussion unless a team has won.
func (m *Match) resolveNight() {
	acted := m.acted
	target, killed := m.mafiaTarget(acted)
	protected := map[int]bool{}
	for _, mv := range acted {
		if mv.Action == ActProtect {
			protected[*mv.Target] = true
		}
	}
	m.tellNight(acted)
	m.leakKill(target, killed)
	m.enter(Morning)
	// PYYOL-MAFIA-PROTECT: the Doctor's protection prevents the kill.
	// PYYOL-MAFIA-KILL-WHEN: the night's one kill falls at morning.
	// PYYOL-MAFIA-EVENT-MODERATOR: the outcome as a narration line {text}.
	if killed && (!protected[target] || m.defect == ProtectIgnored) {
		m.emit(EventModerator, map[string]any{"text": fmt.Sprintf("Seat %d was killed in the night.", target)})
		m.eliminate(target, CauseNightKill)
	} else {
		m.emit(EventModerator, map[string]any{"text": "A quiet night: nobody died."})
	}
	if m.checkVictory() {
		return
	}
	m.enter(Discussion)
}

// tellNight records each night action's result in the actor's own stream,
// seat by seat in order (PYYOL-MAFIA-NIGHT-PRIVATE). The Detective learns
// the target's alignment (PYYOL-MAFIA-INVESTIGATE); the Sheriff's profile
// is only recorded (PYYOL-MAFIA-PROFILE). Results arrive when the night
// resolves (PYYOL-MAFIA-REF-NIGHT-RESULT).
func (m *Match) tellNight(acted map[int]Move) {
	for seat := range m.roles {
		mv, ok := acted[seat]
		if !ok {
			continue
		}
		// The real platform's night result names the actor's role and seat;
		// day and action are the kit's own, kept for its earlier readers.
		p := map[string]any{"day": m.day, "action": mv.Action, "target": *mv.Target, "actor": m.roles[seat], "seat": seat}
		if mv.Action == ActInvestigate {
			p["finding"] = m.finding(m.roles[*mv.Target])
		}
		m.emitPrivate(seat, p)
	}
}

// Finding is the Detective's answer for a role: "MAFIA" or "TOWN"
// (PYYOL-MAFIA-INVESTIGATE).
func Finding(role string) string {
	if role == Mafia {
		return "MAFIA"
	}
	return "TOWN"
}

// mafiaTarget is the Mafia's collective pick: the seat most living Mafia
// named, a tie going to the lowest tied seat (PYYOL-MAFIA-REF-KILL-PICK).
func (m *Match) mafiaTarget(acted map[int]Move) (int, bool) {
	var picks []int
	for seat := range m.roles {
		if mv, ok := acted[seat]; ok && mv.Action == ActNightKill {
			picks = append(picks, *mv.Target)
		}
	}
	return plurality(picks)
}

// plurality is the most named seat, ties to the lowest seat; false when
// nobody was named.
func plurality(names []int) (int, bool) {
	count := map[int]int{}
	best, top := -1, 0
	for _, s := range names {
		count[s]++
	}
	for s, n := range count {
		if n > top || (n == top && s < best) {
			best, top = s, n
		}
	}
	return best, best >= 0
}

// resolveVote eliminates the plurality target (PYYOL-MAFIA-VOTE); a tie
// eliminates the lowest tied seat (PYYOL-MAFIA-REF-VOTE-TIE), so every
// voting phase removes a seat and every match ends
// (PYYOL-MAFIA-REF-VOTE-TIE). A new day's night follows unless a team won.
func (m *Match) resolveVote() {
	var votes []int
	for seat := range m.roles {
		if mv, ok := m.acted[seat]; ok {
			votes = append(votes, *mv.Target)
		}
	}
	if target, ok := m.voteTarget(votes); ok {
		// PYYOL-MAFIA-KILL-WHEN: one seat at most is voted out, at voting.
		m.emit(EventModerator, map[string]any{"text": fmt.Sprintf("The table voted out seat %d.", target)})
		m.eliminate(target, CauseVote)
	}
	if m.checkVictory() {
		return
	}
	// PYYOL-MAFIA-REF-DAY: the day counter grows at each new night, so
	// it grows by one per full cycle and never goes back (PYYOL-MAFIA-DAY).
	m.day++
	m.enter(Night)
}

// eliminate removes a seat publicly, without naming its role
// (PYYOL-MAFIA-REDACTED, PYYOL-MAFIA-EVENT-ELIMINATE), for good: alive
// is false from here on and the seat is owed no move again
// (PYYOL-MAFIA-ALIVE).
func (m *Match) eliminate(seat int, cause string) {
	m.alive[seat] = false
	m.emit(EventEliminate, map[string]any{"target": seat, "cause": cause})
}

// Living counts the living seats of each team.
func (m *Match) Living() (mafia, town int) {
	for seat, role := range m.roles {
		if !m.alive[seat] {
			continue
		}
		if role == Mafia {
			mafia++
		} else {
			town++
		}
	}
	return mafia, town
}

// victoryText is the victory event's narration line per team.
var victoryText = map[string]string{TeamTown: "Town wins the match.", TeamMafia: "Mafia wins the match."}

// checkVictory ends the match when a team has won (PYYOL-MAFIA-WIN-TOWN,
// PYYOL-MAFIA-WIN-MAFIA), announces it (PYYOL-MAFIA-EVENT-VICTORY) and
// enters the terminal result phase (PYYOL-MAFIA-RESULT).
func (m *Match) checkVictory() bool {
	mafia, town := m.Living()
	switch {
	case m.townWins(mafia):
		m.winner = TeamTown
	case m.mafiaWins(mafia, town):
		m.winner = TeamMafia
	default:
		return false
	}
	// PYYOL-MAFIA-REF-CAUSE: {team, text}, as the real platform sends it.
	m.emit(EventVictory, map[string]any{"team": m.winner, "text": victoryText[m.winner]})
	m.enter(Result)
	return true
}
