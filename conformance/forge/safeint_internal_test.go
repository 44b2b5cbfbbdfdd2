package forge

import (
	"encoding/json"
	"testing"

	"github.com/agentgames/conformance/reference/forge/authoring"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

// verdictOf validates p under d and returns the rejection code, "" for an
// accepted package.
func verdictOf(t *testing.T, d dsl.Dialect, p pkg) string {
	t.Helper()
	raw, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	n, err := authoring.Normalize(raw)
	if err != nil {
		t.Fatalf("normalize: %v", err)
	}
	if _, err := (authoring.Validator{Dialect: d}).Validate(n); err != nil {
		r, ok := err.(*authoring.Rejection)
		if !ok {
			t.Fatalf("not a rejection: %v", err)
		}
		return r.Code
	}
	return ""
}

// TestSafeCasesSitOnTheBoundary: every boundary package reaches the value
// its case names and the reference refuses it for its example alone, as it
// refuses the control; every past package is refused for the overflow;
// the broken dialects each misjudge one side.
func TestSafeCasesSitOnTheBoundary(t *testing.T) {
	if got := verdictOf(t, dsl.Dialect{}, controlPackage()); got != authoring.CodeExample {
		t.Fatalf("control: %q", got)
	}
	reach := map[string]int64{"a dividend of -(2^53-1)": 745259009, // -(2^53-1) mod 10^9"2^53-1": dsl.MaxSafe, "-(2^53-1)": -dsl.MaxSafe, "2^53-2 (a sum of two equal values is even)": dsl.MaxSafe - 1,
		"94906265^2, the largest safe square": safeRoot * safeRoot}
	for _, c := range safeCases() {
		out, err := dsl.Eval(c.okProgram, c.at)
		if err != nil {
			t.Fatalf("%s: %v", c.step, err)
		}
		if want, ok := reach[c.reach]; ok && extreme(out) != want {
			t.Errorf("%s reaches %d, not %s", c.step, extreme(out), c.reach)
		}
		if got := verdictOf(t, dsl.Dialect{}, c.boundaryPackage()); got != authoring.CodeExample {
			t.Errorf("%s at the boundary: %q, want %s", c.step, got, authoring.CodeExample)
		}
		if got := verdictOf(t, dsl.Dialect{SafeBelowMax: true}, c.boundaryPackage()); got == authoring.CodeExample && reach[c.reach] == dsl.MaxSafe {
			t.Errorf("%s: a range one short of 2^53-1 still judges the boundary package by its example", c.step)
		}
		if c.overProgram.Steps == nil {
			continue
		}
		if got := verdictOf(t, dsl.Dialect{}, c.pastPackage()); got != authoring.CodeRun {
			t.Errorf("%s past the boundary: %q, want %s", c.step, got, authoring.CodeRun)
		}
		if got := verdictOf(t, dsl.Dialect{Int64Overflow: true}, c.pastPackage()); got != "" {
			t.Errorf("%s past the boundary under int64 arithmetic: %q, want accepted", c.step, got)
		}
	}
}

// extreme is the value of largest magnitude in v.
func extreme(v dsl.Value) int64 {
	vals := v.List
	if v.Type == dsl.TInt {
		vals = []int64{v.Int}
	}
	var best int64
	for _, x := range vals {
		if abs64(x) > abs64(best) {
			best = x
		}
	}
	return best
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
