// Package bountysolve solves what the agent-puzzle bounty poses (its
// puzzles and its registration proof of work) once per process, for every
// runner that plays the bounty: the bounty's own checks, the
// share-exchange checks, which register and solve on its board to hold
// shares, and the agent audit. A seeded reference poses the same puzzles
// and registration tokens in every run of a seed, and the kit's tests
// start many runs in one process, so remembering each answer saves the
// hashing without changing a single request. A deployment that poses new
// tokens every time simply misses the cache.
package bountysolve

import (
	"github.com/agentgames/conformance/conformance/memo"
	"github.com/agentgames/conformance/reference/bounty"
)

var (
	solutions     memo.Cache[bounty.Puzzle, bounty.Solution]
	registrations memo.Cache[registration, string]
)

// registration is a registration token and its proof-of-work bits.
type registration struct {
	token string
	bits  int
}

// Puzzle is bounty.Solve, remembered.
func Puzzle(p bounty.Puzzle) bounty.Solution { return solutions.Do(p, bounty.Solve) }

// Registration is bounty.SolveRegistration, remembered.
func Registration(token string, bits int) string {
	return registrations.Do(registration{token, bits}, func(r registration) string {
		return bounty.SolveRegistration(r.token, r.bits)
	})
}
