package iyra_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentgames/conformance/features"
	"github.com/agentgames/conformance/spec"
)

// seedPath finds the source contract beside the repository (shared/ is a
// sibling of the work tree locally and in CI).
func seedPath(name string) string {
	for _, dir := range []string{"../../../shared/seeds", "../../shared/seeds", "/work/shared/seeds"} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// TestCatalogueQuotesTheSeed checks every rule quotes the contract
// verbatim and carries the IYRA- prefix.
func TestCatalogueQuotesTheSeed(t *testing.T) {
	cat, err := spec.Load("iyra")
	if err != nil {
		t.Fatal(err)
	}
	p := seedPath(cat.Seed)
	if p == "" {
		t.Skipf("source contract %s not found beside the repository", cat.Seed)
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	seed := string(raw)
	for _, r := range cat.Rules {
		if !strings.HasPrefix(r.ID, "IYRA-") {
			t.Errorf("%s lacks the IYRA- prefix", r.ID)
		}
		if !strings.Contains(seed, r.Quote) {
			t.Errorf("%s: quote not found verbatim in the seed: %q", r.ID, r.Quote)
		}
	}
	if _, ok := cat.Rule("IYRA-OPENAPI"); !ok {
		t.Error("the catalogue lacks IYRA-OPENAPI")
	}
}

// TestEveryRuleHasAScenario requires each catalogued rule to head a Rule
// block with scenarios, and every scenario tag to name a catalogued rule.
func TestEveryRuleHasAScenario(t *testing.T) {
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
		if covered[r.ID] == 0 {
			t.Errorf("rule %s has no scenario", r.ID)
		}
	}
}
