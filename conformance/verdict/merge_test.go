package verdict_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/verdict"
)

// sel is the selection every shard of these tests was made with.
var sel = &verdict.Selection{Protocols: []string{"p"}, Seed: 7, Checks: 20, Version: "devel test"}

func TestStaleInOneShardIsDecidedByTheMerge(t *testing.T) {
	entry := verdict.BaselineEntry{Rule: "P-A", Reason: "known"}
	passing := &verdict.Report{Tool: "conformance", Shard: "1/2", Selection: sel, Stale: []verdict.BaselineEntry{entry},
		Results: []verdict.Result{{Protocol: "p", Name: "a passes", Rules: []string{"P-A"}, Status: verdict.Pass}}}
	assert.Equal(t, 0, passing.ExitCode(), "a shard's stale entry is provisional")
	failing := &verdict.Report{Tool: "conformance", Shard: "2/2", Selection: sel,
		Results: []verdict.Result{{Protocol: "p", Name: "a fails", Rules: []string{"P-A"}, Status: verdict.Warn,
			FailedRule: "P-A", Baseline: &entry}}}
	merged, err := verdict.Merge(passing, failing)
	require.NoError(t, err)
	assert.Empty(t, merged.Stale, "the other shard still sees the failure")
	assert.Equal(t, 0, merged.ExitCode())
	alone, err := verdict.Merge(passing, &verdict.Report{Tool: "conformance", Shard: "2/2", Selection: sel})
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

// TestMergeRefusesWhatIsNotOneRun: a shard missing, given twice, of another
// count, another seed, selection or kit version, or without a recorded
// selection is refused with the problem named; a complete set in any
// order, and one unsharded report, merge.
func TestMergeRefusesWhatIsNotOneRun(t *testing.T) {
	shard := func(s string, edit func(*verdict.Selection)) *verdict.Report {
		c := *sel
		if edit != nil {
			edit(&c)
		}
		return &verdict.Report{Tool: "conformance", Shard: s, Selection: &c}
	}
	for _, tc := range []struct {
		name string
		reps []*verdict.Report
		want string
	}{
		{"missing", []*verdict.Report{shard("1/3", nil), shard("3/3", nil)}, "shard 2/3 of the run is missing"},
		{"alone", []*verdict.Report{shard("1/2", nil)}, "shard 2/2 of the run is missing"},
		{"twice", []*verdict.Report{shard("1/2", nil), shard("1/2", nil), shard("2/2", nil)}, "shard 1/2 is given twice (report 1 and report 2)"},
		{"counts", []*verdict.Report{shard("1/2", nil), shard("2/3", nil)}, "report 2 is shard 2/3, but report 1 is of 2 shards"},
		{"unsharded twice", []*verdict.Report{shard("", nil), shard("", nil)}, "shard 1/1 is given twice"},
		{"seed", []*verdict.Report{shard("1/2", nil), shard("2/2", func(s *verdict.Selection) { s.Seed = 8 })}, "report 2 is not a shard of the same run as report 1: --seed 8, not 7"},
		{"version", []*verdict.Report{shard("1/2", nil), shard("2/2", func(s *verdict.Selection) { s.Version = "v2" })}, "kit version v2, not devel test"},
		{"tags", []*verdict.Report{shard("1/2", nil), shard("2/2", func(s *verdict.Selection) { s.Tags = "@x" })}, `--tags "@x", not ""`},
		{"rules", []*verdict.Report{shard("1/2", nil), shard("2/2", func(s *verdict.Selection) { s.Rules = []string{"P-A"} })}, "--rule P-A, not (none)"},
		{"checks", []*verdict.Report{shard("1/2", nil), shard("2/2", func(s *verdict.Selection) { s.Checks = 5 })}, "--checks 5, not 20"},
		{"protocols", []*verdict.Report{shard("1/2", nil), shard("2/2", func(s *verdict.Selection) { s.Protocols = []string{"q"} })}, "--protocol q, not p"},
		{"flags", []*verdict.Report{shard("1/2", nil), shard("2/2", func(s *verdict.Selection) { s.Flags = map[string]string{"allow-authoring": "true"} })}, "protocol flags --allow-authoring=true, not (none)"},
		{"no selection", []*verdict.Report{shard("1/2", nil), {Tool: "conformance", Shard: "2/2"}}, "report 2 records no selection"},
	} {
		_, err := verdict.Merge(tc.reps...)
		if assert.Error(t, err, tc.name) {
			assert.Contains(t, err.Error(), tc.want, tc.name)
		}
	}
	for _, ok := range [][]*verdict.Report{{shard("2/2", nil), shard("1/2", nil)}, {shard("", nil)}} {
		_, err := verdict.Merge(ok...)
		assert.NoError(t, err)
	}
}
