package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/spec"
)

// auditedDoc holds three risky platform duties (one without a rule, one
// whose rule a run decided, one whose rule it did not), a low-risk one and
// an agent duty, which are never counted.
var auditedDoc = &spec.Statements{Statements: []spec.Statement{
	{ID: "S1", Risk: "high", Side: "platform", Rules: []string{"X-DECIDED"}},
	{ID: "S2", Risk: "medium", Side: "platform", Rules: []string{"X-SKIPPED"}},
	{ID: "S3", Risk: "high", Side: "platform"},
	{ID: "S4", Risk: "low", Side: "platform", Rules: []string{"X-SKIPPED"}},
	{ID: "S5", Risk: "high", Side: "agent"},
}}

func TestMeasureCountsOnlyRiskyPlatformDuties(t *testing.T) {
	fig := measure(auditedDoc, "toy", map[string]bool{"X-DECIDED": true}, true)
	assert.Equal(t, 5, fig.Statements)
	assert.Equal(t, 3, fig.Risky)
	assert.Equal(t, 2, fig.WithRule)
	require.NotNil(t, fig.Checked)
	assert.Equal(t, 1, *fig.Checked)
	assert.Equal(t, []string{"S3"}, fig.NoRule)
	assert.Equal(t, []string{"S2 (X-SKIPPED)"}, fig.NotChecked)
}

func TestMeasureWithoutAReportOfTheFolderLeavesTheLiveFigureOut(t *testing.T) {
	fig := measure(auditedDoc, "toy", map[string]bool{"X-DECIDED": true}, false)
	assert.Nil(t, fig.Checked, "a folder no report measured has no live figure, not 0")
	assert.Empty(t, fig.NotChecked)
}

func TestBelowGatesOnEveryMeasuredShare(t *testing.T) {
	one := 1
	figs := []statementFigures{{Folder: "toy", Risky: 3, WithRule: 3, Checked: &one}}
	assert.True(t, below(figs, 95), "1 of 3 decided is under 95 %")
	assert.False(t, below(figs, 30))
	figs[0].Checked = nil
	assert.False(t, below(figs, 95), "3 of 3 with a rule and no live figure")
	assert.False(t, below([]statementFigures{{Folder: "unaudited", Statements: 9}}, 95), "an unaudited seed is not measured")
}
