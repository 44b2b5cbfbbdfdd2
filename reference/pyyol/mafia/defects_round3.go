package mafia

// ParityPlaysOn is the gateway sweep's third-round Mafia defect (issue 25,
// docs/detection.md "Pyyol gateway, round 3"): the Mafia win only when
// they outnumber the living Town, so a table at parity plays on, where
// the docs end it ("equal or outnumber").
const ParityPlaysOn Defect = "parity-plays-on"

// mafiaWins reports whether mafia living Mafia against town living Town
// have won: equal or outnumber, unless the defect wants more.
func (m *Match) mafiaWins(mafia, town int) bool {
	if m.defect == ParityPlaysOn {
		return mafia > town
	}
	return mafia >= town
}
