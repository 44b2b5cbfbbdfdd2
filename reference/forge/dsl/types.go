package dsl

// Type is the static type of a pipeline value.
type Type int

// The DSL's types: an integer, a list of integers, and the list of
// [value, count] pairs only rle produces.
const (
	TInt Type = iota
	TList
	TPairs
)

func (t Type) String() string {
	switch t {
	case TInt:
		return "int"
	case TList:
		return "list"
	}
	return "pairs"
}

var mapFns = map[string]bool{"add": true, "sub": true, "mul": true, "div": true, "mod": true,
	"min": true, "max": true, "neg": false, "abs": false, "sq": false}
var filterPreds = map[string]bool{"even": false, "odd": false, "gt": true, "ge": true, "lt": true,
	"le": true, "eq": true, "ne": true, "divisible": true}
var reducers = map[string]bool{"sum": true, "prod": true, "min": true, "max": true, "len": true}

// Check type-checks p against an input list and returns its output type.
// Dialect deviations (used only to build broken targets in tests) relax it.
func Check(p Program) (Type, error) { return Dialect{}.Check(p) }

// Check is the type checker under dialect d.
func (d Dialect) Check(p Program) (Type, error) {
	if len(p.Steps) == 0 || len(p.Steps) > MaxSteps {
		return 0, errAt(CodeType, 0, "a program has 1 to %d steps, not %d", MaxSteps, len(p.Steps))
	}
	t := TList
	for i, s := range p.Steps {
		if t == TPairs && !d.AllowNonTerminalRLE {
			// FORGE-DSL-RLE-TERMINAL: nothing may follow rle.
			return 0, errAt(CodeType, i+1, "rle must be the last step; %q follows it", s.Op)
		}
		if t == TPairs {
			t = TList // the broken dialect flattens pairs and goes on
		}
		next, err := checkStep(s, t)
		if err != nil {
			err.Step = i + 1
			return 0, err
		}
		t = next
	}
	return t, nil
}

// checkStep returns the type step s produces from a value of type in.
func checkStep(s Step, in Type) (Type, *Error) {
	if err := onlyFields(s); err != nil {
		return 0, err
	}
	if s.Op != "map" && in != TList {
		return 0, errAt(CodeType, 0, "%s needs a list, got %s", s.Op, in)
	}
	switch s.Op {
	case "map":
		return in, checkMap(s)
	case "filter":
		return TList, checkFilter(s)
	case "reverse", "deltas", "prefix_sum":
		return TList, nil
	case "sort":
		if s.Order != "" && s.Order != "asc" && s.Order != "desc" {
			return 0, errAt(CodeType, 0, "sort order is asc or desc, not %q", s.Order)
		}
		return TList, nil
	case "take", "drop":
		if s.N == nil || *s.N < 0 {
			return 0, errAt(CodeType, 0, "%s needs n >= 0", s.Op)
		}
		return TList, nil
	case "chunk_reduce":
		return TList, checkChunk(s)
	case "reduce":
		if !reducers[s.Fn] {
			return 0, errAt(CodeType, 0, "reduce fn %q is not one of sum, prod, min, max, len", s.Fn)
		}
		return TInt, nil
	case "rle":
		return TPairs, nil
	}
	return 0, errAt(CodeType, 0, "unknown op %q", s.Op)
}

func checkMap(s Step) *Error {
	needsArg, ok := mapFns[s.Fn]
	switch {
	case !ok:
		return errAt(CodeType, 0, "map fn %q is unknown", s.Fn)
	case needsArg != (s.Arg != nil):
		return errAt(CodeType, 0, "map %s takes %s", s.Fn, argWord(needsArg))
	case (s.Fn == "div" || s.Fn == "mod") && *s.Arg <= 0:
		// FORGE-DSL-MOD-NONNEG: the divisor is positive, so the result lies in [0, arg).
		return errAt(CodeType, 0, "map %s needs a positive arg, not %d", s.Fn, *s.Arg)
	case s.Arg != nil && (*s.Arg > MaxSafe || *s.Arg < -MaxSafe):
		return errAt(CodeType, 0, "arg %d is outside the safe-integer range", *s.Arg)
	}
	return nil
}

func checkFilter(s Step) *Error {
	needsArg, ok := filterPreds[s.Pred]
	switch {
	case !ok:
		return errAt(CodeType, 0, "filter pred %q is unknown", s.Pred)
	case needsArg != (s.Arg != nil):
		return errAt(CodeType, 0, "filter %s takes %s", s.Pred, argWord(needsArg))
	case s.Pred == "divisible" && *s.Arg <= 0:
		return errAt(CodeType, 0, "filter divisible needs a positive arg")
	}
	return nil
}

func checkChunk(s Step) *Error {
	switch {
	case s.Size == nil || *s.Size < 1:
		return errAt(CodeType, 0, "chunk_reduce needs size >= 1")
	case !reducers[s.Reduce]:
		return errAt(CodeType, 0, "chunk_reduce reduce %q is not one of sum, prod, min, max, len", s.Reduce)
	case s.Partial != "" && s.Partial != "keep" && s.Partial != "drop" && s.Partial != "error":
		// FORGE-DSL-CHUNK-PARTIAL: the package declares keep, drop or error.
		return errAt(CodeType, 0, "chunk_reduce partial is keep, drop or error, not %q", s.Partial)
	}
	return nil
}

func argWord(needs bool) string {
	if needs {
		return "an arg"
	}
	return "no arg"
}

// onlyFields refuses fields the op does not use, so a typo never silently
// changes a program's meaning.
func onlyFields(s Step) *Error {
	allowed := map[string]string{"map": "fn arg", "filter": "pred arg", "sort": "order", "take": "n", "drop": "n",
		"chunk_reduce": "size reduce partial", "reduce": "fn"}[s.Op]
	has := func(name string) bool { return containsWord(allowed, name) }
	for name, set := range map[string]bool{"fn": s.Fn != "", "pred": s.Pred != "", "arg": s.Arg != nil, "n": s.N != nil,
		"size": s.Size != nil, "reduce": s.Reduce != "", "partial": s.Partial != "", "order": s.Order != ""} {
		if set && !has(name) {
			return errAt(CodeType, 0, "%s takes no %s", s.Op, name)
		}
	}
	return nil
}

func containsWord(list, w string) bool {
	start := 0
	for i := 0; i <= len(list); i++ {
		if i == len(list) || list[i] == ' ' {
			if list[start:i] == w {
				return true
			}
			start = i + 1
		}
	}
	return false
}
