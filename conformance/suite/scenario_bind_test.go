package suite_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// TestBoundScenarioCleansUpEveryScenario: a world's base bound to the
// scenario runs its cleanups once per scenario, after the scenario, and
// each cleanup knows whether its scenario ended in anything but a pass.
func TestBoundScenarioCleansUpEveryScenario(t *testing.T) {
	p := toyProtocol(addsTwo)
	steps := p.Steps
	var mu sync.Mutex
	cleaned, cleanedFailed := 0, 0
	p.Steps = func(sc *suite.ScenarioContext, env *suite.Env) {
		base := &suite.Scenario[suite.NoState]{}
		base.Bind(sc, env)
		base.Cleanup(func() {
			mu.Lock()
			defer mu.Unlock()
			cleaned++
			if base.Failed() {
				cleanedFailed++
			}
		})
		steps(sc, env)
	}
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{p}, Seed: 1, Checks: -1})
	if err != nil {
		t.Fatal(err)
	}
	scenarios, notPassed := 0, 0
	for _, r := range rep.Results {
		if r.Kind != "scenario" {
			continue
		}
		scenarios++
		if r.Status != verdict.Pass {
			notPassed++
		}
	}
	if notPassed == 0 || notPassed == scenarios {
		t.Fatalf("%d of %d scenarios did not pass; the toy with a defect should fail some, not all", notPassed, scenarios)
	}
	if cleaned != scenarios || cleanedFailed != notPassed {
		t.Errorf("cleanups ran %d times (%d for scenarios that did not pass); want %d (%d)", cleaned, cleanedFailed, scenarios, notPassed)
	}
}

// TestBoundScenarioCollectsTagsAndNamesItsRule: the base bound to a
// scenario holds its tags, without "@", before the world's own Before hooks
// run, and RuleTag names the first of them the catalogue holds; an unbound
// base has no tags and names no rule.
func TestBoundScenarioCollectsTagsAndNamesItsRule(t *testing.T) {
	p := toyProtocol(healthy)
	steps := p.Steps
	var mu sync.Mutex
	var seen [][]string
	var rules []string
	p.Steps = func(sc *suite.ScenarioContext, env *suite.Env) {
		base := &suite.Scenario[suite.NoState]{}
		base.Bind(sc, env)
		sc.Before(func(ctx context.Context, _ *godog.Scenario) (context.Context, error) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, append([]string(nil), base.Tags...))
			rules = append(rules, base.RuleTag(env.Catalogue))
			return ctx, nil
		})
		steps(sc, env)
	}
	if _, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{p}, Seed: 1, Checks: -1}); err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 {
		t.Fatal("no scenario ran")
	}
	for i, tags := range seen {
		if len(tags) == 0 || strings.HasPrefix(tags[0], "@") {
			t.Errorf("scenario %d: tags %v, want its tags without @", i, tags)
		}
		if _, ok := p.Catalogue.Rule(rules[i]); !ok {
			t.Errorf("scenario %d (tags %v): RuleTag %q is no catalogued rule", i, tags, rules[i])
		}
	}
	var unbound suite.Scenario[suite.NoState]
	if got := unbound.RuleTag(p.Catalogue); len(unbound.Tags) != 0 || got != "untagged scenario" {
		t.Errorf("unbound base: tags %v, RuleTag %q; want none and \"untagged scenario\"", unbound.Tags, got)
	}
}
