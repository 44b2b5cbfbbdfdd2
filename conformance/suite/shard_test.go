package suite_test

import (
	"context"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

func checkNames(rep *verdict.Report) []string {
	var out []string
	for _, r := range rep.Results {
		out = append(out, r.Protocol+"/"+r.Kind+"/"+r.Name+"/"+string(r.Status))
	}
	sort.Strings(out)
	return out
}

// TestShardsTogetherRunExactlyTheUnshardedChecks: n shards partition the
// selected checks, and merging their reports gives the unsharded summary.
func TestShardsTogetherRunExactlyTheUnshardedChecks(t *testing.T) {
	run := func(s suite.Shard) *verdict.Report {
		rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{toyProtocol(healthy), relayProtocol()},
			Seed: 3, Checks: 2, Shard: s})
		require.NoError(t, err)
		return rep
	}
	whole := run(suite.Shard{})
	for _, n := range []int{2, 3, 7} {
		var parts []*verdict.Report
		var names []string
		for i := 1; i <= n; i++ {
			rep := run(suite.Shard{Index: i, Count: n})
			parts = append(parts, rep)
			names = append(names, checkNames(rep)...)
		}
		sort.Strings(names)
		assert.Equal(t, checkNames(whole), names, "%d shards", n)
		merged, err := verdict.Merge(parts...)
		require.NoError(t, err)
		assert.Equal(t, whole.Tally(), merged.Tally(), "%d shards", n)
		assert.Equal(t, whole.RuleStatusMap(), merged.RuleStatusMap())
		assert.Equal(t, whole.ExitCode(), merged.ExitCode())
	}
}

// TestAShardWithoutChecksOfAProtocolIsNoError: a protocol whose selected
// checks all went to other shards is no harness error in this one, while a
// selection that matches nothing stays an error in every shard.
func TestAShardWithoutChecksOfAProtocolIsNoError(t *testing.T) {
	run := func(tags string, s suite.Shard) *verdict.Report {
		rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{toyProtocol(healthy), relayProtocol()},
			Seed: 3, Checks: 2, Tags: tags, Shard: s})
		require.NoError(t, err)
		return rep
	}
	assert.Empty(t, run("", suite.Shard{Index: 7, Count: 7}).Errors)
	for _, s := range []suite.Shard{{}, {Index: 7, Count: 7}} {
		rep := run("@nosuchtag", s)
		require.NotEmpty(t, rep.Errors, "shard %v", s)
		assert.Contains(t, rep.Errors[0], "nothing selected")
	}
}

func TestParseShard(t *testing.T) {
	s, err := suite.ParseShard("2/3")
	require.NoError(t, err)
	assert.Equal(t, suite.Shard{Index: 2, Count: 3}, s)
	assert.Equal(t, "2/3", s.String())
	for _, bad := range []string{"", "3", "0/3", "4/3", "a/b", "1/0", "-1/2"} {
		_, err := suite.ParseShard(bad)
		assert.Error(t, err, bad)
	}
}
