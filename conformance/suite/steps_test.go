package suite

import (
	"context"
	"errors"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
)

// runTable runs the feature src through godog with the steps register
// puts on the kit's step table, and returns each scenario's error by name.
func runTable(t *testing.T, src string, register func(sc *ScenarioContext)) map[string]error {
	t.Helper()
	var mu sync.Mutex
	out := map[string]error{}
	godog.TestSuite{
		ScenarioInitializer: func(gsc *godog.ScenarioContext) {
			sc := NewScenarioContext(gsc)
			sc.After(func(ctx context.Context, s *godog.Scenario, err error) (context.Context, error) {
				mu.Lock()
				defer mu.Unlock()
				out[s.Name] = err
				return ctx, nil
			})
			register(sc)
		},
		Options: &godog.Options{Format: "progress", Output: io.Discard, NoColors: true, Strict: true, Concurrency: 1,
			FS: fstest.MapFS{"t.feature": {Data: []byte(src)}}, Paths: []string{"t.feature"}},
	}.Run()
	return out
}

// TestStepTableRunsTheOneMatchingStep: each step runs the one handler
// whose pattern matches it, in the order of the scenario, with the
// pattern's captures.
func TestStepTableRunsTheOneMatchingStep(t *testing.T) {
	var got []string
	res := runTable(t, `Feature: f
  Scenario: s
    Given a thing
    When the agent says "hello"
    Then b follows
`, func(sc *ScenarioContext) {
		sc.Step(Pattern(`^the agent says "([^"]*)"$`), func(s string) error { got = append(got, "says "+s); return nil })
		sc.Step(Pattern(`^a thing$`), func() error { got = append(got, "a"); return nil })
		sc.Step(Pattern(`^b follows$`), func(context.Context) error { got = append(got, "b"); return nil })
	})
	if err := res["s"]; err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "a,says hello,b" {
		t.Fatalf("steps ran as %q, want a, says hello, b", got)
	}
}

// TestStepTableUndefinedStepIsAKitError: a step no pattern matches fails
// the scenario with godog's ErrUndefined, which the runner classifies as a
// defect of the kit (error), not a failure of the target.
func TestStepTableUndefinedStepIsAKitError(t *testing.T) {
	ran := false
	res := runTable(t, "Feature: f\n  Scenario: s\n    Given nothing matches this\n    Then b\n",
		func(sc *ScenarioContext) {
			sc.Step(Pattern(`^b$`), func() error { ran = true; return nil })
		})
	err := res["s"]
	if !errors.Is(err, godog.ErrUndefined) || !strings.Contains(err.Error(), "nothing matches this") {
		t.Fatalf("scenario error %v, want godog.ErrUndefined naming the step", err)
	}
	err = (&protocolRun{}).normalizeError(err, []string{"R-1"})
	if st := verdict.Classify(err, func(string) verdict.Level { return verdict.Must }); st != verdict.Error {
		t.Fatalf("an undefined step is classified %s, want %s", st, verdict.Error)
	}
	if ran {
		t.Fatal("the step after the undefined one ran")
	}
}

// TestStepTableTwoMatchesAreAmbiguous: a step two patterns match fails
// with godog's ErrAmbiguous naming both, and neither handler runs (godog's
// Strict mode).
func TestStepTableTwoMatchesAreAmbiguous(t *testing.T) {
	ran := 0
	res := runTable(t, "Feature: f\n  Scenario: s\n    Given a cat\n", func(sc *ScenarioContext) {
		sc.Step(Pattern(`^a (\w+)$`), func(string) error { ran++; return nil })
		sc.Step(Pattern(`^a cat$`), func() error { ran++; return nil })
	})
	err := res["s"]
	if !errors.Is(err, godog.ErrAmbiguous) || !strings.Contains(err.Error(), `^a (\w+)$`) || !strings.Contains(err.Error(), `^a cat$`) {
		t.Fatalf("scenario error %v, want godog.ErrAmbiguous naming both patterns", err)
	}
	if ran != 0 {
		t.Fatalf("%d handlers ran for an ambiguous step", ran)
	}
}

