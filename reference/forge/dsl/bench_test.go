package dsl_test

import (
	"testing"
	"time"

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
// hand-written Go function on the same pipeline and input in the same
// run, and reports the ratio (the aim is at most 10x).
func BenchmarkEvalVersusHandWritten(b *testing.B) {
	p := dsl.Program{Steps: []dsl.Step{{Op: "deltas"}, {Op: "map", Fn: "abs"}, {Op: "reduce", Fn: "max"}}}
	in := make([]int64, 64)
	for i := range in {
		in[i] = int64((i*37)%101 - 50)
	}
	if _, err := dsl.Check(p); err != nil {
		b.Fatal(err)
	}
	var evalTime, handTime time.Duration
	const batch = 32 // amortises the clock reads over many calls
	for b.Loop() {
		start := time.Now()
		for range batch {
			v, _ := dsl.Dialect{}.Run(p, in, dsl.DefaultBudget)
			sink += v.Int
		}
		mid := time.Now()
		for range batch {
			sink += widestJump(in)
		}
		evalTime += mid.Sub(start)
		handTime += time.Since(mid)
	}
	n := float64(b.N * batch)
	b.ReportMetric(float64(evalTime.Nanoseconds())/n, "ns/dsl-eval")
	b.ReportMetric(float64(handTime.Nanoseconds())/n, "ns/hand-written")
	b.ReportMetric(float64(evalTime)/float64(max(handTime, 1)), "dsl/hand-ratio")
}
