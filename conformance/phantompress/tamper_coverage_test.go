package phantompress

import (
	"testing"

	harness "github.com/agentgames/conformance/conformance/tamper"
)

// tamperTables are every table of broken targets in this package, each
// registered where it is declared (tamperTable), so the coverage test below
// reads the very rows the tests run.
var tamperTables = harness.Tables{}

// tamperTable registers rows under name and returns them, for the test
// that runs them.
func tamperTable(name string, rows func() []harness.Case) func() []harness.Case {
	return tamperTables.Add(name, rows)
}

// untampered are the platform MUST rules without a broken target here,
// each with why: only a rule no live run can check (then an embedded case
// where possible) or one that cannot break without breaking another rule
// first, named.
var untampered = map[string]string{}

// TestEveryLiveMustRuleHasATamperTest fails for a platform MUST rule with
// neither a broken target nor a recorded reason, and for a recorded reason
// that a broken target has made stale.
func TestEveryLiveMustRuleHasATamperTest(t *testing.T) {
	t.Parallel()
	tamperTables.Covers(t, "phantom-press", untampered)
}