// TestStepTableConvertsArguments: captures reach int, int64, float64,
// string and []byte parameters, and a step's DocString and DataTable reach
// *godog.DocString, *godog.Table and string parameters, as godog converts
// them.
func TestStepTableConvertsArguments(t *testing.T) {
	var got []any
	res := runTable(t, `Feature: f
  Scenario: s
    Given numbers 7, -9000000000 and 2.5
    And the words "x y" and "z"
    And the document:
      """
      body text
      """
    And the document as a string:
      """
      as string
      """
    And the table:
      | a | b |
      | 1 | 2 |
`, func(sc *ScenarioContext) {
		sc.Step(Pattern(`^numbers (-?\d+), (-?\d+) and ([\d.]+)$`), func(ctx context.Context, n int, m int64, f float64) error {
			got = append(got, n, m, f)
			return nil
		})
		sc.Step(Pattern(`^the words "([^"]*)" and "([^"]*)"$`), func(a string, b []byte) error {
			got = append(got, a, string(b))
			return nil
		})
		sc.Step(Pattern(`^the document:$`), func(d *godog.DocString) error { got = append(got, d.Content); return nil })
		sc.Step(Pattern(`^the document as a string:$`), func(s string) error { got = append(got, s); return nil })
		sc.Step(Pattern(`^the table:$`), func(ctx context.Context, tb *godog.Table) error {
			got = append(got, len(tb.Rows), tb.Rows[1].Cells[1].Value)
			return nil
		})
	})
	if err := res["s"]; err != nil {
		t.Fatal(err)
	}
	want := []any{7, int64(-9000000000), 2.5, "x y", "z", "body text", "as string", 2, "2"}
	if len(got) != len(want) {
		t.Fatalf("got %#v, want %#v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("argument %d is %#v, want %#v (all: %#v)", i, got[i], want[i], got)
		}
	}
}

// TestStepTableBadArgumentFailsTheStep: a capture that does not convert,
// or fewer arguments than the handler takes, fails the step with an error.
func TestStepTableBadArgumentFailsTheStep(t *testing.T) {
	res := runTable(t, "Feature: f\n  Scenario: big\n    Given n is 99999999999999999999\n  Scenario: few\n    Given two of x\n",
		func(sc *ScenarioContext) {
			sc.Step(Pattern(`^n is (\d+)$`), func(int) error { return nil })
			sc.Step(Pattern(`^two of (\w+)$`), func(a, b string) error { return nil })
		})
	if err := res["big"]; err == nil || !strings.Contains(err.Error(), "cannot convert argument") {
		t.Errorf("an int out of range gave %v, want a conversion error", err)
	}
	if err := res["few"]; err == nil || !strings.Contains(err.Error(), "expected 2 arguments") {
		t.Errorf("a handler taking more than the step gives gave %v, want an argument count error", err)
	}
}

type ctxKey struct{}

// TestStepTableContextReachesTheNextStep: the context a step returns, alone
// or with an error, is the one the next step gets.
func TestStepTableContextReachesTheNextStep(t *testing.T) {
	var seen []any
	res := runTable(t, "Feature: f\n  Scenario: s\n    Given one\n    And two\n    Then look\n", func(sc *ScenarioContext) {
		sc.Step(Pattern(`^one$`), func(ctx context.Context) context.Context { return context.WithValue(ctx, ctxKey{}, 1) })
		sc.Step(Pattern(`^two$`), func(ctx context.Context) (context.Context, error) {
			seen = append(seen, ctx.Value(ctxKey{}))
			return context.WithValue(ctx, ctxKey{}, 2), nil
		})
		sc.Step(Pattern(`^look$`), func(ctx context.Context) error { seen = append(seen, ctx.Value(ctxKey{})); return nil })
	})
	if err := res["s"]; err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0] != 1 || seen[1] != 2 {
		t.Fatalf("the steps saw %v, want [1 2]", seen)
	}
}

