package suite

import (
	"context"
	"fmt"
	"regexp"

	"github.com/cucumber/godog"
)

// ScenarioContext is one scenario's step table. Step only appends a
// (pattern, handler) row; godog sees a single catch-all step whose handler
// dispatches a step's text to the table (dispatch). godog's own Step calls
// runtime.Caller and reflects on the handler at every registration, and it
// runs the initializer for every pickle of every file it is given, skipped
// ones included, so the few hundred registrations of a protocol cost more
// than the scenario; it also matches every step text against every pattern
// twice per step, where the table matches a text once per process
// (matchCache). The embedded *godog.ScenarioContext keeps the scenario and
// step hooks (Before, After, StepContext) as they are.
type ScenarioContext struct {
	*godog.ScenarioContext
	rows    []stepRow
	set     *patternSet // the interned pattern list of rows; nil when rows changed
	current *godog.Step // the step godog is about to run (the before-step hook)
}

// stepRow is one registered step: its pattern and its handler, checked
// and wrapped once at registration.
type stepRow struct {
	expr *regexp.Regexp
	call stepCall
}

// catchAll is the one pattern the kit registers with godog: it matches
// every step text (cheaply: godog matches it twice per step), so godog never
// reports a step undefined or ambiguous itself; the table does, with godog's
// own errors. The step itself, text and argument, comes from the
// before-step hook, which godog runs just before it matches the step.
var catchAll = Pattern(`^`)

// NewScenarioContext puts a step table in front of godog's scenario
// context sc: it registers the catch-all step and the before-step hook
// that hands the step's DocString or DataTable to the dispatcher. Call it
// once per scenario, in the scenario initializer.
func NewScenarioContext(sc *godog.ScenarioContext) *ScenarioContext {
	t := &ScenarioContext{ScenarioContext: sc}
	sc.StepContext().Before(func(ctx context.Context, st *godog.Step) (context.Context, error) {
		t.current = st
		return ctx, nil
	})
	sc.Step(catchAll, t.dispatch)
	return t
}

// Step registers handler for the step texts expr matches. The handler
// takes what a godog step handler takes (an optional context.Context
// first, then one parameter per capture group of expr and a trailing
// *godog.DocString or *godog.Table) and returns nothing, an error, a
// context.Context or (context.Context, error). A handler of any other
// shape is a defect of the kit: Step panics, so the first test that
// registers it finds it.
func (t *ScenarioContext) Step(expr *regexp.Regexp, handler any) {
	if expr == nil {
		panic("suite: a step registered with a nil pattern")
	}
	t.rows = append(t.rows, stepRow{expr: expr, call: newStepCall(expr, handler)})
	t.set = nil
}

// Given, When and Then would register keyword-bound steps with godog
// itself, beside the catch-all, and make every step text ambiguous: the
// kit registers its steps with Step.
func (t *ScenarioContext) Given(expr, handler any) { keywordStep("Given") }

// When: see Given.
func (t *ScenarioContext) When(expr, handler any) { keywordStep("When") }

// Then: see Given.
func (t *ScenarioContext) Then(expr, handler any) { keywordStep("Then") }

func keywordStep(kw string) {
	panic("suite: register steps with sc.Step(suite.Pattern(...), handler), not sc." + kw +
		": a step registered with godog beside the step table makes every step ambiguous")
}

// dispatch is the catch-all's handler: it runs the row whose pattern
// matches the step's text, with the pattern's captures and the step's
// argument.
func (t *ScenarioContext) dispatch(ctx context.Context) (context.Context, error) {
	st := t.current
	if st == nil {
		return ctx, fmt.Errorf("suite: a step ran before the step table's before-step hook (a defect of the kit)")
	}
	text := st.Text
	m := t.patterns().match(text)
	switch {
	case m.ambiguous != "":
		return ctx, fmt.Errorf("%w, step text: %s\n    matches:%s", godog.ErrAmbiguous, text, m.ambiguous)
	case m.row < 0:
		return ctx, fmt.Errorf("%w: %s", godog.ErrUndefined, text)
	}
	args := m.args
	if st.Argument != nil {
		args = append(args[:len(args):len(args)], st.Argument)
	}
	out, err := t.rows[m.row].call(ctx, args)
	if out == nil {
		out = ctx
	}
	return out, err
}

// patterns returns the interned pattern list of the table's rows.
func (t *ScenarioContext) patterns() *patternSet {
	if t.set == nil {
		exprs := make([]*regexp.Regexp, len(t.rows))
		for i, r := range t.rows {
			exprs[i] = r.expr
		}
		t.set = internPatterns(exprs)
	}
	return t.set
}
