package dsl_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/agentgames/conformance/reference/forge/dsl"
)

func prog(t testing.TB, steps string) dsl.Program {
	p, err := dsl.Decode([]byte(`{"steps":` + steps + `}`))
	require.NoError(t, err)
	return p
}

func code(err error) string {
	if e, ok := err.(*dsl.Error); ok {
		return e.Code
	}
	return ""
}

func list(t *rapid.T, label string, lo, hi int64, maxLen int) []int64 {
	return rapid.SliceOfN(rapid.Int64Range(lo, hi), 0, maxLen).Draw(t, label)
}

// TestModIsNonNegative: for every x and k > 0, 0 <= x mod k < k and
// x == k*(x div k) + x mod k (FORGE-DSL-MOD-NONNEG).
func TestModIsNonNegative(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.Int64Range(1, 1000).Draw(t, "k")
		xs := list(t, "xs", -1e9, 1e9, 16)
		mods, err := dsl.Eval(dsl.Program{Steps: []dsl.Step{{Op: "map", Fn: "mod", Arg: dsl.I(k)}}}, xs)
		require.NoError(t, err)
		divs, err := dsl.Eval(dsl.Program{Steps: []dsl.Step{{Op: "map", Fn: "div", Arg: dsl.I(k)}}}, xs)
		require.NoError(t, err)
		for i, x := range xs {
			r := mods.List[i]
			if r < 0 || r >= k || k*divs.List[i]+r != x {
				t.Fatalf("%d mod %d = %d, div %d", x, k, r, divs.List[i])
			}
		}
	})
}

// TestDeltasAreNextMinusCurrent (FORGE-DSL-DELTA-NEXT-MINUS-CURRENT).
func TestDeltasAreNextMinusCurrent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		xs := list(t, "xs", -1e6, 1e6, 16)
		v, err := dsl.Eval(dsl.Program{Steps: []dsl.Step{{Op: "deltas"}}}, xs)
		require.NoError(t, err)
		require.Len(t, v.List, max(len(xs)-1, 0))
		for i, d := range v.List {
			require.Equal(t, xs[i+1]-xs[i], d)
		}
	})
}

// TestChunkPartialPolicies: keep reduces the short chunk, drop discards
// it, error refuses a length that is not a multiple (FORGE-DSL-CHUNK-PARTIAL).
func TestChunkPartialPolicies(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		xs := list(t, "xs", -100, 100, 20)
		size := rapid.Int64Range(1, 5).Draw(t, "size")
		step := func(partial string) dsl.Program {
			return dsl.Program{Steps: []dsl.Step{{Op: "chunk_reduce", Size: dsl.I(size), Reduce: "len", Partial: partial}}}
		}
		n := int64(len(xs))
		keep, err := dsl.Eval(step(""), xs)
		require.NoError(t, err)
		require.Len(t, keep.List, int((n+size-1)/size), "keep is the default")
		drop, err := dsl.Eval(step("drop"), xs)
		require.NoError(t, err)
		require.Len(t, drop.List, int(n/size))
		_, err = dsl.Eval(step("error"), xs)
		require.Equal(t, n%size != 0, err != nil)
	})
}

// TestRLEIsTerminalAndRoundTrips (FORGE-DSL-RLE-TERMINAL).
func TestRLEIsTerminalAndRoundTrips(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		xs := list(t, "xs", 0, 3, 20)
		v, err := dsl.Eval(dsl.Program{Steps: []dsl.Step{{Op: "rle"}}}, xs)
		require.NoError(t, err)
		var back []int64
		for i, p := range v.Pairs {
			require.Positive(t, p[1])
			if i > 0 {
				require.NotEqual(t, v.Pairs[i-1][0], p[0], "runs are maximal")
			}
			for range p[1] {
				back = append(back, p[0])
			}
		}
		require.True(t, slices.Equal(xs, back))
		after := []string{"reverse", "sort", "deltas", "prefix_sum", "rle"}
		next := dsl.Step{Op: rapid.SampledFrom(after).Draw(t, "next")}
		_, err = dsl.Check(dsl.Program{Steps: []dsl.Step{{Op: "rle"}, next}})
		require.Equal(t, dsl.CodeType, code(err))
	})
}

