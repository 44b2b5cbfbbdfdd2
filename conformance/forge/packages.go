package forge

import (
	"math/rand/v2"

	"github.com/agentgames/conformance/reference/forge/authoring"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

// pkg is an authoring package as the runner builds it: plain JSON values,
// so a package can be edited and sent as it is.
type pkg = map[string]any

// buildPackage writes a package for oracle whose examples are computed
// under dialect d (the zero value: the kit's DSL), with a fresh id and
// fresh content so that it never collides with a published level.
func buildPackage(oracle dsl.Program, dom authoring.Domain, exampleInputs [][]int64, d dsl.Dialect, rng *rand.Rand) pkg {
	tag := randomHex(6)
	var examples []any
	for _, in := range exampleInputs {
		out, err := d.Run(oracle, in, 1<<30)
		if err != nil {
			out = dsl.Value{Type: dsl.TInt}
		}
		examples = append(examples, map[string]any{"input": in, "output": out})
	}
	var hidden [][]int64
	for len(hidden) < 3 {
		in := randomInput(dom, rng)
		if !containsInput(hidden, in) && !containsInput(exampleInputs, in) {
			hidden = append(hidden, in)
		}
	}
	return pkg{
		"id": "kit-" + tag,
		"public": map[string]any{"title": "Kit check " + tag, "rules": "A level written by the conformance kit (" + tag + ").",
			"inputDomain": dom, "examples": examples},
		"private": map[string]any{"oracle": oracle, "hiddenInputs": hidden},
	}
}

func randomInput(d authoring.Domain, rng *rand.Rand) []int64 {
	in := make([]int64, d.MinLength+rng.IntN(d.MaxLength-d.MinLength+1))
	for i := range in {
		in[i] = d.MinValue + rng.Int64N(d.MaxValue-d.MinValue+1)
	}
	return in
}

func containsInput(list [][]int64, in []int64) bool {
	for _, l := range list {
		if len(l) == len(in) {
			same := true
			for i := range l {
				same = same && l[i] == in[i]
			}
			if same {
				return true
			}
		}
	}
	return false
}

func steps(s ...dsl.Step) dsl.Program { return dsl.Program{Steps: s} }

var small = authoring.Domain{MinLength: 1, MaxLength: 6, MinValue: -20, MaxValue: 20}

// acceptable is a package every kit-DSL deployment accepts: a shift by k
// then a sort, which the reference solver can also infer.
func acceptable(rng *rand.Rand) pkg {
	k := []int64{1, 2, 3, 5, 10}[rng.IntN(5)]
	p := buildPackage(steps(dsl.Step{Op: "map", Fn: "add", Arg: dsl.I(k)}, dsl.Step{Op: "sort"}),
		authoring.Domain{MinLength: 1, MaxLength: 6, MinValue: -50, MaxValue: 50}, [][]int64{{3, -1, 2}, {7}}, dsl.Dialect{}, rng)
	p["difficulty"] = 3
	p["private"].(map[string]any)["hiddenInputs"] = distinctiveInputs(rng)
	p["private"].(map[string]any)["validation"] = map[string]any{"notes": "Kit validation notes " + randomHex(8) + ": a shift, then a sort."}
	return p
}

// distinctiveInputs are hidden inputs of 5 or 6 values, never sorted, so
// that the search for them by value finds no sorted oracle output nor a
// short list a deployment shows for its own reasons
// (FORGE-PRIVATE-SERVER-ONLY).
func distinctiveInputs(rng *rand.Rand) [][]int64 {
	var out [][]int64
	for len(out) < 3 {
		in := make([]int64, 5+rng.IntN(2))
		for i := range in {
			in[i] = -50 + rng.Int64N(101)
		}
		if in[0] > in[len(in)-1] && !containsInput(out, in) {
			out = append(out, in)
		}
	}
	return out
}

// reading is a package a kit-DSL deployment rejects, the rule a
// deployment accepting it breaks, and the kit's code for the rejection.
type reading struct {
	body       pkg
	rule, code string
}

// wrongReadings are every package of kind the runner sends: wrongReading's
// and, for a semantic rule, one more per further misreading an
// implementer plausibly writes. One misreading per rule let the others
// pass (docs/detection.md, forge rounds 4 and 5): mod's k at a negative
// multiple, rle's [count, value], a declared partial policy ignored, a
// range checked on the result alone, deltas as a distance or keeping the
// head, and, for the bounds, hidden inputs outside the domain (a value, a
// length).
func wrongReadings(kind string, rng *rand.Rand) []reading {
	body, rule, code := wrongReading(kind, rng)
	out := []reading{{body, rule, code}}
	switch kind {
	case "delta":
		// [5, 2] gives [-3]: |next - current| gives [3]; [1, 4, 9] gives
		// [3, 5]: a delta keeping the head gives [1, 3, 5].
		for _, d := range []dsl.Dialect{{AbsDeltas: true}, {HeadDeltas: true}} {
			out = append(out, reading{buildPackage(steps(dsl.Step{Op: "deltas"}), small, [][]int64{{1, 4, 9}, {5, 2}}, d, rng),
				"FORGE-DSL-DELTA-NEXT-MINUS-CURRENT", authoring.CodeExample})
		}
	case "bounds":
		// Examples inside the domain, a hidden input outside it: a value
		// past maxValue, then one value too many.
		for _, hidden := range [][]int64{{1, 2, 99}, {1, 2, 3, 4, 5, 6, 7}} {
			p := buildPackage(steps(dsl.Step{Op: "reverse"}), small, [][]int64{{1, 2}, {3}}, dsl.Dialect{}, rng)
			priv := p["private"].(map[string]any)
			priv["hiddenInputs"] = append(priv["hiddenInputs"].([][]int64)[:2], hidden)
			out = append(out, reading{p, "FORGE-VALID-BOUNDS", authoring.CodeBounds})
		}
	case "mod":
		// -10 mod 5 is 0: k - (-x mod k) gives 5.
		out = append(out, reading{buildPackage(steps(dsl.Step{Op: "map", Fn: "mod", Arg: dsl.I(5)}), small, [][]int64{{-10, 3}, {-5, -15}},
			dsl.Dialect{NegMultipleModK: true}, rng), "FORGE-DSL-MOD-NONNEG", authoring.CodeExample})
	case "rle":
		// [4,4,1] is [[4,2],[1,1]], not [[2,4],[1,1]], nor [[4,2]] (the
		// run the list ends on never written).
		for _, d := range []dsl.Dialect{{CountFirstRLE: true}, {RLELosesLastRun: true}} {
			out = append(out, reading{buildPackage(steps(dsl.Step{Op: "rle"}), small, [][]int64{{4, 4, 1}, {3, 3, 1, 1}},
				d, rng), "FORGE-DSL-RLE-TERMINAL", authoring.CodeExample})
		}
	case "chunk":
		// A declared drop drops the short chunk; a declared error fails
		// the run: examples keeping it contradict both.
		for _, partial := range []string{"drop", "error"} {
			oracle := steps(dsl.Step{Op: "chunk_reduce", Size: dsl.I(2), Reduce: "sum", Partial: partial})
			code := authoring.CodeExample
			if partial == "error" {
				code = authoring.CodeRun
			}
			out = append(out, reading{buildPackage(oracle, small, [][]int64{{1, 2, 3}, {4, 5, 6, 7, 8}},
				dsl.Dialect{IgnoreDeclaredChunk: true}, rng), "FORGE-DSL-CHUNK-PARTIAL", code})
		}
		// A declared drop keeps a full last chunk: [1,2,3,4] is [3,7],
		// not [3] (the last chunk dropped whether partial or not).
		oracle := steps(dsl.Step{Op: "chunk_reduce", Size: dsl.I(2), Reduce: "sum", Partial: "drop"})
		out = append(out, reading{buildPackage(oracle, small, [][]int64{{1, 2, 3, 4}, {1, 2, 3, 4, 5, 6}},
			dsl.Dialect{DropFullLastChunk: true}, rng), "FORGE-DSL-CHUNK-PARTIAL", authoring.CodeExample})
	case "overflow":
		// x * 10^9 / 10^9 is x again, past the range in between.
		out = append(out, reading{buildPackage(steps(dsl.Step{Op: "map", Fn: "mul", Arg: dsl.I(1_000_000_000)}, dsl.Step{Op: "map", Fn: "div", Arg: dsl.I(1_000_000_000)}),
			authoring.Domain{MinLength: 1, MaxLength: 4, MinValue: 10_000_000, MaxValue: 100_000_000}, [][]int64{{10_000_000}, {20_000_000, 30_000_000}},
			dsl.Dialect{FinalRangeOnly: true}, rng), "FORGE-DSL-OVERFLOW-REJECTED", authoring.CodeRun})
	}
	return out
}

// deltaEdge is a deltas package whose domain and hidden inputs hold lists
// of one value, which give [] (dsl.md §4), with one contradicting example:
// a kit-DSL deployment refuses it as it refuses controlPackage, for the
// example; one failing deltas on a short list refuses it for the run
// (FORGE-DSL-DELTA-NEXT-MINUS-CURRENT; edgeJudged). No example is of one
// value: an empty output matches both the list and the pairs of the
// schema's oneOf.
func deltaEdge() pkg {
	p := exactPackage(steps(dsl.Step{Op: "deltas"}), domain(-5, 5, 3), [][]int64{{1, 4}, {2, 5, 1}}, []int64{2})
	ex := p["public"].(map[string]any)["examples"].([]any)[1].(map[string]any)
	ex["output"] = wrongOutput(ex["output"].(dsl.Value))
	return p
}

// wrongReading builds the package a broken deployment would accept: its
// examples follow a misreading of one semantic rule, so a kit-DSL
// deployment must reject it, appending nothing.
func wrongReading(kind string, rng *rand.Rand) (pkg, string, string) {
	switch kind {
	case "mod":
		return buildPackage(steps(dsl.Step{Op: "map", Fn: "mod", Arg: dsl.I(5)}), small, [][]int64{{-7, 3}, {-1}},
			dsl.Dialect{TruncatedMod: true}, rng), "FORGE-DSL-MOD-NONNEG", authoring.CodeExample
	case "delta":
		return buildPackage(steps(dsl.Step{Op: "deltas"}), small, [][]int64{{1, 4, 9}, {5, 2}},
			dsl.Dialect{CurrentMinusNext: true}, rng), "FORGE-DSL-DELTA-NEXT-MINUS-CURRENT", authoring.CodeExample
	case "chunk":
		oracle := steps(dsl.Step{Op: "chunk_reduce", Size: dsl.I(2), Reduce: "sum"})
		p := buildPackage(oracle, small, [][]int64{{1, 2, 3}, {4, 5, 6, 7, 8}}, dsl.Dialect{}, rng)
		dropped := steps(dsl.Step{Op: "chunk_reduce", Size: dsl.I(2), Reduce: "sum", Partial: "drop"})
		for _, e := range p["public"].(map[string]any)["examples"].([]any) {
			ex := e.(map[string]any)
			ex["output"], _ = dsl.Eval(dropped, ex["input"].([]int64))
		}
		return p, "FORGE-DSL-CHUNK-PARTIAL", authoring.CodeExample
	case "rle":
		return buildPackage(steps(dsl.Step{Op: "rle"}, dsl.Step{Op: "take", N: dsl.I(2)}), small, [][]int64{{1, 1, 2}, {3}},
			dsl.Dialect{AllowNonTerminalRLE: true}, rng), "FORGE-DSL-RLE-TERMINAL", authoring.CodeTypes
	case "overflow":
		return buildPackage(steps(dsl.Step{Op: "map", Fn: "mul", Arg: dsl.I(1_000_000_000)}),
			authoring.Domain{MinLength: 1, MaxLength: 4, MinValue: 10_000_000, MaxValue: 100_000_000}, [][]int64{{10_000_000}, {20_000_000, 30_000_000}},
			dsl.Dialect{WrapOverflow: true}, rng), "FORGE-DSL-OVERFLOW-REJECTED", authoring.CodeRun
	case "budget":
		var s []dsl.Step
		for range 12 {
			s = append(s, dsl.Step{Op: "sort"})
		}
		return buildPackage(steps(s...), authoring.Domain{MinLength: 64, MaxLength: 64, MinValue: 0, MaxValue: 9},
			[][]int64{make([]int64, 64)}, dsl.Dialect{}, rng), "FORGE-VALID-BUDGET", authoring.CodeBudget
	case "types":
		p := buildPackage(steps(dsl.Step{Op: "reverse"}), small, [][]int64{{1, 2}}, dsl.Dialect{}, rng)
		p["private"].(map[string]any)["oracle"] = steps(dsl.Step{Op: "map", Fn: "mod", Arg: dsl.I(0)})
		return p, "FORGE-VALID-TYPES", authoring.CodeTypes
	case "runs":
		// min of the positive elements: fine on the examples, fails on a
		// generated input with none.
		return buildPackage(steps(dsl.Step{Op: "filter", Pred: "gt", Arg: dsl.I(0)}, dsl.Step{Op: "reduce", Fn: "min"}), small,
			[][]int64{{3, -1, 2}, {5}}, dsl.Dialect{}, rng), "FORGE-VALID-200X3", authoring.CodeRun
	case "bounds":
		p := buildPackage(steps(dsl.Step{Op: "reverse"}), small, [][]int64{{1, 2}, {99}}, dsl.Dialect{}, rng)
		return p, "FORGE-VALID-BOUNDS", authoring.CodeBounds
	}
	p := acceptable(rng)
	delete(p, "private")
	return p, "FORGE-VALID-SCHEMA", authoring.CodeSchema
}
