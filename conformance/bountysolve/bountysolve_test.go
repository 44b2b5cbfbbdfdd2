package bountysolve_test

import (
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentgames/conformance/conformance/bountysolve"
	"github.com/agentgames/conformance/reference/bounty"
	"github.com/agentgames/conformance/reference/pow"
)

// A remembered registration answer is a valid proof, the same one the
// reference solver finds, and the second ask gives the same nonce.
func TestARegistrationIsSolvedOnceAndRight(t *testing.T) {
	t.Parallel()
	nonce := bountysolve.Registration("tok-remembered", 10)
	sum := sha256.Sum256([]byte("tok-remembered" + nonce))
	assert.GreaterOrEqual(t, pow.LeadingZeroBits(sum[:]), 10)
	assert.Equal(t, bounty.SolveRegistration("tok-remembered", 10), nonce)
	assert.Equal(t, nonce, bountysolve.Registration("tok-remembered", 10))
}

// A remembered puzzle answer is the reference solver's.
func TestAPuzzleIsSolvedAsTheReferenceSolvesIt(t *testing.T) {
	t.Parallel()
	p := bounty.Puzzle{ShareIndex: 2, Type: bounty.TypeModular, Params: bounty.Params{A: "3", B: "4", P: "7"}}
	got := bountysolve.Puzzle(p)
	assert.Equal(t, bounty.Solve(p), got)
	assert.Equal(t, `"6"`, string(got.X), "3*6 mod 7 == 4")
	assert.Equal(t, got, bountysolve.Puzzle(p))
}
