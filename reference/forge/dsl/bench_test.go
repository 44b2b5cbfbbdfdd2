package dsl_test

import (
	"testing"

	"github.com/agentgames/conformance/conformance/benchpair"

	"github.com/agentgames/conformance/reference/forge/dsl"
)

// widestJump is seed level 10's pipeline written by hand in Go.
func widestJump(xs []int64) int64 {
	best := int64(0)
	for i := 1; i < len(xs); i++ {
		d := xs[i] - xs[i-1]
		if d < 0 {
			d = -d
		}
		if i == 1 || d > best {
			best = d
		}
	}
	return best
}

var sink int64

// BenchmarkEvalVersusHandWritten measures the DSL evaluator and the
// hand-written Go function on the same pipeline and input, interleaved A B
// A B by benchpair, and reports "dsl/hand" (goal: at most 3x).
func BenchmarkEvalVersusHandWritten(b *testing.B) {
	p := dsl.Program{Steps: []dsl.Step{{Op: "deltas"}, {Op: "map", Fn: "abs"}, {Op: "reduce", Fn: "max"}}}
	in := make([]int64, 64)
	for i := range in {
		in[i] = int64((i*37)%101 - 50)
	}
	if _, err := dsl.Check(p); err != nil {
		b.Fatal(err)
	}
	want := widestJump(in)
	eval := func(n int) {
		for range n {
			v, err := dsl.Dialect{}.Run(p, in, dsl.DefaultBudget)
			if err != nil || v.Int != want {
				b.Fatalf("dsl gave %v, %v; want %d", v.Int, err, want)
			}
			sink += v.Int
		}
	}
	hand := func(n int) {
		for range n {
			sink += widestJump(in)
		}
	}
	benchpair.Report(b, "dsl/hand", eval, hand)
}
