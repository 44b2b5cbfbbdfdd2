package features_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/features"
	"github.com/agentgames/conformance/spec"
)

// TestEveryRuleHasAScenarioAndEveryTagARule is the catalogue's gate: a rule
// without a scenario, or a scenario citing an unknown rule, fails the build.
func TestEveryRuleHasAScenarioAndEveryTagARule(t *testing.T) {
	protocols := spec.Protocols()
	require.NotEmpty(t, protocols)
	for _, p := range protocols {
		cat, err := spec.Load(p)
		require.NoError(t, err, p)
		scenarios, err := features.Parse(p)
		require.NoError(t, err, p)
		require.NotEmpty(t, scenarios, "%s has no scenarios", p)
		cov := features.Cover(cat, scenarios)
		assert.Empty(t, cov.Uncovered, "%s: catalogued rules without a scenario", p)
		assert.Empty(t, cov.Unknown, "%s: scenarios citing unknown rules", p)
	}
}

func TestCoverFindsGapsAndUnknownTags(t *testing.T) {
	cat := &spec.Catalogue{Protocol: "x", Rules: []spec.Rule{{ID: "X-A"}, {ID: "X-B"}}}
	scenarios := []features.Scenario{
		{File: "x/a.feature", Line: 3, Tags: []string{"@x", "@X-A"}},
		{File: "x/a.feature", Line: 9, Tags: []string{"@X-C", "@control"}},
	}
	cov := features.Cover(cat, scenarios)
	assert.Equal(t, []string{"X-B"}, cov.Uncovered)
	assert.Equal(t, []string{"x/a.feature:9 X-C"}, cov.Unknown)
	assert.Len(t, cov.ByRule["X-A"], 1)
}
