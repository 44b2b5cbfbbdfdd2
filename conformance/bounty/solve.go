package bounty

import (
	"github.com/agentgames/conformance/conformance/memo"
	"github.com/agentgames/conformance/reference/bounty"
)

// The runner solves what the platform poses as any agent would
// (reference/bounty's solvers); a seeded reference poses the same puzzles
// and registration tokens in every run of a seed, so each answer is
// computed once per process.
var (
	solutions     memo.Cache[bounty.Puzzle, bounty.Solution]
	registrations memo.Cache[registration, string]
)

// registration is a registration token and its proof-of-work bits.
type registration struct {
	token string
	bits  int
}

// solvePuzzle is bounty.Solve, remembered.
func solvePuzzle(p bounty.Puzzle) bounty.Solution { return solutions.Do(p, bounty.Solve) }

// solveRegistration is bounty.SolveRegistration, remembered.
func solveRegistration(token string, bits int) string {
	return registrations.Do(registration{token, bits}, func(r registration) string {
		return bounty.SolveRegistration(r.token, r.bits)
	})
}
