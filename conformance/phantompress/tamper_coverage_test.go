package phantompress

import (
	"sort"
	"testing"

	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/spec"
)

// tamperTables are every table of broken targets in this package, each
// registered where it is declared (tamperTable), so the coverage test below
// reads the very rows the tests run instead of a hand-kept list.
var tamperTables = map[string]func() []harness.Case{}

// tamperTable registers rows under name and returns them, for the test
// that runs them.
func tamperTable(name string, rows func() []harness.Case) func() []harness.Case {
	if _, dup := tamperTables[name]; dup {
		panic("two tamper tables named " + name)
	}
	tamperTables[name] = rows
	return rows
}

// untampered are the platform MUST rules without a broken target here,
// each with why: only a rule no live run can check (then an embedded case
// where possible) or one that cannot break without breaking another rule
// first, named.
var untampered = map[string]string{}

// tamperedRules are the rules the registered tables' cases must fail.
func tamperedRules() map[string]bool {
	out := map[string]bool{}
	for _, rows := range tamperTables {
		for _, c := range rows() {
			out[c.Rule] = true
		}
	}
	return out
}

// TestEveryLiveMustRuleHasATamperTest fails for a platform MUST rule with
// neither a broken target nor a recorded reason, and for a recorded reason
// that a broken target has made stale.
func TestEveryLiveMustRuleHasATamperTest(t *testing.T) {
	cat, err := spec.Load("phantom-press")
	if err != nil {
		t.Fatal(err)
	}
	tampered := tamperedRules()
	known := map[string]bool{} // platform MUST rules
	var without []string
	for _, r := range cat.Rules {
		known[r.ID] = r.Level == spec.Must && !r.ForAgents()
		if r.Level != spec.Must || r.ForAgents() || tampered[r.ID] { // a rule for agents is audited (serve --audit), never tampered
			continue
		}
		if _, ok := untampered[r.ID]; !ok {
			without = append(without, r.ID)
		}
	}
	sort.Strings(without)
	if len(without) > 0 {
		t.Errorf("MUST rules without a tamper test or a recorded reason: %v", without)
	}
	for id := range tampered {
		if _, ok := cat.Rule(id); !ok {
			t.Errorf("a tamper case names %s, which is not in the catalogue", id)
		}
	}
	for id, why := range untampered {
		switch {
		case tampered[id]:
			t.Errorf("%s has a tamper test and a reason for lacking one (%s)", id, why)
		case !known[id]:
			t.Errorf("untampered names %s, which is not a platform MUST rule of the catalogue", id)
		case why == "":
			t.Errorf("untampered gives no reason for %s", id)
		}
	}
	t.Logf("%d rules tampered, %d MUST rules without a broken target", len(tampered), len(untampered))
}
