package benchpair

import (
	"math"
	"testing"
)

// sink keeps the compiler from dropping work's loop.
var sink uint64

// work does k fixed CPU steps per unit, so a side of 3k steps is three
// times one of k in both wall and CPU time, however loaded the machine.
func work(k int) Side {
	return func(n int) {
		x := sink
		for i := 0; i < n*k; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
		sink = x
	}
}

func TestMeasureFindsTheRatioOfTwoKnownSides(t *testing.T) {
	res := Measure(Rounds*100, work(300_000), work(100_000)) // rounds of about 30 and 10 ms
	if res.WallRatio < 2 || res.WallRatio > 4.5 {
		t.Fatalf("wall ratio %.2f, want about 3 (a median of interleaved rounds)", res.WallRatio)
	}
	if res.CPURatio < 1.5 || res.CPURatio > 6 {
		t.Fatalf("cpu ratio %.2f, want about 3", res.CPURatio)
	}
	if res.ANsPerOp <= res.BNsPerOp {
		t.Fatalf("A %.0f ns/op should exceed B %.0f ns/op", res.ANsPerOp, res.BNsPerOp)
	}
}

func TestMeasureInterleavesTheSides(t *testing.T) {
	var order []byte
	a := func(n int) { order = append(order, 'A') }
	b := func(n int) { order = append(order, 'B') }
	Measure(3, a, b)
	want := ""
	for i := 0; i < Rounds; i++ {
		want += "AB"
	}
	if string(order) != want {
		t.Fatalf("order %q, want %q", order, want)
	}
}

func TestMedianDropsEmptyRounds(t *testing.T) {
	if got := median([]float64{math.NaN(), 3, 1, 2}); got != 2 {
		t.Fatalf("median %v, want 2", got)
	}
	if got := median([]float64{math.NaN()}); !math.IsNaN(got) {
		t.Fatalf("median of nothing %v, want NaN", got)
	}
	if got := median([]float64{4, 1}); got != 2.5 {
		t.Fatalf("median %v, want 2.5", got)
	}
}
