// Package mafia is Pyyol's Mafia engine (games.md "Mafia"): pure and
// seeded, no I/O. Twelve seats hold hidden roles; the match cycles night,
// morning, discussion and voting until a team wins. Every view is redacted
// to its seat. The gateway and the runner's referee both play through it.
package mafia

import (
	"crypto/sha256"
	"math/rand/v2"
)

// Role values, capitalised as the docs print them (PYYOL-MAFIA-ROLE-CASE).
const (
	Mafia     = "Mafia"
	Detective = "Detective"
	Doctor    = "Doctor"
	Sheriff   = "Sheriff"
	Villager  = "Villager"
)

// Team names (games.md "How you win").
const (
	TeamTown  = "town"
	TeamMafia = "mafia"
)

// Seats is the table size (PYYOL-MAFIA-TABLE: "A full 12-seat table").
const Seats = 12

// Table is the standard role mix: 3 Mafia, one each of Detective, Doctor
// and Sheriff, and 6 Villagers (PYYOL-MAFIA-TABLE).
func Table() []string {
	roles := []string{Mafia, Mafia, Mafia, Detective, Doctor, Sheriff}
	for len(roles) < Seats {
		roles = append(roles, Villager)
	}
	return roles
}

// TeamOf is the team a role plays for: every role except Mafia is town
// (PYYOL-MAFIA-TEAMS).
func TeamOf(role string) string {
	if role == Mafia {
		return TeamMafia
	}
	return TeamTown
}

// Deal shuffles the standard table over the seats with a generator keyed
// by sha256(seed), so a seed always deals the same roles
// (PYYOL-MAFIA-REF-DEAL).
func Deal(seed []byte) []string {
	roles := Table()
	rng := newRand(seed)
	rng.Shuffle(len(roles), func(i, j int) { roles[i], roles[j] = roles[j], roles[i] })
	return roles
}

// newRand is a ChaCha8 generator keyed by the seed's SHA-256.
func newRand(seed []byte) *rand.Rand {
	return rand.New(rand.NewChaCha8(sha256.Sum256(seed)))
}

// DealFor deals from seed, then swaps so seat holds role when role is one
// of the table's (PYYOL-MAFIA-REF-PRACTICE: a practice agent may ask for
// its role); an unknown role leaves the deal as it is.
func DealFor(seed []byte, seat int, role string) []string {
	roles := Deal(seed)
	if seat < 0 || seat >= len(roles) {
		return roles
	}
	for s, r := range roles {
		if r == role {
			roles[s], roles[seat] = roles[seat], roles[s]
			break
		}
	}
	return roles
}
