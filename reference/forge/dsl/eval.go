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
	// One copy of the input, then every list step works in place on it:
	// the caller's slice is never changed and a run allocates at most once
	// (a run ending in an int hands its buffer back to the pool).
	buf := getBuffer(len(input))
	for i, x := range input {
		if x > MaxSafe || x < -MaxSafe {
			putBuffer(buf)
			return Value{}, errAt(CodeOverflow, 0, "input value %d is outside the safe-integer range", x)
		}
		buf[i] = x
	}
	v := Value{Type: TList, List: buf}
	defer func() {
		if v.Type != TList {
			putBuffer(buf)
		}
	}()
	spent := 0
	for i, s := range p.Steps {
		if v.Type == TPairs {
			v = Value{Type: TList, List: flatten(v.Pairs)}
		}
		spent += cost(s, v)
		if spent > budget {
			v = Value{Type: TInt}
			return v, errAt(CodeBudget, i+1, "the run needs more than %d cost units", budget)
		}
		next, err := d.step(s, v)
		if err != nil {
			err.Step = i + 1
			v = Value{Type: TInt}
			return v, err
		}
		v = next
	}
	return v, nil
}

// buffers recycles the working lists of runs that end in an int.
var buffers = sync.Pool{New: func() any { return new([]int64) }}

func getBuffer(n int) []int64 {
	p := buffers.Get().(*[]int64)
	if cap(*p) < n {
		return make([]int64, n)
	}
	return (*p)[:n]
}

func putBuffer(b []int64) {
	if cap(b) > 0 && cap(b) <= 1024 {
		buffers.Put(&b)
	}
}

// cost is the budget a step spends on v.
func cost(s Step, v Value) int {
	n := len(v.List)
	if s.Op == "sort" {
		return n*bits.Len(uint(n)) + 1
	}
	return n + 1
}

func (d Dialect) step(s Step, v Value) (Value, *Error) {
	switch s.Op {
	case "map":
		return d.mapStep(s, v)
	case "filter":
		return list(filterList(s, v.List)), nil
	case "reverse":
		slices.Reverse(v.List)
		return v, nil
	case "sort":
		slices.Sort(v.List)
		if s.Order == "desc" {
			slices.Reverse(v.List)
		}
		return v, nil
	case "take":
		return list(v.List[:min(int(*s.N), len(v.List))]), nil
	case "drop":
		return list(v.List[min(int(*s.N), len(v.List)):]), nil
	case "deltas":
		return d.deltas(v.List)
	case "prefix_sum":
		return d.prefixSum(v.List)
	case "chunk_reduce":
		return d.chunkReduce(s, v.List)
	case "reduce":
		n, err := d.reduce(s.Fn, v.List)
		return Value{Type: TInt, Int: n}, err
	case "rle":
		return Value{Type: TPairs, Pairs: rle(v.List)}, nil
	}
	return Value{}, errAt(CodeType, 0, "unknown op %q", s.Op)
}

func list(xs []int64) Value { return Value{Type: TList, List: xs} }

func flatten(ps [][2]int64) []int64 {
	out := make([]int64, 0, 2*len(ps))
	for _, p := range ps {
		out = append(out, p[0], p[1])
	}
	return out
}

func (d Dialect) mapStep(s Step, v Value) (Value, *Error) {
	if v.Type == TInt {
		n, err := d.apply(s.Fn, s.Arg, v.Int)
		return Value{Type: TInt, Int: n}, err
	}
	out := v.List // in place: the run owns its list
	if fastMap(s.Fn, out) {
		return v, nil
	}
	f := d.mapFunc(s.Fn, s.Arg)
	for i, x := range v.List {
		n, err := f(x)
		if err != nil {
			return Value{}, err
		}
		out[i] = n
	}
	return list(out), nil
}

func filterList(s Step, xs []int64) []int64 {
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
func (d Dialect) deltas(xs []int64) (Value, *Error) {
	out := xs[:0] // in place: out[i-1] is written after xs[i-1] is read
	if !d.CurrentMinusNext && !d.WrapOverflow {
		for i := 1; i < len(xs); i++ {
			n := xs[i] - xs[i-1]
			if lim := d.limit(); n > lim || n < -lim {
				return Value{}, errAt(CodeOverflow, 0, "%d - %d is outside the safe-integer range", xs[i], xs[i-1])
			}
			out = append(out, n)
		}
		return list(out), nil
	}
	for i := 1; i < len(xs); i++ {
		a, b := xs[i], -xs[i-1]
		if d.CurrentMinusNext {
			a, b = xs[i-1], -xs[i]
		}
		n, err := d.add(a, b)
		if err != nil {
			return Value{}, err
		}
		out = append(out, n)
	}
	return list(out), nil
}

func (d Dialect) prefixSum(xs []int64) (Value, *Error) {
	out := xs // in place
	var acc int64
	for i, x := range xs {
		n, err := d.add(acc, x)
		if err != nil {
			return Value{}, err
		}
		acc, out[i] = n, n
	}
	return list(out), nil
}

// chunkReduce cuts xs into chunks of size and reduces each; a short last
// chunk follows the step's partial policy, keep by default
// (FORGE-DSL-CHUNK-PARTIAL, FORGE-REF-CHUNK-DEFAULT).
func (d Dialect) chunkReduce(s Step, xs []int64) (Value, *Error) {
	size := int(*s.Size)
	out := xs[:0] // in place: chunk i is written at i, read from i*size on
	for start := 0; start < len(xs); start += size {
		end := start + size
		if end > len(xs) {
			partial := s.Partial
			if partial == "" && d.DropPartialChunks {
				partial = "drop"
			}
			switch partial {
			case "drop":
				return list(out), nil
			case "error":
				return Value{}, errAt(CodePartial, 0, "length %d is not a multiple of chunk size %d", len(xs), size)
			}
			end = len(xs)
		}
		n, err := d.reduce(s.Reduce, xs[start:end])
		if err != nil {
			return Value{}, err
		}
		out = append(out, n)
	}
	return list(out), nil
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
	acc, op := int64(0), d.add
	if fn == "prod" {
		acc, op = 1, d.mul
	}
	for _, x := range xs {
		n, err := op(acc, x)
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
