package server

import "github.com/agentgames/conformance/reference/pyyol/mafia"

// The gateway sweep's third-round Goofspiel and Mafia tampers
// (docs/detection.md "Pyyol gateway, round 3"): a Goofspiel fallback of
// its own and one Mafia engine defect; the round's Monopoly tampers are
// in monopoly_slips.go.
const (
	// FallbackPrizeCard falls back to the card matching the round's prize
	// when the hand still holds it ("bid the prize's value"), else the
	// lowest card.
	FallbackPrizeCard Tamper = "fallback-prize-card"
	// MafiaParityPlaysOn ends the match for the Mafia only once they
	// outnumber the Town.
	MafiaParityPlaysOn Tamper = "mafia-parity-plays-on"

	// The fourth round's Mafia defects (reference/pyyol/mafia/defects_round4.go).
	MafiaTownWinsEarly Tamper = "mafia-town-wins-early"
	MafiaFindingIsRole Tamper = "mafia-finding-is-role"
)

// init adds the round's tampers to the engine defects they plant.
func init() {
	mafiaDefects[MafiaParityPlaysOn] = mafia.ParityPlaysOn
	mafiaDefects[MafiaTownWinsEarly] = mafia.TownWinsEarly
	mafiaDefects[MafiaFindingIsRole] = mafia.FindingIsRole
}
