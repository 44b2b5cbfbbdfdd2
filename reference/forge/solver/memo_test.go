package solver_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/forge"
	"github.com/agentgames/conformance/reference/forge/authoring"
	"github.com/agentgames/conformance/reference/forge/dsl"
	"github.com/agentgames/conformance/reference/forge/solver"
)

// TestMemoSolvesAsSolveDoes: a Memo answers every seed level exactly as
// Solve does, the first time and from memory, and a caller changing the
// programs it got changes nothing remembered.
func TestMemoSolvesAsSolveDoes(t *testing.T) {
	t.Parallel()
	seed, err := forge.SeedPackages()
	require.NoError(t, err)
	var m solver.Memo
	for i, raw := range seed {
		var p authoring.Package
		require.NoError(t, json.Unmarshal(raw, &p))
		l := solver.Level{Domain: p.Public.InputDomain, Challenges: p.Private.HiddenInputs, Budget: forge.QueryBudget}
		for _, e := range p.Public.Examples {
			v, _ := solver.ParseOutput(e.Output)
			l.Examples = append(l.Examples, solver.Observation{Input: e.Input, Output: v})
		}
		ask := func(in []int64) (dsl.Value, error) { return dsl.Eval(p.Private.Oracle, in) }
		rng := func() *rand.Rand { return rand.New(rand.NewPCG(uint64(i), 1)) }
		wantOuts, wantStats, wantErr := solver.Solve(l, ask, rng())
		for pass := range 2 {
			outs, st, err := m.Solve(l, ask, rng())
			require.Equal(t, wantErr, err, "position %d pass %d", i+1, pass)
			require.Equal(t, wantOuts, outs, "position %d pass %d", i+1, pass)
			require.Equal(t, wantStats, st, "position %d pass %d", i+1, pass)
		}
		found, tried := m.Search(l.Examples)
		wantFound, wantTried := solver.Search(l.Examples)
		require.Equal(t, wantFound, found)
		require.Equal(t, wantTried, tried)
		if len(found) > 0 {
			found[0] = dsl.Program{}
			again, _ := m.Search(l.Examples)
			require.Equal(t, wantFound, again, "the memo keeps its own copy")
		}
	}
}
