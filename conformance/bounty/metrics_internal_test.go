package bounty

import "testing"

// TestMetricsCountsAreExactHereAndLowerBoundsElsewhere: on a target on
// this machine a count must be what the run did; on a shared deployment
// other players may add to a count, never take from it, and the repeated
// game of the kit's own win stays exact.
func TestMetricsCountsAreExactHereAndLowerBoundsElsewhere(t *testing.T) {
	solves := figure{name: "accepted solves", want: []int{3, 2}}
	repeat := figure{name: "winners who had won before", want: []int{3}, own: true}
	cases := []struct {
		f      figure
		got    float64
		shared bool
		fits   bool
		why    string
	}{
		{solves, 3, false, true, "one of the readings, here"},
		{solves, 2, false, true, "the other reading, here"},
		{solves, 4, false, false, "more than the run did, on a target nobody else plays"},
		{solves, 4, true, true, "others may have solved too, elsewhere"},
		{solves, 1, true, false, "fewer than the run did is wrong anywhere"},
		{repeat, 4, true, false, "the kit's own win counts only its winners"},
		{repeat, 3, true, true, "exact, elsewhere too"},
	}
	for _, c := range cases {
		if got := c.f.fits([]float64{c.got}, c.shared); got != c.fits {
			t.Errorf("%s: %v (shared %v) fits = %v, want %v", c.why, c.got, c.shared, got, c.fits)
		}
	}
}
