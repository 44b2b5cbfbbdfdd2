package mafia

// The gateway sweep's fourth-round Mafia defects (issue 25,
// docs/detection.md "Pyyol gateway, round 4").
const (
	// TownWinsEarly ends the match for the Town once a single Mafia seat
	// is left ("the Mafia is broken"), where the docs wait for every one.
	TownWinsEarly Defect = "town-wins-early"
	// FindingIsRole tells the Detective its target's role, not MAFIA or
	// TOWN.
	FindingIsRole Defect = "finding-is-role"
)

// townWins reports whether mafia living Mafia have lost.
func (m *Match) townWins(mafia int) bool {
	if m.defect == TownWinsEarly {
		return mafia <= 1
	}
	return mafia == 0
}

// finding is what the Detective learns of role.
func (m *Match) finding(role string) string {
	if m.defect == FindingIsRole {
		return role
	}
	return Finding(role)
}
