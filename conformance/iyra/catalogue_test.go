package iyra_test

import (
	"strings"
	"testing"

	"github.com/agentgames/conformance/features"
	"github.com/agentgames/conformance/spec"
)

// TestEveryRuleHasAScenario requires each catalogued rule to head a Rule
// block with scenarios, and every scenario tag to name a catalogued rule.
func TestEveryRuleHasAScenario(t *testing.T) {
	t.Parallel()
	cat, err := spec.Load("iyra")
	if err != nil {
		t.Fatal(err)
	}
	scenarios, err := features.Parse("iyra")
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]int{}
	for _, s := range scenarios {
		if !s.HasTag("iyra") {
			t.Errorf("%s: %s is not tagged @iyra", s.File, s.Name)
		}
		for _, tag := range s.Tags {
			id := strings.TrimPrefix(tag, "@")
			if !strings.HasPrefix(id, "IYRA-") {
				continue
			}
			if _, ok := cat.Rule(id); !ok {
				t.Errorf("%s:%d cites unknown rule %s", s.File, s.Line, id)
			}
			covered[id]++
		}
	}
	for _, r := range cat.Rules {
		if covered[r.ID] == 0 && !r.ForAgents() { // a rule for agents is audited by serve --audit
			t.Errorf("rule %s has no scenario", r.ID)
		}
	}
}