// TestCachedMatchIsTheFullScan: a step text is matched once per pattern
// list and text, and the answer is what a full scan gives: two tables with
// the same patterns in another order, or with one more pattern, do not
// share an answer.
func TestCachedMatchIsTheFullScan(t *testing.T) {
	x, y, any := regexp.MustCompile(`^x$`), regexp.MustCompile(`^y$`), regexp.MustCompile(`^.$`)
	xy := internPatterns([]*regexp.Regexp{x, y})
	yx := internPatterns([]*regexp.Regexp{y, x})
	xyAny := internPatterns([]*regexp.Regexp{x, y, any})
	if xy == yx || xy == xyAny || internPatterns([]*regexp.Regexp{x, y}) != xy {
		t.Fatal("pattern lists are not interned by their patterns in order")
	}
	for _, s := range []*patternSet{xy, yx, xyAny} {
		for _, text := range []string{"x", "y", "z", "xx"} {
			first, again, scan := s.match(text), s.match(text), s.scan(text)
			if !sameMatch(first, scan) || !sameMatch(again, scan) {
				t.Fatalf("cached match of %q is %+v then %+v, the scan gives %+v", text, first, again, scan)
			}
		}
	}
	if xy.match("x").row != 0 || yx.match("x").row != 1 {
		t.Fatalf(`"x" matches row %d of [x y] and row %d of [y x], want 0 and 1`, xy.match("x").row, yx.match("x").row)
	}
	if m := xyAny.match("x"); m.ambiguous == "" || m.row != 0 || xy.match("x").ambiguous != "" {
		t.Fatalf(`"x" should be ambiguous in [x y .] only, its first match row 0; got %+v`, m)
	}
}

func sameMatch(a, b stepMatch) bool {
	if a.row != b.row || a.ambiguous != b.ambiguous || len(a.args) != len(b.args) {
		return false
	}
	for i := range a.args {
		if a.args[i] != b.args[i] {
			return false
		}
	}
	return true
}

// TestStepTableOrderDecidesTheHandler: two scenarios register the same
// patterns in opposite orders in one process; each step still runs the
// handler its own table holds for the pattern that matched.
func TestStepTableOrderDecidesTheHandler(t *testing.T) {
	x, y := Pattern(`^step x$`), Pattern(`^step y$`)
	var got []string
	res := runTable(t, "Feature: f\n  Scenario: one\n    Given step x\n  Scenario: two\n    Given step x\n", func(sc *ScenarioContext) {
		if len(got) == 0 {
			sc.Step(x, func() error { got = append(got, "x"); return nil })
			sc.Step(y, func() error { got = append(got, "y"); return nil })
			return
		}
		sc.Step(y, func() error { got = append(got, "y"); return nil })
		sc.Step(x, func() error { got = append(got, "x"); return nil })
	})
	if res["one"] != nil || res["two"] != nil {
		t.Fatal(res)
	}
	if strings.Join(got, ",") != "x,x" {
		t.Fatalf("handlers ran %v, want x twice", got)
	}
}

// TestStepTableRefusesABadHandler: a handler godog could not call panics
// at registration, not when a step first uses it.
func TestStepTableRefusesABadHandler(t *testing.T) {
	bad := map[string]any{
		"not a func":       "x",
		"bool parameter":   func(bool) error { return nil },
		"struct parameter": func(struct{}) error { return nil },
		"named string":     func(namedString) error { return nil },
		"int return":       func() int { return 0 },
		//lint:ignore ST1008 a deliberately malformed handler the table must refuse
		"error then context":   func() (error, context.Context) { return nil, nil },
		"three returns":        func() (context.Context, error, error) { return nil, nil, nil },
		"context not first":    func(string, context.Context) error { return nil },
		"godog.Steps (nested)": func() godog.Steps { return nil },
	}
	for name, h := range bad {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatalf("registering %T did not panic", h)
				}
			}()
			(&ScenarioContext{}).Step(Pattern(`^x$`), h)
		})
	}
	(&ScenarioContext{}).Step(Pattern(`^x$`), func(context.Context, string, int, int64, float64, []byte, *godog.DocString) (context.Context, error) {
		return nil, nil
	})
}

type namedString string

// TestStepTableRefusesKeywordSteps: Given, When and Then would register
// with godog beside the catch-all; they panic instead.
func TestStepTableRefusesKeywordSteps(t *testing.T) {
	for name, reg := range map[string]func(*ScenarioContext){
		"Given": func(sc *ScenarioContext) { sc.Given(`^x$`, func() {}) },
		"When":  func(sc *ScenarioContext) { sc.When(`^x$`, func() {}) },
		"Then":  func(sc *ScenarioContext) { sc.Then(`^x$`, func() {}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("sc.%s did not panic", name)
				}
			}()
			reg(&ScenarioContext{})
		}()
	}
}
