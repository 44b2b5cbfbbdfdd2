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
)

// Break sets a defect on the match.
func (m *Match) Break(d Defect) { m.defect = d }

// voteTarget is the seat a voting phase eliminates: the plurality target,
// ties to the lowest seat (PYYOL-MAFIA-VOTE, PYYOL-MAFIA-REF-VOTE-TIE),
// unless a defect resolves ties otherwise.
func (m *Match) voteTarget(votes []int) (int, bool) {
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
