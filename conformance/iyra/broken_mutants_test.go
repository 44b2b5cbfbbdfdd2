package iyra_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/agentgames/conformance/conformance/iyra"
	harness "github.com/agentgames/conformance/conformance/tamper"
	riyra "github.com/agentgames/conformance/reference/iyra"
)

// mutantCases are bugs once planted in the reference's source that a live
// run missed or named under another rule; each is kept here, rebuilt as a
// broken target, so it stays caught under its own rule.
var mutantCases = tamperTable("planted source bugs", func() []harness.Case {
	return []harness.Case{
		{Name: "the second alliance gives two signal", Rule: "IYRA-ALLY-SIGNAL", Target: observationEdit(func(o map[string]any) {
			if allies, _ := o["allies"].([]any); len(allies) == 2 {
				o["signal"] = o["signal"].(float64) + 1
			}
		})},
		{Name: "the budget ends at the eighth action", Rule: "IYRA-BUDGET", Target: withRules(func(r *riyra.Rules) { r.MaxSteps = 8 })},
		{Name: "a parameter value outside the catalogue is taken for a declared one", Rule: "IYRA-LEGAL-CATALOGUE", Target: tamper{h: ref(), req: catalogueValuesForced}},
	}
})

// domains are the declared parameter values per parameter.
var domains = map[string][]string{"site": {"archive", "harbor", "spire"}, "faction": {"keepers", "drifters"}, "claim": {"relay_fault", "record_omission"}}

// catalogueValuesForced replaces an undeclared parameter value of an
// action by the first declared one, so the action is accepted.
func catalogueValuesForced(r *http.Request, body []byte) []byte {
	if !isActions(r) {
		return body
	}
	var env map[string]any
	if json.Unmarshal(body, &env) != nil {
		return body
	}
	a, _ := env["action"].(map[string]any)
	for param, values := range domains {
		if v, ok := a[param].(string); ok && !contains(values, v) {
			a[param] = values[0]
		}
	}
	out, _ := json.Marshal(env)
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestPlantedSourceBugsAreCaught runs each planted bug's broken target.
func TestPlantedSourceBugsAreCaught(t *testing.T) {
	t.Parallel()
	harness.Test(t, iyra.Protocol(), mutantCases())
}
