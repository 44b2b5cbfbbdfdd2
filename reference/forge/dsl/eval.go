package dsl

import (
	"encoding/json"
	"math/bits"
	"slices"
	"sync"
)

// DefaultBudget is the execution budget of one run of an oracle, in cost
// units (dsl.md, "Execution budget"): each step costs the length of its
// input plus one, sort costs n*bitlen(n)+1.
const DefaultBudget = 2000

// Dialect lists deviations from the kit's semantics. The zero value is the
// reference DSL; the others exist only so tests can build broken targets
// that the runner must catch.
type Dialect struct {
	TruncatedMod        bool // mod takes the dividend's sign (breaks FORGE-DSL-MOD-NONNEG)
	CurrentMinusNext    bool // deltas are current minus next (breaks FORGE-DSL-DELTA-NEXT-MINUS-CURRENT)
	AllowNonTerminalRLE bool // steps may follow rle on its flattened pairs (breaks FORGE-DSL-RLE-TERMINAL)
	WrapOverflow        bool // out-of-range values wrap round (breaks FORGE-DSL-OVERFLOW-REJECTED)
	DropPartialChunks   bool // chunk_reduce drops a partial chunk by default (breaks FORGE-DSL-CHUNK-PARTIAL)
	SafeBelowMax        bool // the safe range stops one short of 2^53-1 (breaks FORGE-DSL-OVERFLOW-REJECTED at the boundary)
	Int64Overflow       bool // only int64 overflow fails a run, so 2^53 passes (breaks FORGE-DSL-OVERFLOW-REJECTED past the boundary)
	NegMultipleModK     bool // a negative dividend's mod is k - (-x mod k), so -10 mod 5 is 5 (breaks FORGE-DSL-MOD-NONNEG)
	CountFirstRLE       bool // rle writes [count, value] pairs (breaks FORGE-DSL-RLE-TERMINAL)
	IgnoreDeclaredChunk bool // chunk_reduce keeps a partial chunk whatever the step declares (breaks FORGE-DSL-CHUNK-PARTIAL)
	FinalRangeOnly      bool // only the run's result is range-checked, intermediate values are not (breaks FORGE-DSL-OVERFLOW-REJECTED)
	AbsDeltas           bool // deltas are |next - current|, a distance (breaks FORGE-DSL-DELTA-NEXT-MINUS-CURRENT)
	HeadDeltas          bool // deltas keep the first element: [x0, x1-x0, ...] (breaks FORGE-DSL-DELTA-NEXT-MINUS-CURRENT)
	UncheckedFolds      bool // sums and products (reduce, prefix_sum, chunk_reduce) are not range-checked, map's arithmetic is (breaks FORGE-DSL-OVERFLOW-REJECTED)
	DropFullLastChunk   bool // a declared drop discards the last chunk even when it is full (breaks FORGE-DSL-CHUNK-PARTIAL)
	RLELosesLastRun     bool // rle never flushes the run the list ends on (breaks FORGE-DSL-RLE-TERMINAL)
	UpperBoundOnly      bool // only values above 2^53-1 fail a run; those below -(2^53-1) pass (breaks FORGE-DSL-OVERFLOW-REJECTED)
	ShortDeltasFail     bool // deltas of fewer than 2 elements fail the run instead of giving [] (breaks FORGE-DSL-DELTA-NEXT-MINUS-CURRENT)
}

// Value is what a program produces: an int, a list, or rle's pairs.
type Value struct {
	Type  Type
	Int   int64
	List  []int64
	Pairs [][2]int64
}

// MarshalJSON writes the value as the DSL's JSON: a number, an array of
// numbers, or an array of [value, count] arrays (FORGE-DSL-RLE-TERMINAL).
func (v Value) MarshalJSON() ([]byte, error) {
	switch v.Type {
	case TInt:
		return json.Marshal(v.Int)
	case TPairs:
		if v.Pairs == nil {
			return []byte("[]"), nil
		}
		return json.Marshal(v.Pairs)
	}
	if v.List == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(v.List)
}

// Eval runs p on input under the reference semantics and default budget.
func Eval(p Program, input []int64) (Value, error) {
	return Dialect{}.Eval(p, input, DefaultBudget)
}

// Eval type-checks p, then runs it on input within budget cost units.
func (d Dialect) Eval(p Program, input []int64, budget int) (Value, error) {
	if _, err := d.Check(p); err != nil {
		return Value{}, err
	}
	return d.Run(p, input, budget)
}

