package suite_test

import (
	"context"
	"sort"
	"testing"
	"testing/fstest"

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

// controlledCounter is the toy feature with @control scenarios: TOY-INCR
// has a controlled scenario and a live one, which round-robin sharding puts
// in different shards; TOY-OPTIONAL only a controlled one.
const controlledCounter = `@toy
Feature: Counter
  @TOY-INCR
  Rule: an increment adds exactly one

    @control
    Scenario: a controlled increment
      Given a fresh counter
      When the agent increments the counter
      Then the counter reads 1

    Scenario: one increment from zero
      Given a fresh counter
      When the agent increments the counter
      Then the counter reads 1

  @TOY-OPTIONAL
  Rule: an optional capability

    @control
    Scenario: a controlled capability
      Given a fresh counter
      When the agent asks for the optional capability
      Then nothing is judged
`

// TestEveryShardNamesTheWholeRunsNotLiveRules: the MUST rules a live run
// cannot check are a property of the whole selection, not of a shard's
// part: a rule whose controlled scenario falls in one shard and whose live
// scenario in another is checked, so no shard, and no merge of them, lists
// it as not live.
func TestEveryShardNamesTheWholeRunsNotLiveRules(t *testing.T) {
	p := toyProtocol(healthy)
	p.Features = fstest.MapFS{"toy/counter.feature": {Data: []byte(controlledCounter)}}
	target := newLoopback(t, &toyServer{}) + "/toy"
	run := func(s suite.Shard) *verdict.Report {
		rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{p}, Target: target,
			Seed: 3, Checks: -1, CaseDir: t.TempDir(), Shard: s})
		require.NoError(t, err)
		require.Len(t, rep.Protocols, 1)
		return rep
	}
	notLive := func(rep *verdict.Report) []string {
		var ids []string
		for _, u := range rep.Protocols[0].NotLive {
			ids = append(ids, u.Rule)
		}
		return ids
	}
	whole := run(suite.Shard{})
	require.Equal(t, []string{"TOY-OPTIONAL"}, notLive(whole))
	var parts []*verdict.Report
	for i := 1; i <= 2; i++ {
		rep := run(suite.Shard{Index: i, Count: 2})
		assert.Equal(t, notLive(whole), notLive(rep), "shard %d/2", i)
		parts = append(parts, rep)
	}
	merged, err := verdict.Merge(parts...)
	require.NoError(t, err)
	assert.Equal(t, notLive(whole), notLive(merged))
}
