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

func TestCoverAgentsFindsGapsAndMisplacedScenarios(t *testing.T) {
	cat := &spec.Catalogue{Protocol: "x", Rules: []spec.Rule{{ID: "X-A"}, {ID: "X-AGENT-B", Side: spec.AgentSide}, {ID: "X-AGENT-C", Side: spec.AgentSide}}}
	scenarios := []features.Scenario{
		{File: "x/agents.feature", Line: 3, Tags: []string{"@agent", "@X-AGENT-B"}},
		{File: "x/agents.feature", Line: 9, Tags: []string{"@agent", "@X-A"}},
		{File: "x/agents.feature", Line: 12, Tags: []string{"@X-AGENT-Z"}},
	}
	cov := features.CoverAgents(cat, scenarios)
	assert.Equal(t, []string{"X-AGENT-C"}, cov.Uncovered)
	assert.Equal(t, []string{"x/agents.feature:12 has no @agent tag", "x/agents.feature:12 names X-AGENT-Z, which the catalogue lacks",
		"x/agents.feature:9 names X-A, a platform rule"}, cov.Misplaced)
}

// TestPlatformPathsLeaveTheAgentFileOut: conformance run, rules and the
// contract test read PathsFS and ParseFS, which never include the
// scenarios for agents.
func TestPlatformPathsLeaveTheAgentFileOut(t *testing.T) {
	for _, p := range spec.Protocols() {
		for _, path := range features.Paths(p) {
			assert.NotContains(t, path, features.AgentFile)
		}
		scenarios, err := features.Parse(p)
		require.NoError(t, err)
		for _, s := range scenarios {
			assert.False(t, s.HasTag("agent"), "%s:%d is a scenario for agents among the platform's", s.File, s.Line)
		}
	}
}

// TestEveryRuleForAgentsHasAnAgentScenario is the gate of the rules for
// agents: each has a scenario in its folder's agents.feature, and every
// scenario there is tagged @agent and names only rules for agents.
func TestEveryRuleForAgentsHasAnAgentScenario(t *testing.T) {
	for _, p := range spec.Protocols() {
		cat, err := spec.Load(p)
		require.NoError(t, err, p)
		scenarios, err := features.ParseAgents(p)
		require.NoError(t, err, p)
		cov := features.CoverAgents(cat, scenarios)
		assert.Empty(t, cov.Uncovered, "%s: rules for agents without a scenario in %s", p, features.AgentFile)
		assert.Empty(t, cov.Misplaced, "%s: misplaced agent scenarios", p)
	}
}