// Run evaluates an already checked program.
func (d Dialect) Run(p Program, input []int64, budget int) (Value, error) {
	if l, ok := d.deltasMapReduce(p, input, budget); ok {
		v, err := d.run(p, l, budget)
		if err != nil {
			return v, err
		}
		return v, nil
	}
	// One copy of the input, then every list step works in place on it:
	// the caller's slice is never changed and a run allocates at most once
	// (a run ending in an int hands its buffer back to the pool, through
	// the same pool entry, so recycling allocates nothing either).
	slot := buffers.Get().(*[]int64)
	l, err := d.load(slot, p, input, budget)
	v := Value{Type: TInt}
	if err == nil {
		v, err = d.run(p, l, budget)
	}
	if v.Type == TList {
		*slot = nil // the result (or a part of it) is the buffer now
	}
	buffers.Put(slot)
	if err != nil {
		return v, err
	}
	if d.FinalRangeOnly {
		return v, finalOutside(v)
	}
	return v, nil
}

// loaded is the state of a run after its input is copied in: the working
// list, the next step to run and the budget spent so far.
type loaded struct {
	v     Value
	next  int
	spent int
}

// load copies the input into the run's buffer, checking every value is
// safe (an unsafe input is refused before any step, with step 0). When the
// first step is the reference deltas it is computed in the same pass,
// reading the input and writing the buffer, with the same budget check and
// the same errors in the same order as running it on its own.
func (d Dialect) load(slot *[]int64, p Program, input []int64, budget int) (loaded, *Error) {
	if d.misplacedBound() {
		buf, _ := copyIn(slot, input) // its MaxSafe test is not this dialect's
		if err := d.outsideLimit(input); err != nil {
			return loaded{}, err
		}
		return loaded{v: list(buf)}, nil
	}
	if len(p.Steps) == 0 || p.Steps[0].Op != "deltas" || d.misreadDeltas() || d.unchecked() {
		buf, ok := copyIn(slot, input)
		if !ok {
			return loaded{}, outsideSafe(input)
		}
		return loaded{v: list(buf)}, nil
	}
	buf, inputOK, deltasOK := deltasIn(slot, input)
	switch spent := cost(&p.Steps[0], len(input)); {
	case !inputOK:
		return loaded{}, outsideSafe(input)
	case spent > budget:
		return loaded{}, errAt(CodeBudget, 1, "the run needs more than %d cost units", budget)
	case !deltasOK:
		err := firstUnsafeDelta(input)
		err.Step = 1
		return loaded{}, err
	default:
		return loaded{v: list(buf), next: 1, spent: spent}, nil
	}
}

func list(xs []int64) Value { return Value{Type: TList, List: xs} }

// run is Run's pipeline from l.next on, over the run's own working list.
func (d Dialect) run(p Program, l loaded, budget int) (Value, *Error) {
	v, spent := l.v, l.spent
	for i := l.next; i < len(p.Steps); i++ {
		s := &p.Steps[i]
		if v.Type == TPairs {
			v = Value{Type: TList, List: flatten(v.Pairs)}
		}
		spent += cost(s, len(v.List))
		if spent > budget {
			return Value{Type: TInt}, errAt(CodeBudget, i+1, "the run needs more than %d cost units", budget)
		}
		if fused, ok := fusedMapReduce(p.Steps, i, v); ok {
			// map then reduce in one pass: the reduce's cost is spent
			// and checked as if it ran on its own.
			if spent += cost(&p.Steps[i+1], len(v.List)); spent > budget {
				return Value{Type: TInt}, errAt(CodeBudget, i+2, "the run needs more than %d cost units", budget)
			}
			v = Value{Type: TInt, Int: fused}
			i++
			continue
		}
		if err := d.step(s, &v); err != nil {
			err.Step = i + 1
			return Value{Type: TInt}, err
		}
	}
	return v, nil
}

// buffers recycles the working lists of runs that end in an int; an entry
// is a pointer to a slice so Get and Put move no new header to the heap.
var buffers = sync.Pool{New: func() any { return new([]int64) }}

// inRange reports whether every value between lo and hi is safe.
func inRange(lo, hi int64) bool { return lo >= -MaxSafe && hi <= MaxSafe }

