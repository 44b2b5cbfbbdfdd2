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

// TestSolvesEverySeedLevel: the solver clears positions 1-10 from their
// examples and probes alone, within the query budget.
func TestSolvesEverySeedLevel(t *testing.T) {
	t.Parallel()
	seed, err := forge.SeedPackages()
	require.NoError(t, err)
	for i, raw := range seed {
		var p authoring.Package
		require.NoError(t, json.Unmarshal(raw, &p))
		l := solver.Level{Domain: p.Public.InputDomain, Challenges: p.Private.HiddenInputs, Budget: forge.QueryBudget}
		for _, e := range p.Public.Examples {
			v, ok := solver.ParseOutput(e.Output)
			require.True(t, ok)
			l.Examples = append(l.Examples, solver.Observation{Input: e.Input, Output: v})
		}
		ask := func(in []int64) (dsl.Value, error) { return dsl.Eval(p.Private.Oracle, in) }
		outs, st, err := solver.Solve(l, ask, rand.New(rand.NewPCG(uint64(i), 1)))
		require.NoError(t, err, "position %d", i+1)
		want, _ := solver.Outputs(p.Private.Oracle, p.Private.HiddenInputs)
		for j := range want {
			require.True(t, solver.Equal(want[j], outs[j]), "position %d challenge %d", i+1, j)
		}
		require.LessOrEqual(t, st.Queries, forge.QueryBudget)
		t.Logf("position %d: %d queries, %d programs tried, %d candidates left", i+1, st.Queries, st.Tried, st.Candidates)
	}
}
