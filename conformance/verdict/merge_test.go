package verdict_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/verdict"
)

func TestStaleInOneShardIsDecidedByTheMerge(t *testing.T) {
	entry := verdict.BaselineEntry{Rule: "P-A", Reason: "known"}
	passing := &verdict.Report{Tool: "conformance", Shard: "1/2", Stale: []verdict.BaselineEntry{entry},
		Results: []verdict.Result{{Protocol: "p", Name: "a passes", Rules: []string{"P-A"}, Status: verdict.Pass}}}
	assert.Equal(t, 0, passing.ExitCode(), "a shard's stale entry is provisional")
	failing := &verdict.Report{Tool: "conformance", Shard: "2/2",
		Results: []verdict.Result{{Protocol: "p", Name: "a fails", Rules: []string{"P-A"}, Status: verdict.Warn,
			FailedRule: "P-A", Baseline: &entry}}}
	merged, err := verdict.Merge(passing, failing)
	require.NoError(t, err)
	assert.Empty(t, merged.Stale, "the other shard still sees the failure")
	assert.Equal(t, 0, merged.ExitCode())
	alone, err := verdict.Merge(passing, &verdict.Report{Tool: "conformance", Shard: "2/2"})
	require.NoError(t, err)
	assert.Equal(t, []verdict.BaselineEntry{entry}, alone.Stale)
	assert.Equal(t, 1, alone.ExitCode(), "stale everywhere: the merged run fails")
}

func TestMergeRefusesReportsOfAnotherTool(t *testing.T) {
	_, err := verdict.Merge(&verdict.Report{Tool: "conformance"}, &verdict.Report{Tool: "other"})
	assert.Error(t, err)
	_, err = verdict.Merge()
	assert.Error(t, err)
}
