package dsl

import (
	"math"
	"slices"
)

// fastMap applies the map functions that cannot overflow with a loop of
// their own, reporting whether fn was one of them.
func fastMap(fn string, xs []int64) bool {
	switch fn {
	case "abs":
		for i, x := range xs {
			m := x >> 63 // all ones for a negative x: branch-free |x|
			xs[i] = (x ^ m) - m
		}
	case "neg":
		for i, x := range xs {
			xs[i] = -x
		}
	default:
		return false
	}
	return true
}

// fusedMapReduce computes steps i and i+1 in one pass when step i maps a
// list with abs or neg (which cannot fail) and step i+1 reduces it with
// min or max over a non-empty list (which cannot fail either): the same
// value the two steps give one after the other, without writing the
// mapped list. ok is false when the pair does not qualify.
func fusedMapReduce(steps []Step, i int, v Value) (int64, bool) {
	if i+1 >= len(steps) || v.Type != TList || len(v.List) == 0 {
		return 0, false
	}
	m, r := &steps[i], &steps[i+1]
	if m.Op != "map" || (m.Fn != "abs" && m.Fn != "neg") || r.Op != "reduce" || (r.Fn != "min" && r.Fn != "max") {
		return 0, false
	}
	xs := v.List
	switch {
	case m.Fn == "neg" && r.Fn == "max":
		return -slices.Min(xs), true // safe values: -x never overflows
	case m.Fn == "neg":
		return -slices.Max(xs), true
	case r.Fn == "max":
		best := int64(0) // |x| >= 0, so 0 is below every candidate
		for _, x := range xs {
			s := x >> 63
			best = max(best, (x^s)-s)
		}
		return best, true
	}
	best := abs(xs[0])
	for _, x := range xs[1:] {
		s := x >> 63
		best = min(best, (x^s)-s)
	}
	return best, true
}

// mapFunc resolves a map function once per step, so the per-element loop
// does no string comparison.
func (d Dialect) mapFunc(fn string, arg *int64) func(int64) (int64, *Error) {
	switch fn {
	case "abs":
		return func(x int64) (int64, *Error) { return abs(x), nil }
	case "neg":
		return func(x int64) (int64, *Error) { return -x, nil }
	case "add":
		k := *arg
		return func(x int64) (int64, *Error) { return d.add(x, k) }
	case "mod":
		k := *arg
		return func(x int64) (int64, *Error) { return d.mod(x, k), nil }
	}
	return func(x int64) (int64, *Error) { return d.apply(fn, arg, x) }
}

// apply computes one map function on x.
func (d Dialect) apply(fn string, arg *int64, x int64) (int64, *Error) {
	switch fn {
	case "add":
		return d.add(x, *arg)
	case "sub":
		return d.add(x, -*arg)
	case "mul":
		return d.mul(x, *arg)
	case "sq":
		return d.mul(x, x)
	case "neg":
		return -x, nil
	case "abs":
		if x < 0 {
			return -x, nil
		}
		return x, nil
	case "min":
		return min(x, *arg), nil
	case "max":
		return max(x, *arg), nil
	case "div":
		return floorDiv(x, *arg), nil
	}
	return d.mod(x, *arg), nil
}

// mod is the non-negative remainder: the result lies in [0, m) for every
// x (FORGE-DSL-MOD-NONNEG), so mod 5 of -7 is 3, not -2.
func (d Dialect) mod(x, m int64) int64 {
	if d.NegMultipleModK && x < 0 {
		return m - (-x)%m
	}
	r := x % m
	if r < 0 && !d.TruncatedMod {
		r += m
	}
	return r
}

// floorDiv rounds towards negative infinity, the companion of mod:
// x == m*floorDiv(x, m) + mod(x, m).
func floorDiv(x, m int64) int64 {
	q := x / m
	if x%m != 0 && x < 0 {
		q--
	}
	return q
}

// add is a+b for safe integers a, b; a result outside the safe range is an
// error, never wrapped (FORGE-DSL-OVERFLOW-REJECTED).
func (d Dialect) add(a, b int64) (int64, *Error) {
	return d.safe(a + b) // |a|,|b| <= 2^53-1 cannot overflow int64
}

