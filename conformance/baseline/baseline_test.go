package baseline_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/baseline"
	"github.com/agentgames/conformance/conformance/verdict"
)

func report() *verdict.Report {
	return &verdict.Report{Tool: "conformance", Results: []verdict.Result{
		{Protocol: "p", Name: "broken", Rules: []string{"P-A"}, Status: verdict.Fail, FailedRule: "P-A", Stopped: true, Message: "P-A: no"},
		{Protocol: "p", Name: "fine", Rules: []string{"P-B"}, Status: verdict.Pass},
		{Protocol: "p", Name: "skipped", Rules: []string{"P-C"}, Status: verdict.Skip},
	}}
}

func parse(t *testing.T, doc string) *baseline.File {
	t.Helper()
	f, err := baseline.Parse([]byte(doc))
	require.NoError(t, err)
	return f
}

func TestKnownFailureIsExpectedAndDoesNotFailTheRun(t *testing.T) {
	rep := report()
	parse(t, `{"known_failures":[{"rule":"P-A","reason":"fix in 2.1"}]}`).Apply(rep)
	assert.Equal(t, 0, rep.ExitCode())
	assert.Equal(t, verdict.Warn, rep.Results[0].Status)
	assert.Contains(t, rep.Results[0].Message, "expected failure (baseline: fix in 2.1)")
	assert.Empty(t, rep.Stale)
}

func TestAListedCheckThatPassesIsStaleAndFailsTheRun(t *testing.T) {
	rep := report()
	parse(t, `{"known_failures":[{"rule":"P-A","reason":"a"},{"protocol":"p","check":"fine","reason":"b"},{"rule":"P-B","reason":"c"}]}`).Apply(rep)
	assert.Equal(t, 1, rep.ExitCode())
	var keys []string
	for _, e := range rep.Stale {
		keys = append(keys, e.Key())
	}
	assert.Equal(t, []string{"check p › fine", "rule P-B"}, keys)
}

func TestEntriesWhoseChecksDidNotRunAreNeitherExpectedNorStale(t *testing.T) {
	rep := report()
	parse(t, `{"known_failures":[{"rule":"P-C","reason":"only skipped"},{"rule":"P-Z","reason":"not selected"},{"protocol":"p","check":"absent","reason":"other shard"}]}`).Apply(rep)
	assert.Empty(t, rep.Stale)
	assert.Equal(t, 1, rep.ExitCode(), "the unlisted failure still fails")
}

func TestMalformedBaselinesAreRefused(t *testing.T) {
	for _, doc := range []string{
		`{"known_failures":[{"rule":"P-A"}]}`,
		`{"known_failures":[{"reason":"r"}]}`,
		`{"known_failures":[{"rule":"P-A","check":"x","protocol":"p","reason":"r"}]}`,
		`{"known_failures":[{"check":"x","reason":"r"}]}`,
		`{"known_failures":[{"rule":"P-A","reason":"r"},{"rule":"P-A","reason":"r"}]}`,
		`{"known":[]}`,
		`not json`,
	} {
		_, err := baseline.Parse([]byte(doc))
		assert.Error(t, err, doc)
	}
}

// known is the kit a baseline is checked against in these tests.
var known = baseline.Known{Rules: []string{"P-A", "P-B", "Q-SCORE"},
	Checks: map[string][]string{"p": {"fine", "broken"}, "phantom-press": {"A played public run is ranked"}}}

func TestEntriesNamingUnknownRulesProtocolsOrChecksAreRefused(t *testing.T) {
	f := parse(t, `{"known_failures":[{"rule":"Q-SCOER","reason":"a"},{"protocol":"phantompress","check":"x","reason":"b"},
		{"protocol":"p","check":"brokn","reason":"c"},{"rule":"P-A","reason":"d"},{"protocol":"p","check":"fine","reason":"e"}]}`)
	err := f.Check(known)
	require.Error(t, err)
	for _, want := range []string{
		`entry 1 (rule Q-SCOER): no protocol catalogues rule Q-SCOER (see conformance rules); did you mean "Q-SCORE"?`,
		`entry 2 (check phantompress › x): unknown protocol "phantompress"; did you mean "phantom-press"?`,
		`entry 3 (check p › brokn): p has no check named "brokn"; did you mean "broken"?`,
	} {
		assert.Contains(t, err.Error(), want)
	}
	assert.NotContains(t, err.Error(), "entry 4")
	assert.NotContains(t, err.Error(), "entry 5")
	assert.NoError(t, parse(t, `{"known_failures":[{"rule":"P-B","reason":"a"},{"protocol":"p","check":"broken","reason":"b"}]}`).Check(known))
}

// TestAnExpectedFailureIsStillChecked: a run whose only MUST verdict is a
// failure the baseline expects checked that rule; it is no "nothing was
// checked" run.
func TestAnExpectedFailureIsStillChecked(t *testing.T) {
	rep := &verdict.Report{Tool: "conformance", Protocols: []verdict.ProtocolInfo{{Name: "p", Rules: []verdict.RuleInfo{
		{ID: "P-A", Level: verdict.Must}, {ID: "P-R", Level: verdict.Reference}}}},
		Results: []verdict.Result{{Protocol: "p", Name: "broken", Rules: []string{"P-A", "P-R"}, Status: verdict.Fail,
			FailedRule: "P-A", Stopped: true, Message: "P-A: no"}}}
	parse(t, `{"known_failures":[{"rule":"P-A","reason":"fix in 2.1"}]}`).Apply(rep)
	assert.Empty(t, rep.NothingChecked())
	assert.Equal(t, 0, rep.ExitCode())
	checked, total, _ := rep.MustCoverage(rep.Protocols[0])
	assert.Equal(t, [2]int{1, 1}, [2]int{checked, total})
}

// TestExpectsTellsTheFailuresApplyWouldMark: --fail-fast asks Expects
// before a failure stops the run, so it must agree with Apply.
func TestExpectsTellsTheFailuresApplyWouldMark(t *testing.T) {
	f := parse(t, `{"known_failures":[{"rule":"P-A","reason":"r"},{"protocol":"p","check":"other","reason":"r"}]}`)
	rep := report()
	assert.True(t, f.Expects(rep.Results[0]), "a failure of a listed rule")
	assert.False(t, f.Expects(rep.Results[1]), "a pass is no expected failure")
	assert.True(t, f.Expects(verdict.Result{Protocol: "p", Name: "other", Status: verdict.Fail, FailedRule: "P-Z"}), "a listed check")
	assert.False(t, f.Expects(verdict.Result{Protocol: "p", Name: "broken", Status: verdict.Fail, FailedRule: "P-Z"}), "an unlisted rule")
}