// TestOverflowIsRejectedNeverWrapped: every value a run produces is a safe
// integer, or the run fails with OVERFLOW (FORGE-DSL-OVERFLOW-REJECTED).
func TestOverflowIsRejectedNeverWrapped(t *testing.T) {
	ops := []dsl.Step{{Op: "map", Fn: "sq"}, {Op: "map", Fn: "mul", Arg: dsl.I(1e9)}, {Op: "prefix_sum"},
		{Op: "reduce", Fn: "prod"}, {Op: "map", Fn: "add", Arg: dsl.I(1e9)}, {Op: "deltas"}}
	rapid.Check(t, func(t *rapid.T) {
		xs := list(t, "xs", -dsl.MaxSafe, dsl.MaxSafe, 8)
		steps := rapid.SliceOfN(rapid.SampledFrom(ops), 1, 4).Draw(t, "steps")
		v, err := dsl.Eval(dsl.Program{Steps: steps}, xs)
		if err != nil {
			require.Contains(t, []string{dsl.CodeOverflow, dsl.CodeType}, code(err))
			return
		}
		for _, x := range append(slices.Clone(v.List), v.Int) {
			require.True(t, x <= dsl.MaxSafe && x >= -dsl.MaxSafe, "%d escaped the safe range", x)
		}
	})
}

func TestWorkedExamplesOfDslMd(t *testing.T) {
	cases := []struct{ steps, input, want string }{
		{`[{"op":"map","fn":"mod","arg":5}]`, `[-7,7,10]`, `[3,2,0]`},
		{`[{"op":"deltas"}]`, `[1,4,9,16]`, `[3,5,7]`},
		{`[{"op":"chunk_reduce","size":2,"reduce":"sum"}]`, `[1,2,3,4,5]`, `[3,7,5]`},
		{`[{"op":"chunk_reduce","size":2,"reduce":"sum","partial":"drop"}]`, `[1,2,3,4,5]`, `[3,7]`},
		{`[{"op":"sort"},{"op":"rle"}]`, `[3,1,3,2]`, `[[1,1],[2,1],[3,2]]`},
		{`[{"op":"filter","pred":"odd"},{"op":"map","fn":"sq"}]`, `[1,2,3]`, `[1,9]`},
		{`[{"op":"deltas"},{"op":"map","fn":"abs"},{"op":"reduce","fn":"max"}]`, `[5,1,8]`, `7`},
	}
	for _, c := range cases {
		var in []int64
		require.NoError(t, json.Unmarshal([]byte(c.input), &in))
		v, err := dsl.Eval(prog(t, c.steps), in)
		require.NoError(t, err, c.steps)
		got, _ := json.Marshal(v)
		assert.JSONEq(t, c.want, string(got), c.steps)
	}
	_, err := dsl.Eval(prog(t, `[{"op":"map","fn":"mul","arg":1000000000}]`), []int64{10000000})
	assert.Equal(t, dsl.CodeOverflow, code(err))
	_, err = dsl.Check(prog(t, `[{"op":"rle"},{"op":"reverse"}]`))
	assert.Equal(t, dsl.CodeType, code(err))
}

func TestBudgetAndStrictDecoding(t *testing.T) {
	sorts := `[` + string(slices.Repeat([]byte(`{"op":"sort"},`), 11)) + `{"op":"sort"}]`
	_, err := dsl.Eval(prog(t, sorts), make([]int64, 64))
	assert.Equal(t, dsl.CodeBudget, code(err))
	for _, bad := range []string{`{"steps":[{"op":"map","fn":"add","arg":1,"x":1}]}`, `{"steps":[]} {}`, `[1]`} {
		p, err := dsl.Decode([]byte(bad))
		if err == nil {
			_, err = dsl.Check(p)
		}
		assert.Error(t, err, bad)
	}
	for _, bad := range []string{`[{"op":"map","fn":"mod","arg":0}]`, `[{"op":"map","fn":"add"}]`, `[{"op":"reduce","fn":"sum"},{"op":"reverse"}]`,
		`[{"op":"take"}]`, `[{"op":"sort","n":2}]`, `[{"op":"chunk_reduce","size":2,"reduce":"sum","partial":"pad"}]`, `[{"op":"nope"}]`} {
		_, err := dsl.Check(prog(t, bad))
		assert.Equal(t, dsl.CodeType, code(err), bad)
	}
}

