package dsl

import (
	"errors"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// naive evaluates the ops the evaluator's fused paths cover (deltas, map
// abs/neg, reduce min/max) one step at a time, straight from dsl.md: the
// specification the fast paths must agree with, errors and budget
// included.
func naive(steps []Step, input []int64, budget int) (Value, string, int) {
	for _, x := range input {
		if x > MaxSafe || x < -MaxSafe {
			return Value{}, CodeOverflow, 0
		}
	}
	xs := slices.Clone(input)
	v := Value{Type: TList}
	spent := 0
	for i, s := range steps {
		if spent += len(xs) + 1; spent > budget {
			return Value{}, CodeBudget, i + 1
		}
		switch {
		case s.Op == "deltas":
			var out []int64
			for j := 1; j < len(xs); j++ {
				n := xs[j] - xs[j-1]
				if n > MaxSafe || n < -MaxSafe {
					return Value{}, CodeOverflow, i + 1
				}
				out = append(out, n)
			}
			xs = out
		case s.Op == "map" && v.Type == TInt:
			v.Int = naiveMap(s.Fn, v.Int)
		case s.Op == "map":
			for j := range xs {
				xs[j] = naiveMap(s.Fn, xs[j])
			}
		case len(xs) == 0:
			return Value{}, CodeEmpty, i + 1
		case s.Fn == "min":
			v, xs = Value{Type: TInt, Int: slices.Min(xs)}, nil
		default:
			v, xs = Value{Type: TInt, Int: slices.Max(xs)}, nil
		}
	}
	if v.Type == TList {
		v.List = xs
	}
	return v, "", 0
}

// TestFusedPathsAgreeWithTheStepByStepSemantics draws pipelines of the
// fused ops over inputs reaching the edges of the safe range and compares
// the evaluator with naive: value, error code and step.
func TestFusedPathsAgreeWithTheStepByStepSemantics(t *testing.T) {
	edge := rapid.SampledFrom([]int64{0, 1, -1, MaxSafe, -MaxSafe, MaxSafe + 1, -MaxSafe - 1, 1 << 53, -(1 << 53), 1 << 62, -(1 << 62)})
	value := rapid.OneOf(rapid.Int64Range(-100, 100), edge, rapid.Int64())
	rapid.Check(t, func(t *rapid.T) {
		input := rapid.SliceOfN(value, 0, 12).Draw(t, "input")
		var steps []Step
		if rapid.Bool().Draw(t, "deltas first") {
			steps = append(steps, Step{Op: "deltas"})
		}
		if rapid.Bool().Draw(t, "then deltas") {
			steps = append(steps, Step{Op: "deltas"})
		}
		fn := rapid.SampledFrom([]string{"abs", "neg"})
		for range rapid.IntRange(0, 2).Draw(t, "maps") {
			steps = append(steps, Step{Op: "map", Fn: fn.Draw(t, "fn")})
		}
		if rapid.Bool().Draw(t, "reduce") {
			steps = append(steps, Step{Op: "reduce", Fn: rapid.SampledFrom([]string{"min", "max"}).Draw(t, "reducer")})
			if rapid.Bool().Draw(t, "map after") {
				steps = append(steps, Step{Op: "map", Fn: fn.Draw(t, "fn after")})
			}
		}
		if len(steps) == 0 {
			steps = append(steps, Step{Op: "deltas"})
		}
		budget := rapid.IntRange(0, 60).Draw(t, "budget")
		got, err := Dialect{}.Run(Program{Steps: steps}, input, budget)
		want, code, step := naive(steps, input, budget)
		var e *Error
		switch {
		case code == "" && err != nil:
			t.Fatalf("%v on %v: error %v, want %+v", steps, input, err, want)
		case code != "" && (!errors.As(err, &e) || e.Code != code || e.Step != step):
			t.Fatalf("%v on %v: %v, want %s at step %d", steps, input, err, code, step)
		case code == "" && (got.Type != want.Type || got.Int != want.Int || !slices.Equal(got.List, want.List)):
			t.Fatalf("%v on %v: %+v, want %+v", steps, input, got, want)
		}
	})
}

// naiveMap is abs or neg of x.
func naiveMap(fn string, x int64) int64 {
	if fn == "neg" || x < 0 {
		return -x
	}
	return x
}
