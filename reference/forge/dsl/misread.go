package dsl

// The broken dialects' own readings: deltas as a distance or keeping the
// head, sums and products unchecked, a range checked on the result alone,
// apart from the reference's steps (forge rounds 4 and 5, docs/detection.md).

// unchecked reports a broken dialect that lets an intermediate value
// leave the safe range: its runs take none of the fast paths, which check
// every value.
func (d Dialect) unchecked() bool {
	return d.WrapOverflow || d.FinalRangeOnly || d.UncheckedFolds || d.UpperBoundOnly
}

// rle is the reference rle, except in the RLELosesLastRun dialect, which
// never writes the run the list ends on.
func (d Dialect) rle(xs []int64) [][2]int64 {
	out := rle(xs)
	if d.RLELosesLastRun && len(out) > 0 {
		out = out[:len(out)-1]
	}
	return out
}

// misreadDeltas reports a broken dialect whose deltas are not the
// reference's: its runs take none of the deltas fast paths.
func (d Dialect) misreadDeltas() bool {
	return d.CurrentMinusNext || d.AbsDeltas || d.HeadDeltas || d.ShortDeltasFail
}

// misreadDeltaList is deltas as the AbsDeltas or HeadDeltas dialect reads
// it: a distance |next - current|, or the list's head kept in front.
func (d Dialect) misreadDeltaList(xs []int64) ([]int64, *Error) {
	var out []int64
	if d.HeadDeltas && len(xs) > 0 {
		out = append(out, xs[0])
	}
	for i := 1; i < len(xs); i++ {
		n, err := d.add(xs[i], -xs[i-1])
		if err != nil {
			return nil, err
		}
		if d.AbsDeltas {
			n = abs(n)
		}
		out = append(out, n)
	}
	return out, nil
}

// fold is one step of a sum (or, when product, a product): checked as
// add and mul are, except in the UncheckedFolds dialect, which adds and
// multiplies in plain int64.
func (d Dialect) fold(product bool, acc, x int64) (int64, *Error) {
	switch {
	case d.UncheckedFolds && product:
		return acc * x, nil
	case d.UncheckedFolds:
		return acc + x, nil
	case product:
		return d.mul(acc, x)
	}
	return d.add(acc, x)
}

// finalOutside is the overflow error of a result holding an unsafe value,
// nil when every value is safe (the FinalRangeOnly dialect's one check).
func finalOutside(v Value) error {
	xs := append([]int64{v.Int}, v.List...)
	for _, p := range v.Pairs {
		xs = append(xs, p[0], p[1])
	}
	if err := outsideSafe(xs); err != nil {
		return err
	}
	return nil
}
