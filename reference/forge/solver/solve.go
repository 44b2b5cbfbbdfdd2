package solver

import (
	"errors"
	"math/rand/v2"
	"slices"

	"github.com/agentgames/conformance/reference/forge/authoring"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

// ErrOutsideDSL says no pipeline of the kit's DSL (up to MaxDepth steps)
// explains what the level showed: the level is outside what the solver
// knows, which is never a failure of the deployment.
var ErrOutsideDSL = errors.New("no DSL pipeline of up to 3 steps explains the level's examples and probes")

// Level is what a solver knows of a level before probing.
type Level struct {
	Domain     authoring.Domain
	Examples   []Observation
	Challenges [][]int64
	Budget     int // queries the session allows
}

// Stats describes one solve.
type Stats struct {
	Queries    int
	Candidates int
	Tried      int
	Program    dsl.Program
}

// Query asks the level's oracle for one probe's output.
type Query func(input []int64) (dsl.Value, error)

// Solve infers the level's rule from its examples and legal probes
// distinct from every challenge input (FORGE-PROBE-DISTINCT), within half
// the query budget for the first round and the rest to split candidates,
// and returns the outputs for the challenge inputs in their original order
// (FORGE-ORIGINAL-ORDER).
func Solve(l Level, ask Query, rng *rand.Rand) ([]dsl.Value, Stats, error) {
	return solve(l, ask, rng, Search)
}

// solve is Solve with the program search given, so a Memo can answer the
// search from what it has seen.
func solve(l Level, ask Query, rng *rand.Rand, search func([]Observation) ([]dsl.Program, int)) ([]dsl.Value, Stats, error) {
	var st Stats
	obs := slices.Clone(l.Examples)
	seen := slices.Clone(l.Challenges)
	for _, o := range obs {
		seen = append(seen, o.Input)
	}
	probe := func(in []int64) error {
		out, err := ask(in)
		if err != nil {
			return err
		}
		st.Queries++
		obs = append(obs, Observation{Input: in, Output: out})
		seen = append(seen, in)
		return nil
	}
	for range min(l.Budget/2, 10) {
		in, ok := Probe(l.Domain, seen, rng)
		if !ok {
			break
		}
		if err := probe(in); err != nil {
			return nil, st, err
		}
	}
	found, tried := search(obs)
	st.Tried = tried
	found = runnable(found, l.Challenges)
	for len(found) > 1 && !Agree(found, l.Challenges) && st.Queries < l.Budget {
		in, ok := Splitter(found, l.Domain, seen, rng)
		if !ok {
			break
		}
		if err := probe(in); err != nil {
			return nil, st, err
		}
		found = consistent(found, obs[len(obs)-1])
	}
	st.Candidates = len(found)
	if len(found) == 0 {
		return nil, st, ErrOutsideDSL
	}
	st.Program = found[0]
	outs, _ := Outputs(found[0], l.Challenges)
	return outs, st, nil
}

// runnable keeps the programs that run on every challenge input: the
// level's oracle does.
func runnable(ps []dsl.Program, challenges [][]int64) []dsl.Program {
	return slices.DeleteFunc(ps, func(p dsl.Program) bool {
		_, ok := Outputs(p, challenges)
		return !ok
	})
}

func consistent(ps []dsl.Program, o Observation) []dsl.Program {
	return slices.DeleteFunc(ps, func(p dsl.Program) bool {
		out, ok := Outputs(p, [][]int64{o.Input})
		return !ok || !Equal(out[0], o.Output)
	})
}
