package solver_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/agentgames/conformance/reference/forge"
	"github.com/agentgames/conformance/reference/forge/authoring"
	"github.com/agentgames/conformance/reference/forge/dsl"
	"github.com/agentgames/conformance/reference/forge/solver"
)

// BenchmarkSolveSeedChain solves positions 1-10 and reports the probes
// and the programs tried per level.
func BenchmarkSolveSeedChain(b *testing.B) {
	seed, err := forge.SeedPackages()
	if err != nil {
		b.Fatal(err)
	}
	var probes, tried, levels int
	for b.Loop() {
		for i, raw := range seed {
			var p authoring.Package
			_ = json.Unmarshal(raw, &p)
			l := solver.Level{Domain: p.Public.InputDomain, Challenges: p.Private.HiddenInputs, Budget: forge.QueryBudget}
			for _, e := range p.Public.Examples {
				v, _ := solver.ParseOutput(e.Output)
				l.Examples = append(l.Examples, solver.Observation{Input: e.Input, Output: v})
			}
			ask := func(in []int64) (dsl.Value, error) { return dsl.Eval(p.Private.Oracle, in) }
			_, st, err := solver.Solve(l, ask, rand.New(rand.NewPCG(uint64(i), 1)))
			if err != nil {
				b.Fatal(err)
			}
			probes, tried, levels = probes+st.Queries, tried+st.Tried, levels+1
		}
	}
	b.ReportMetric(float64(probes)/float64(levels), "probes/level")
	b.ReportMetric(float64(tried)/float64(levels), "programs/level")
}