// mul is a*b with the same overflow rule; the check divides instead of
// multiplying so int64 itself never overflows.
func (d Dialect) mul(a, b int64) (int64, *Error) {
	if a != 0 && abs(b) > d.limit()/abs(a) {
		if d.UpperBoundOnly && (a < 0) != (b < 0) {
			return a * b, nil
		}
		if d.FinalRangeOnly {
			return a * b, nil
		}
		if d.WrapOverflow {
			return wrap(a * b), nil
		}
		return 0, errAt(CodeOverflow, 0, "%d * %d is outside the safe-integer range", a, b)
	}
	return a * b, nil
}

func (d Dialect) safe(v int64) (int64, *Error) {
	if lim := d.limit(); v > lim || (v < -lim && !d.UpperBoundOnly) {
		if d.FinalRangeOnly {
			return v, nil
		}
		if d.WrapOverflow {
			return wrap(v), nil
		}
		return 0, errAt(CodeOverflow, 0, "%d is outside the safe-integer range", v)
	}
	return v, nil
}

// limit is the largest value a run may hold: MaxSafe, unless a broken
// dialect misplaces the bound.
func (d Dialect) limit() int64 {
	switch {
	case d.SafeBelowMax:
		return MaxSafe - 1
	case d.Int64Overflow:
		return math.MaxInt64 / 2 // a+b of two such values stays inside int64
	}
	return MaxSafe
}

// misplacedBound reports a broken dialect whose safe range is not the
// reference's: its runs take the general steps, which check d.limit(), and
// none of the fast paths built on MaxSafe.
func (d Dialect) misplacedBound() bool { return d.SafeBelowMax || d.Int64Overflow }

// wrap folds v into the safe range, as a broken target would.
func wrap(v int64) int64 {
	const span = 2*MaxSafe + 1
	r := (v%span + span) % span
	return r - MaxSafe
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// deltasMapReduce runs a program that opens with deltas, a map of abs or
// neg and a reduce of min or max (seed level 10's widest jump) in one
// pass over the input, writing no list, as a hand-written loop would.
// ok is false, and the steps run one by one, wherever that pass could
// differ from them in value or error: a broken dialect, fewer than two
// values, an input value or a delta outside the safe range, or a budget
// the three steps overrun (the step-by-step run names the step).
func (d Dialect) deltasMapReduce(p Program, input []int64, budget int) (loaded, bool) {
	if len(p.Steps) < 3 || len(input) < 2 || d.misplacedBound() || d.misreadDeltas() || d.unchecked() {
		return loaded{}, false
	}
	s, m, r := &p.Steps[0], &p.Steps[1], &p.Steps[2]
	if s.Op != "deltas" || m.Op != "map" || (m.Fn != "abs" && m.Fn != "neg") || r.Op != "reduce" || (r.Fn != "min" && r.Fn != "max") {
		return loaded{}, false
	}
	n := len(input)
	spent := cost(s, n) + cost(m, n-1) + cost(r, n-1)
	if spent > budget {
		return loaded{}, false
	}
	lo, hi, out, ok := extremeDelta(input, m.Fn == "abs", r.Fn == "max")
	// Safe values within MaxSafe of each other make only safe deltas,
	// so nothing here overflowed and no step would have failed.
	if !ok || !inRange(lo, hi) || hi-lo > MaxSafe {
		return loaded{}, false
	}
	return loaded{v: Value{Type: TInt, Int: out}, next: 3, spent: spent}, true
}

// extremeDelta is the max (or min) over input's next-minus-current deltas
// of |delta| (abs) or -delta, with the input's own minimum and maximum;
// ok is false for fewer than two values.
func extremeDelta(input []int64, abs, wantMax bool) (lo, hi, out int64, ok bool) {
	if len(input) < 2 {
		return 0, 0, 0, false
	}
	lo, hi = input[0], input[0]
	prev := input[0]
	// The extreme of -delta is minus the opposite extreme of delta.
	best := delta(input[1], input[0], abs)
	if !abs {
		best = -best
	}
	for _, x := range input[1:] {
		lo, hi = min(lo, x), max(hi, x)
		v := delta(x, prev, abs)
		if !abs {
			v = -v
		}
		prev = x
		if wantMax {
			best = max(best, v)
		} else {
			best = min(best, v)
		}
	}
	return lo, hi, best, true
}

// delta is x - prev, or its absolute value.
func delta(x, prev int64, abs bool) int64 {
	d := x - prev
	if abs {
		sign := d >> 63
		d = (d ^ sign) - sign
	}
	return d
}
