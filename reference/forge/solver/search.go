// Package solver is the reference FORGE solver's pure part: the candidate
// steps, the enumerative search for DSL pipelines consistent with what an
// agent has observed, and the choice of probes. conformance/forge plays it
// against a deployment.
package solver

import (
	"encoding/json"
	"math/rand/v2"
	"slices"

	"github.com/agentgames/conformance/reference/forge/authoring"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

// MaxDepth is the longest pipeline the search tries.
const MaxDepth = 3

// maxFound caps how many consistent programs the search keeps.
const maxFound = 64

// Observation is one input with the output the level's oracle gave for it.
type Observation struct {
	Input  []int64
	Output dsl.Value
}

// ParseOutput reads a JSON output as a DSL value; an empty array matches
// both an empty list and no pairs.
func ParseOutput(raw json.RawMessage) (dsl.Value, bool) {
	var n int64
	if json.Unmarshal(raw, &n) == nil {
		return dsl.Value{Type: dsl.TInt, Int: n}, true
	}
	var xs []int64
	if json.Unmarshal(raw, &xs) == nil {
		return dsl.Value{Type: dsl.TList, List: xs}, true
	}
	var ps [][2]int64
	if json.Unmarshal(raw, &ps) == nil {
		return dsl.Value{Type: dsl.TPairs, Pairs: ps}, true
	}
	return dsl.Value{}, false
}

// Equal compares two values, an empty list equal to empty pairs.
func Equal(a, b dsl.Value) bool {
	if a.Type != b.Type {
		return a.Type != dsl.TInt && b.Type != dsl.TInt && len(a.List)+len(a.Pairs)+len(b.List)+len(b.Pairs) == 0
	}
	switch a.Type {
	case dsl.TInt:
		return a.Int == b.Int
	case dsl.TList:
		return slices.Equal(a.List, b.List)
	}
	return slices.Equal(a.Pairs, b.Pairs)
}

// Candidates are the steps the search combines: every op with the
// parameters small puzzles use.
func Candidates() []dsl.Step {
	var out []dsl.Step
	for _, k := range []int64{1, 2, 3, 5, 10, -1, -2, -3} {
		out = append(out, dsl.Step{Op: "map", Fn: "add", Arg: dsl.I(k)})
	}
	for _, k := range []int64{2, 3, 10, -1} {
		out = append(out, dsl.Step{Op: "map", Fn: "mul", Arg: dsl.I(k)})
	}
	for _, k := range []int64{2, 3, 5, 7, 10} {
		out = append(out, dsl.Step{Op: "map", Fn: "mod", Arg: dsl.I(k)})
	}
	for _, k := range []int64{2, 3} {
		out = append(out, dsl.Step{Op: "map", Fn: "div", Arg: dsl.I(k)})
	}
	for _, fn := range []string{"neg", "abs", "sq"} {
		out = append(out, dsl.Step{Op: "map", Fn: fn})
	}
	out = append(out, dsl.Step{Op: "filter", Pred: "even"}, dsl.Step{Op: "filter", Pred: "odd"},
		dsl.Step{Op: "filter", Pred: "gt", Arg: dsl.I(0)}, dsl.Step{Op: "filter", Pred: "lt", Arg: dsl.I(0)},
		dsl.Step{Op: "filter", Pred: "divisible", Arg: dsl.I(3)},
		dsl.Step{Op: "reverse"}, dsl.Step{Op: "sort"}, dsl.Step{Op: "sort", Order: "desc"},
		dsl.Step{Op: "deltas"}, dsl.Step{Op: "prefix_sum"}, dsl.Step{Op: "rle"})
	for _, n := range []int64{1, 2, 3} {
		out = append(out, dsl.Step{Op: "take", N: dsl.I(n)}, dsl.Step{Op: "drop", N: dsl.I(n)})
	}
	for _, size := range []int64{2, 3} {
		for _, r := range []string{"sum", "min", "max"} {
			out = append(out, dsl.Step{Op: "chunk_reduce", Size: dsl.I(size), Reduce: r})
		}
	}
	for _, r := range []string{"sum", "prod", "min", "max", "len"} {
		out = append(out, dsl.Step{Op: "reduce", Fn: r})
	}
	return out
}

// Search returns the shortest programs (up to MaxDepth steps) that give
// every observed output, at most maxFound of them, and the number of
// programs tried.
func Search(obs []Observation) ([]dsl.Program, int) {
	s := &search{obs: obs, steps: Candidates()}
	start := make([]dsl.Value, len(obs))
	for i, o := range obs {
		start[i] = dsl.Value{Type: dsl.TList, List: o.Input}
	}
	for depth := 1; depth <= MaxDepth && len(s.found) == 0; depth++ {
		s.dfs(nil, start, depth)
	}
	return s.found, s.tried
}

type search struct {
	obs   []Observation
	steps []dsl.Step
	found []dsl.Program
	tried int
}

func (s *search) dfs(prefix []dsl.Step, vals []dsl.Value, depth int) {
	if len(s.found) >= maxFound {
		return
	}
	if len(prefix) == depth {
		s.tried++
		for i, v := range vals {
			if !Equal(v, s.obs[i].Output) {
				return
			}
		}
		s.found = append(s.found, dsl.Program{Steps: slices.Clone(prefix)})
		return
	}
	if len(vals) > 0 && vals[0].Type == dsl.TPairs {
		return // rle is terminal
	}
	for _, st := range s.steps {
		if len(vals) > 0 && vals[0].Type == dsl.TInt && st.Op != "map" {
			continue
		}
		next, ok := applyAll(dsl.Program{Steps: []dsl.Step{st}}, vals)
		if ok {
			s.dfs(append(prefix, st), next, depth)
		}
	}
}

// applyAll runs a one-step program on every value; false on any failure.
func applyAll(p dsl.Program, vals []dsl.Value) ([]dsl.Value, bool) {
	out := make([]dsl.Value, len(vals))
	for i, v := range vals {
		in := v.List
		if v.Type == dsl.TInt {
			r, err := runOnInt(p.Steps[0], v.Int)
			if err != nil {
				return nil, false
			}
			out[i] = r
			continue
		}
		r, err := dsl.Dialect{}.Run(p, in, dsl.DefaultBudget)
		if err != nil {
			return nil, false
		}
		out[i] = r
	}
	return out, true
}

// runOnInt applies a map step to an int by running [reduce sum, step] on
// the one-element list, which the DSL defines as the same thing.
func runOnInt(st dsl.Step, n int64) (dsl.Value, error) {
	return dsl.Dialect{}.Run(dsl.Program{Steps: []dsl.Step{{Op: "reduce", Fn: "sum"}, st}}, []int64{n}, dsl.DefaultBudget)
}

// Outputs runs p on every input; false when any run fails.
func Outputs(p dsl.Program, inputs [][]int64) ([]dsl.Value, bool) {
	out := make([]dsl.Value, len(inputs))
	for i, in := range inputs {
		v, err := dsl.Dialect{}.Run(p, in, dsl.DefaultBudget)
		if err != nil {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// Agree reports whether every program gives the same outputs on inputs.
func Agree(ps []dsl.Program, inputs [][]int64) bool {
	first, ok := Outputs(ps[0], inputs)
	if !ok {
		return false
	}
	for _, p := range ps[1:] {
		other, ok := Outputs(p, inputs)
		if !ok {
			return false
		}
		for i := range first {
			if !Equal(first[i], other[i]) {
				return false
			}
		}
	}
	return true
}

// Probe draws a legal input distinct from every forbidden one (the
// challenge inputs, FORGE-PROBE-DISTINCT, and the inputs already seen).
func Probe(d authoring.Domain, forbidden [][]int64, rng *rand.Rand) ([]int64, bool) {
	for range 200 {
		n := d.MinLength + rng.IntN(d.MaxLength-d.MinLength+1)
		in := make([]int64, n)
		for i := range in {
			in[i] = d.MinValue + rng.Int64N(d.MaxValue-d.MinValue+1)
		}
		if !slices.ContainsFunc(forbidden, func(f []int64) bool { return slices.Equal(f, in) }) {
			return in, true
		}
	}
	return nil, false
}

// Splitter finds a legal probe on which two of ps disagree.
func Splitter(ps []dsl.Program, d authoring.Domain, forbidden [][]int64, rng *rand.Rand) ([]int64, bool) {
	for range 2000 {
		in, ok := Probe(d, forbidden, rng)
		if ok && !Agree(ps, [][]int64{in}) {
			return in, true
		}
	}
	return nil, false
}
