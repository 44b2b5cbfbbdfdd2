package bountysolve_test

import (
	"crypto/sha256"
	"math/bits"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentgames/conformance/conformance/bountysolve"
	"github.com/agentgames/conformance/reference/bounty"
)

// leadingZeroBits counts the zero bits that open a digest.
func leadingZeroBits(d [32]byte) int {
	n := 0
	for _, b := range d {
		if b != 0 {
			return n + bits.LeadingZeros8(b)
		}
		n += 8
	}
	return n
}

// A remembered registration answer is a valid proof, the same one the
// reference solver finds, and the second ask gives the same nonce.
func TestARegistrationIsSolvedOnceAndRight(t *testing.T) {
	t.Parallel()
	nonce := bountysolve.Registration("tok-remembered", 10)
	assert.GreaterOrEqual(t, leadingZeroBits(sha256.Sum256([]byte("tok-remembered"+nonce))), 10)
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