// FuzzDecode: no byte string makes the decoder, checker or evaluator panic,
// and whatever runs stays in the safe range.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"steps":[{"op":"map","fn":"mod","arg":5}]}`, `{"steps":[{"op":"sort"},{"op":"rle"}]}`,
		`{"steps":[{"op":"chunk_reduce","size":2,"reduce":"prod","partial":"error"}]}`, `{"steps":[{"op":"take","n":-1}]}`, `{}`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		p, err := dsl.Decode(raw)
		if err != nil {
			return
		}
		v, err := dsl.Eval(p, []int64{-5, 3, 3, dsl.MaxSafe, -dsl.MaxSafe, 0, 7})
		if err != nil {
			return
		}
		for _, x := range append(slices.Clone(v.List), v.Int) {
			if x > dsl.MaxSafe || x < -dsl.MaxSafe {
				t.Fatalf("%d escaped the safe range", x)
			}
		}
	})
}

// anyStep draws any step, well-typed in some position or not.
func anyStep(t *rapid.T, label string) dsl.Step {
	ops := []string{"map", "filter", "reverse", "sort", "take", "drop", "deltas", "prefix_sum", "chunk_reduce", "reduce", "rle"}
	s := dsl.Step{Op: rapid.SampledFrom(ops).Draw(t, label+".op")}
	switch s.Op {
	case "map":
		s.Fn = rapid.SampledFrom([]string{"add", "sub", "mul", "div", "mod", "min", "max", "neg", "abs", "sq"}).Draw(t, label+".fn")
		if s.Fn != "neg" && s.Fn != "abs" && s.Fn != "sq" {
			s.Arg = dsl.I(rapid.Int64Range(-5, 5).Draw(t, label+".arg"))
		}
	case "filter":
		s.Pred = rapid.SampledFrom([]string{"even", "odd", "gt", "lt", "divisible"}).Draw(t, label+".pred")
		if s.Pred != "even" && s.Pred != "odd" {
			s.Arg = dsl.I(rapid.Int64Range(-3, 3).Draw(t, label+".arg"))
		}
	case "take", "drop":
		s.N = dsl.I(rapid.Int64Range(0, 4).Draw(t, label+".n"))
	case "chunk_reduce":
		s.Size = dsl.I(rapid.Int64Range(1, 3).Draw(t, label+".size"))
		s.Reduce = rapid.SampledFrom([]string{"sum", "prod", "min", "max", "len"}).Draw(t, label+".reduce")
		s.Partial = rapid.SampledFrom([]string{"", "keep", "drop", "error"}).Draw(t, label+".partial")
	case "reduce":
		s.Fn = rapid.SampledFrom([]string{"sum", "prod", "min", "max", "len"}).Draw(t, label+".fn")
	case "sort":
		s.Order = rapid.SampledFrom([]string{"", "asc", "desc"}).Draw(t, label+".order")
	}
	return s
}

// TestTypeCheckerIsSound: a program the checker accepts either fails a
// run with a run-time code or produces a value of the type it predicted;
// a program it refuses never runs.
func TestTypeCheckerIsSound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var p dsl.Program
		for i := range rapid.IntRange(1, 4).Draw(t, "n") {
			p.Steps = append(p.Steps, anyStep(t, "s"+string(rune('0'+i))))
		}
		xs := list(t, "xs", -50, 50, 12)
		typ, cerr := dsl.Check(p)
		v, err := dsl.Eval(p, xs)
		if cerr != nil {
			require.Equal(t, dsl.CodeType, code(err), "a refused program does not run")
			return
		}
		if err != nil {
			require.Contains(t, []string{dsl.CodeOverflow, dsl.CodeEmpty, dsl.CodePartial, dsl.CodeBudget}, code(err))
			return
		}
		require.Equal(t, typ, v.Type)
	})
}
