package mafia

import "slices"

// Defect names a deliberate fault, for the kit's own tamper tests only: a
// broken gateway built on a broken engine, which the runner must catch.
// The zero value is a faithful engine.
type Defect string

// The defects the tamper tests use.
const (
	// TieToHighest resolves a tied vote to the highest tied seat, against
	// the reference's lowest (PYYOL-MAFIA-REF-VOTE-TIE).
	TieToHighest Defect = "tie-to-highest"
	// TieToOutsider resolves a tied vote by eliminating a living seat
	// outside the tie, which no reading of plurality allows
	// (PYYOL-MAFIA-VOTE).
	TieToOutsider Defect = "tie-to-outsider"
	// RolesLeaked shows every seat's role in every view (a redaction slip).
	RolesLeaked Defect = "roles-leaked"
	// KillTargetLeaked tells every living seat the Mafia's pick in its
	// private stream, not the Mafia alone.
	KillTargetLeaked Defect = "kill-target-leaked"
	// LastVoteWins eliminates the target of the last vote cast, not the
	// plurality.
	LastVoteWins Defect = "last-vote-wins"
	// ProtectIgnored lets the night kill through the Doctor's protection.
	ProtectIgnored Defect = "protect-ignored"
)

// Break sets a defect on the match.
func (m *Match) Break(d Defect) { m.defect = d }

// voteTarget is the seat a voting phase eliminates: the plurality target,
// ties to the lowest seat (PYYOL-MAFIA-VOTE, PYYOL-MAFIA-REF-VOTE-TIE),
// unless a defect resolves ties otherwise.
func (m *Match) voteTarget(votes []int) (int, bool) {
	if m.defect == LastVoteWins && len(votes) > 0 {
		return votes[len(votes)-1], true
	}
	target, ok := plurality(votes)
	count := map[int]int{}
	for _, s := range votes {
		count[s]++
	}
	var tied []int
	for s, n := range count {
		if n == count[target] {
			tied = append(tied, s)
		}
	}
	if !ok || len(tied) < 2 || m.defect == "" {
		return target, ok
	}
	slices.Sort(tied)
	if m.defect == TieToHighest {
		return tied[len(tied)-1], true
	}
	for s := range m.roles {
		if m.alive[s] && !slices.Contains(tied, s) {
			return s, true
		}
	}
	return target, ok
}

// leakedRoles is every seat's role, shown in views only under the
// RolesLeaked defect.
func (m *Match) leakedRoles() []string {
	if m.defect != RolesLeaked {
		return nil
	}
	return slices.Clone(m.roles)
}

// leakKill tells every living seat outside the Mafia the night's pick
// under the KillTargetLeaked defect.
func (m *Match) leakKill(target int, killed bool) {
	if m.defect != KillTargetLeaked || !killed {
		return
	}
	for s, role := range m.roles {
		if role != Mafia && m.alive[s] {
			m.emitPrivate(s, map[string]any{"day": m.day, "action": ActNightKill, "target": target})
		}
	}
}
