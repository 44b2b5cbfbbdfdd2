package forge

import (
	"github.com/agentgames/conformance/reference/forge/authoring"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

// safeCase is one arithmetic step of the DSL at the JSON safe-integer
// boundary (FORGE-DSL-OVERFLOW-REJECTED): a package whose oracle reaches
// the boundary on input at (2^53-1, or the largest value the step can
// reach exactly, noted in reach) and, where the step can leave the range, a
// package going one step past it on input past. Both keep every other
// input small, so their examples are exact.
type safeCase struct {
	step        string
	reach       string
	okProgram   dsl.Program
	okDomain    authoring.Domain
	at          []int64
	overProgram dsl.Program // nil Steps: the step cannot leave the safe range
	overDomain  authoring.Domain
	past        []int64
	overExample []int64 // the past package's example; nil: a small one-value input
}

// Factors of the boundary: 2^53-1 = 6361 * 69431 * 20394401, and
// (2^53-2)/2 = 6511845 * 691601171; 94906265 is the largest safe square root.
const (
	safeF1, safeF2, safeF3 = 6361, 69431, 20394401
	halfX, halfA           = 6511845, 691601171
	safeRoot               = 94906265
)

func mapStep(fn string, arg int64) dsl.Step { return dsl.Step{Op: "map", Fn: fn, Arg: dsl.I(arg)} }

func domain(lo, hi int64, maxLen int) authoring.Domain {
	return authoring.Domain{MinLength: 1, MaxLength: maxLen, MinValue: lo, MaxValue: hi}
}

// toMax maps an input value v to v * 69431 * 20394401: 6361 gives 2^53-1.
var toMax = []dsl.Step{mapStep("mul", safeF2), mapStep("mul", safeF3)}

func with(prefix []dsl.Step, s ...dsl.Step) dsl.Program {
	return steps(append(append([]dsl.Step(nil), prefix...), s...)...)
}

// safeCases lists every arithmetic step of the kit's DSL (spec/forge/dsl.md
// §4): map add, sub, mul, sq, neg, abs, div, mod, min, max; prefix_sum;
// reduce and chunk_reduce by sum and prod; deltas.
func safeCases() []safeCase {
	half := []dsl.Step{mapStep("mul", halfA)}
	halfOver := []dsl.Step{mapStep("mul", halfA+1)}
	sumCase := func(name string, s dsl.Step) safeCase {
		return safeCase{step: name, reach: "2^53-2 (a sum of two equal values is even)",
			okProgram: with(half, s), okDomain: domain(0, halfX, 2), at: []int64{halfX, halfX},
			overProgram: with(halfOver, s), overDomain: domain(0, halfX, 2), past: []int64{halfX, halfX}}
	}
	prodCase := func(name string, s dsl.Step) safeCase {
		return safeCase{step: name, reach: "94906265^2, the largest safe square",
			okProgram: steps(s), okDomain: domain(0, safeRoot, 2), at: []int64{safeRoot, safeRoot},
			overProgram: steps(s), overDomain: domain(0, safeRoot+1, 2), past: []int64{safeRoot + 1, safeRoot + 1}}
	}
	onlyOK := func(name, reach string, lo, hi int64, at int64, s dsl.Step) safeCase {
		return safeCase{step: name, reach: reach, okProgram: with(toMax, s), okDomain: domain(lo, hi, 2), at: []int64{at}}
	}
	return []safeCase{
		{step: "map add", reach: "2^53-1", okProgram: steps(mapStep("mul", 1e9), mapStep("add", 254740991)), okDomain: domain(0, 9007199, 2),
			at: []int64{9007199}, overProgram: steps(mapStep("mul", 1e9), mapStep("add", 254740992)), overDomain: domain(0, 9007199, 2), past: []int64{9007199}},
		{step: "map sub", reach: "-(2^53-1)", okProgram: steps(mapStep("mul", 1e9), mapStep("sub", 254740991)), okDomain: domain(-9007199, 0, 2),
			at: []int64{-9007199}, overProgram: steps(mapStep("mul", 1e9), mapStep("sub", 254740992)), overDomain: domain(-9007199, 0, 2), past: []int64{-9007199}},
		{step: "map mul", reach: "2^53-1", okProgram: steps(mapStep("mul", safeF2), mapStep("mul", safeF3)), okDomain: domain(0, safeF1, 2),
			at: []int64{safeF1}, overProgram: steps(mapStep("mul", safeF2), mapStep("mul", safeF3+1)), overDomain: domain(0, safeF1, 2), past: []int64{safeF1}},
		{step: "map sq", reach: "94906265^2, the largest safe square", okProgram: steps(dsl.Step{Op: "map", Fn: "sq"}), okDomain: domain(0, safeRoot, 2),
			at: []int64{safeRoot}, overProgram: steps(dsl.Step{Op: "map", Fn: "sq"}), overDomain: domain(0, safeRoot+1, 2), past: []int64{safeRoot + 1}},
		onlyOK("map neg", "-(2^53-1)", 0, safeF1, safeF1, dsl.Step{Op: "map", Fn: "neg"}),
		onlyOK("map abs", "2^53-1", -safeF1, 0, -safeF1, dsl.Step{Op: "map", Fn: "abs"}),
		onlyOK("map div", "2^53-1", -safeF1, safeF1, safeF1, mapStep("div", 1)),
		onlyOK("map mod", "a dividend of -(2^53-1)", -safeF1, safeF1, -safeF1, mapStep("mod", 1e9)),
		onlyOK("map min", "-(2^53-1)", -safeF1, safeF1, -safeF1, mapStep("min", 0)),
		onlyOK("map max", "2^53-1", -safeF1, safeF1, safeF1, mapStep("max", 0)),
		sumCase("prefix_sum", dsl.Step{Op: "prefix_sum"}),
		sumCase("reduce sum", dsl.Step{Op: "reduce", Fn: "sum"}),
		sumCase("chunk_reduce sum", dsl.Step{Op: "chunk_reduce", Size: dsl.I(2), Reduce: "sum"}),
		prodCase("reduce prod", dsl.Step{Op: "reduce", Fn: "prod"}),
		prodCase("chunk_reduce prod", dsl.Step{Op: "chunk_reduce", Size: dsl.I(2), Reduce: "prod"}),
		{step: "deltas", reach: "2^53-1", okProgram: with(append([]dsl.Step{mapStep("mul", safeF1)}, toMax...), dsl.Step{Op: "deltas"}),
			okDomain: domain(0, 1, 2), at: []int64{0, 1},
			overProgram: with(append([]dsl.Step{mapStep("mul", safeF1)}, toMax...), dsl.Step{Op: "deltas"}),
			overDomain:  domain(-1, 1, 2), past: []int64{-1, 1}, overExample: []int64{0, 1}},
	}
}

// boundaryPackage reaches the boundary on its first example and
// contradicts itself on its second (a wrong output): a deployment that
// runs it must refuse it for the example alone, exactly as it refuses the
// control, never for an overflow.
func (c safeCase) boundaryPackage() pkg {
	small := smallInput(c.okDomain, c.at)
	p := exactPackage(c.okProgram, c.okDomain, [][]int64{c.at, small}, nil)
	ex := p["public"].(map[string]any)["examples"].([]any)[1].(map[string]any)
	ex["output"] = wrongOutput(ex["output"].(dsl.Value))
	return p
}

// pastPackage goes past the boundary on a hidden input; its examples are
// small and exact, so only the overflow can refuse it.
func (c safeCase) pastPackage() pkg {
	small := c.overExample
	if small == nil {
		small = smallInput(c.overDomain, c.past)
	}
	return exactPackage(c.overProgram, c.overDomain, [][]int64{small}, c.past)
}

// controlPackage is the boundary package's shape with nothing large: a
// reverse with one contradicting example.
func controlPackage() pkg {
	d := domain(-5, 5, 2)
	p := exactPackage(steps(dsl.Step{Op: "reverse"}), d, [][]int64{{1, 2}, {3}}, nil)
	ex := p["public"].(map[string]any)["examples"].([]any)[1].(map[string]any)
	ex["output"] = wrongOutput(ex["output"].(dsl.Value))
	return p
}

// exactPackage is a package whose examples are the oracle's outputs on
// inputs, with hidden inputs that include must (when given) and otherwise
// distinct inputs of the domain.
func exactPackage(oracle dsl.Program, d authoring.Domain, inputs [][]int64, must []int64) pkg {
	tag := randomHex(6)
	var examples []any
	for _, in := range inputs {
		out, _ := dsl.Eval(oracle, in)
		examples = append(examples, map[string]any{"input": in, "output": out})
	}
	var hidden [][]int64
	if must != nil {
		hidden = append(hidden, must)
	}
	for _, in := range candidates(d) {
		if len(hidden) == 3 {
			break
		}
		if !containsInput(hidden, in) && !containsInput(inputs, in) {
			hidden = append(hidden, in)
		}
	}
	return pkg{
		"id":      "kit-safe-" + tag,
		"public":  map[string]any{"title": "Kit boundary " + tag, "rules": "A safe-integer boundary written by the conformance kit (" + tag + ").", "inputDomain": d, "examples": examples},
		"private": map[string]any{"oracle": oracle, "hiddenInputs": hidden},
	}
}

// candidates are inputs of the domain, the small ones first.
func candidates(d authoring.Domain) [][]int64 {
	mid := d.MinValue + (d.MaxValue-d.MinValue)/2
	vals := []int64{mid, d.MinValue, d.MaxValue, mid + 1}
	var out [][]int64
	for _, a := range vals {
		if a <= d.MaxValue {
			out = append(out, []int64{a})
		}
	}
	for _, a := range vals {
		for _, b := range vals {
			if a <= d.MaxValue && b <= d.MaxValue && d.MaxLength >= 2 {
				out = append(out, []int64{a, b})
			}
		}
	}
	return out
}

// smallInput is a one-value input of the domain other than big: its
// middle value, or its minimum.
func smallInput(d authoring.Domain, big []int64) []int64 {
	in := []int64{d.MinValue + (d.MaxValue-d.MinValue)/2}
	if containsInput([][]int64{big}, in) {
		in = []int64{d.MinValue}
	}
	return in
}

// wrongOutput is an output of the same type that is not v.
func wrongOutput(v dsl.Value) dsl.Value {
	switch v.Type {
	case dsl.TInt:
		if v.Int == 7 {
			return dsl.Value{Type: dsl.TInt, Int: 8}
		}
		return dsl.Value{Type: dsl.TInt, Int: 7}
	}
	if len(v.List) == 1 && v.List[0] == 7 {
		return dsl.Value{Type: dsl.TList, List: []int64{8}}
	}
	return dsl.Value{Type: dsl.TList, List: []int64{7}}
}
