package suite_test

import (
	"context"
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
	p.Steps = func(sc *godog.ScenarioContext, env *suite.Env) {
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