// deltasIn writes the next-minus-current deltas of input into the slot's
// buffer and reports whether every input value, and every delta, is safe.
// The loop keeps only the input's minimum and maximum (no branch): safe
// inputs whose spread is at most MaxSafe cannot have an unsafe delta, and
// only a wider spread pays a second, exact look.
func deltasIn(slot *[]int64, input []int64) ([]int64, bool, bool) {
	buf := grow(slot, len(input))[:max(len(input)-1, 0)]
	if len(input) == 0 {
		return buf, true, true
	}
	lo, hi, prev := input[0], input[0], input[0]
	for i, x := range input[1:] {
		lo, hi = min(lo, x), max(hi, x)
		buf[i], prev = x-prev, x
	}
	if !inRange(lo, hi) {
		return buf, false, false
	}
	return buf, true, hi-lo <= MaxSafe || firstUnsafeDelta(input) == nil
}

// grow makes the slot's buffer hold at least n values.
func grow(slot *[]int64, n int) []int64 {
	if cap(*slot) < n || cap(*slot) > 1024 {
		*slot = make([]int64, max(n, 64))
	}
	return *slot
}

// copyIn copies input into the slot's buffer (growing it when short) and
// reports false when a value lies outside the safe-integer range.
func copyIn(slot *[]int64, input []int64) ([]int64, bool) {
	buf := grow(slot, len(input))[:len(input)]
	if len(input) == 0 {
		return buf, true
	}
	lo, hi := input[0], input[0]
	for i, x := range input {
		buf[i] = x
		lo, hi = min(lo, x), max(hi, x)
	}
	return buf, inRange(lo, hi)
}

// outsideSafe is the error for the first input value out of range.
func outsideSafe(input []int64) *Error { return Dialect{}.outsideLimit(input) }

// outsideLimit is the error for the first input value beyond the
// dialect's limit (MaxSafe unless a broken dialect misplaces it).
func (d Dialect) outsideLimit(input []int64) *Error {
	lim := d.limit()
	for _, x := range input {
		if x > lim || x < -lim {
			return errAt(CodeOverflow, 0, "input value %d is outside the safe-integer range", x)
		}
	}
	return nil
}

// cost is the budget a step spends on v.
func cost(s *Step, n int) int {
	if s.Op == "sort" {
		return n*bits.Len(uint(n)) + 1
	}
	return n + 1
}

// step applies s to v in place: list steps rewrite v's list (the run owns
// it), an int or pairs result changes v's type.
func (d Dialect) step(s *Step, v *Value) *Error {
	var err *Error
	switch s.Op {
	case "map":
		if v.Type == TInt {
			v.Int, err = d.apply(s.Fn, s.Arg, v.Int)
			return err
		}
		return d.mapList(s, v.List)
	case "filter":
		v.List = filterList(s, v.List)
	case "reverse":
		slices.Reverse(v.List)
	case "sort":
		slices.Sort(v.List)
		if s.Order == "desc" {
			slices.Reverse(v.List)
		}
	case "take":
		v.List = v.List[:min(int(*s.N), len(v.List))]
	case "drop":
		v.List = v.List[min(int(*s.N), len(v.List)):]
	case "deltas":
		v.List, err = d.deltas(v.List)
	case "prefix_sum":
		err = d.prefixSum(v.List)
	case "chunk_reduce":
		v.List, err = d.chunkReduce(s, v.List)
	case "reduce":
		v.Int, err = d.reduce(s.Fn, v.List)
		v.Type, v.List = TInt, nil
	case "rle":
		v.Type, v.Pairs, v.List = TPairs, d.rle(v.List), nil
		if d.CountFirstRLE {
			for i, p := range v.Pairs {
				v.Pairs[i] = [2]int64{p[1], p[0]}
			}
		}
	default:
		return errAt(CodeType, 0, "unknown op %q", s.Op)
	}
	return err
}

func flatten(ps [][2]int64) []int64 {
	out := make([]int64, 0, 2*len(ps))
	for _, p := range ps {
		out = append(out, p[0], p[1])
	}
	return out
}

// mapList applies a map step to every element of xs, in place.
func (d Dialect) mapList(s *Step, xs []int64) *Error {
	if fastMap(s.Fn, xs) {
		return nil
	}
	f := d.mapFunc(s.Fn, s.Arg)
	for i, x := range xs {
		n, err := f(x)
		if err != nil {
			return err
		}
		xs[i] = n
	}
	return nil
}

func filterList(s *Step, xs []int64) []int64 {
	out := xs[:0] // in place: the write index never passes the read index
	for _, x := range xs {
		if keep(s.Pred, s.Arg, x) {
			out = append(out, x)
		}
	}
	return out
}

