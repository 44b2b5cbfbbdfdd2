// Package benchpair measures the two sides of a speed ratio in one
// benchmark, interleaved A B A B, and reports the median of the per-round
// ratios. Timing A then B in separate benchmarks lets a change in machine
// load (another process, a thermal step, the garbage collector of the
// previous benchmark) land on one side only; interleaving puts both sides
// under the same conditions and the median drops the rounds a spike hit.
package benchpair

import (
	"math"
	"sort"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Side does n units of the work being compared. A side that needs setup
// does it before the benchmark starts; a side that fails calls b.Fatal.
type Side func(n int)

// Rounds is how many A B pairs a measurement is split into; odd, so the
// median is one round's ratio.
const Rounds = 9

// Result is one interleaved measurement: the median wall and CPU ratios of
// A over B and each side's total wall time per unit.
type Result struct {
	WallRatio, CPURatio float64
	ANsPerOp, BNsPerOp  float64
}

// Measure runs a and b alternately in Rounds rounds of about n/Rounds
// units each and returns the medians. CPU is the process's user+system
// time (the process CPU-time clock), so a server running in the same process is counted on the side
// that made it work.
func Measure(n int, a, b Side) Result {
	per := int(math.Ceil(float64(n) / Rounds))
	if per < 1 {
		per = 1
	}
	var wall, cpu []float64
	var aWall, bWall time.Duration
	for r := 0; r < Rounds; r++ {
		aw, ac := timed(a, per)
		bw, bc := timed(b, per)
		aWall += aw
		bWall += bw
		wall = append(wall, ratio(float64(aw), float64(bw)))
		cpu = append(cpu, ratio(float64(ac), float64(bc)))
	}
	units := float64(per * Rounds)
	return Result{WallRatio: median(wall), CPURatio: median(cpu),
		ANsPerOp: float64(aWall) / units, BNsPerOp: float64(bWall) / units}
}

// Report runs Measure over b.N units and reports the ratios as the metrics
// "<name>-wall" and "<name>-cpu" (A over B) and each side's ns per unit,
// so `go test -bench` prints the ratio itself.
func Report(b *testing.B, name string, a, bSide Side) Result {
	b.Helper()
	b.ResetTimer()
	res := Measure(b.N, a, bSide)
	b.StopTimer()
	b.ReportMetric(res.WallRatio, name+"-wall")
	b.ReportMetric(res.CPURatio, name+"-cpu")
	b.ReportMetric(res.ANsPerOp, "A-ns/op")
	b.ReportMetric(res.BNsPerOp, "B-ns/op")
	return res
}

// timed runs side for n units and returns its wall and CPU time.
func timed(side Side, n int) (time.Duration, time.Duration) {
	c0 := processCPU()
	t0 := time.Now()
	side(n)
	return time.Since(t0), processCPU() - c0
}

// processCPU is the CPU time the process has used so far, from the
// process CPU-time clock: nanosecond resolution, where getrusage counts in
// scheduler ticks (up to 4 ms) and would blur short rounds.
func processCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// ratio is a/b, or NaN when b measured nothing (a clock too coarse for a
// round), so one empty round cannot pose as an infinite ratio.
func ratio(a, b float64) float64 {
	if b <= 0 {
		return math.NaN()
	}
	return a / b
}

// median is the middle of the rounds that measured something; NaN rounds
// are dropped, and NaN comes back only when every round was empty.
func median(xs []float64) float64 {
	kept := xs[:0:0]
	for _, x := range xs {
		if !math.IsNaN(x) {
			kept = append(kept, x)
		}
	}
	if len(kept) == 0 {
		return math.NaN()
	}
	sort.Float64s(kept)
	mid := len(kept) / 2
	if len(kept)%2 == 1 {
		return kept[mid]
	}
	return (kept[mid-1] + kept[mid]) / 2
}
