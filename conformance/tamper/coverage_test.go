package tamper_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/spec"
)

// TestUncoveredNamesEveryGap: each kind of gap is reported, and a whole
// coverage reports nothing.
func TestUncoveredNamesEveryGap(t *testing.T) {
	cat := &spec.Catalogue{Rules: []spec.Rule{
		{ID: "T-A", Level: spec.Must}, {ID: "T-B", Level: spec.Must}, {ID: "T-C", Level: spec.Must},
		{ID: "T-REF", Level: spec.Reference}, {ID: "T-AGENT", Level: spec.Must, Side: spec.AgentSide},
	}}
	tables := harness.Tables{}
	tables.Add("a", func() []harness.Case { return []harness.Case{{Rule: "T-A"}, {Rule: "T-GONE"}} })
	got := harness.Uncovered(cat, tables.Rules(), map[string]string{"T-A": "x", "T-B": "", "T-REF": "why"})
	assert.Equal(t, []string{
		"T-A: has a tamper test and a reason for lacking one (x)",
		"T-B: untampered gives no reason",
		"T-C: a MUST rule without a tamper test or a recorded reason",
		"T-GONE: a tamper case names it, but the catalogue lacks it",
		"T-REF: untampered names it, but it is not a platform MUST rule of the catalogue",
	}, got)
	assert.Empty(t, harness.Uncovered(cat, map[string]bool{"T-A": true, "T-B": true}, map[string]string{"T-C": "needs a day"}))
	assert.Panics(t, func() { tables.Add("a", nil) }, "two tables of one name")
}