func keep(pred string, arg *int64, x int64) bool {
	switch pred {
	case "even":
		return x%2 == 0
	case "odd":
		return x%2 != 0
	case "divisible":
		return x%*arg == 0
	case "gt":
		return x > *arg
	case "ge":
		return x >= *arg
	case "lt":
		return x < *arg
	case "le":
		return x <= *arg
	case "eq":
		return x == *arg
	}
	return x != *arg // ne
}

// deltas returns next minus current for each adjacent pair
// (FORGE-DSL-DELTA-NEXT-MINUS-CURRENT); a list shorter than 2 gives [].
func (d Dialect) deltas(xs []int64) ([]int64, *Error) {
	out := xs[:0] // in place: out[i-1] is written after xs[i-1] is read
	if d.ShortDeltasFail && len(xs) < 2 {
		return nil, errAt(CodeInput, 0, "deltas needs at least 2 values, got %d", len(xs))
	}
	if d.AbsDeltas || d.HeadDeltas {
		return d.misreadDeltaList(xs)
	}
	if !d.CurrentMinusNext && !d.unchecked() && !d.misplacedBound() {
		if len(xs) < 2 {
			return out, nil
		}
		prev := xs[0]
		for i, x := range xs[1:] {
			n := x - prev
			if uint64(n+MaxSafe) > 2*uint64(MaxSafe) {
				return nil, firstUnsafeDelta(xs[i:])
			}
			xs[i], prev = n, x
		}
		return xs[:len(xs)-1], nil
	}
	for i := 1; i < len(xs); i++ {
		a, b := xs[i], -xs[i-1]
		if d.CurrentMinusNext {
			a, b = xs[i-1], -xs[i]
		}
		n, err := d.add(a, b)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// firstUnsafeDelta is the overflow error of the first adjacent pair whose
// difference leaves the safe range.
func firstUnsafeDelta(xs []int64) *Error {
	for i := 1; i < len(xs); i++ {
		if n := xs[i] - xs[i-1]; n > MaxSafe || n < -MaxSafe {
			return errAt(CodeOverflow, 0, "%d - %d is outside the safe-integer range", xs[i], xs[i-1])
		}
	}
	return nil
}

func (d Dialect) prefixSum(xs []int64) *Error {
	out := xs // in place
	var acc int64
	for i, x := range xs {
		n, err := d.fold(false, acc, x)
		if err != nil {
			return err
		}
		acc, out[i] = n, n
	}
	return nil
}

// chunkReduce cuts xs into chunks of size and reduces each; a short last
// chunk follows the step's partial policy, keep by default
// (FORGE-DSL-CHUNK-PARTIAL, FORGE-REF-CHUNK-DEFAULT).
func (d Dialect) chunkReduce(s *Step, xs []int64) ([]int64, *Error) {
	size := int(*s.Size)
	out := xs[:0] // in place: chunk i is written at i, read from i*size on
	for start := 0; start < len(xs); start += size {
		end := start + size
		if d.DropFullLastChunk && s.Partial == "drop" && end >= len(xs) {
			return out, nil
		}
		if end > len(xs) {
			partial := s.Partial
			if d.IgnoreDeclaredChunk {
				partial = ""
			}
			if partial == "" && d.DropPartialChunks {
				partial = "drop"
			}
			switch partial {
			case "drop":
				return out, nil
			case "error":
				return nil, errAt(CodePartial, 0, "length %d is not a multiple of chunk size %d", len(xs), size)
			}
			end = len(xs)
		}
		n, err := d.reduce(s.Reduce, xs[start:end])
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

func (d Dialect) reduce(fn string, xs []int64) (int64, *Error) {
	switch fn {
	case "len":
		return int64(len(xs)), nil
	case "min", "max":
		if len(xs) == 0 {
			return 0, errAt(CodeEmpty, 0, "%s of an empty list", fn)
		}
		if fn == "min" {
			return slices.Min(xs), nil
		}
		return slices.Max(xs), nil
	}
	acc := int64(0)
	if fn == "prod" {
		acc = 1
	}
	for _, x := range xs {
		n, err := d.fold(fn == "prod", acc, x)
		if err != nil {
			return 0, err
		}
		acc = n
	}
	return acc, nil
}

// rle returns the run-length encoding as [value, count] pairs
// (FORGE-DSL-RLE-TERMINAL).
func rle(xs []int64) [][2]int64 {
	var out [][2]int64
	for _, x := range xs {
		if n := len(out); n > 0 && out[n-1][0] == x {
			out[n-1][1]++
			continue
		}
		out = append(out, [2]int64{x, 1})
	}
	return out
}
