package cli_test

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ciSelection keeps the CI tests to a few rules of Iyra against a served
// reference, as a CI matrix job would run them.
var ciSelection = []string{"--protocol", "iyra", "--seed", "7", "--checks", "-1", "--quiet",
	"--tags", "@IYRA-SCORE or @IYRA-BUDGET or @IYRA-OUTCOME or @IYRA-AUTH-BEARER"}

func jsonField(t *testing.T, path, field string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var doc map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &doc))
	return string(doc[field])
}

func TestShardsMergeIntoTheUnshardedReport(t *testing.T) {
	t.Parallel()
	target := serveAll(t, io.Discard)
	dir := t.TempDir()
	args := func(extra ...string) []string {
		return append(append([]string{"run", "--target", target}, ciSelection...), extra...)
	}
	whole := filepath.Join(dir, "whole.json")
	code, out, errOut := run(args("--json", whole)...)
	require.Equal(t, 0, code, "%s\n%s", tail(out), errOut)
	shards := []string{"merge"}
	for _, s := range []string{"1/3", "2/3", "3/3"} {
		path := filepath.Join(dir, "shard"+s[:1]+".json")
		code, out, errOut = run(args("--shard", s, "--json", path)...)
		require.Equal(t, 0, code, "shard %s: %s\n%s", s, tail(out), errOut)
		shards = append(shards, path)
	}
	merged := filepath.Join(dir, "merged.json")
	code, out, errOut = run(append(shards, "--json", merged, "--junit", filepath.Join(dir, "r.xml"), "--html", filepath.Join(dir, "r.html"))...)
	require.Equal(t, 0, code, "%s\n%s", out, errOut)
	assert.Contains(t, out, "RESULT: PASS")
	for _, field := range []string{"summary", "totals", "exit_code", "status", "rules", "selection"} {
		assert.JSONEq(t, jsonField(t, whole, field), jsonField(t, merged, field), field)
	}
	assertMergeRefuses(t, shards[1:], args)
}

// assertMergeRefuses: an incomplete, doubled or mixed set of the shards
// of TestShardsMergeIntoTheUnshardedReport exits 2 naming the problem.
func assertMergeRefuses(t *testing.T, shards []string, args func(...string) []string) {
	other := filepath.Join(t.TempDir(), "seed8-shard2.json")
	a := args("--shard", "2/3", "--json", other)
	a[slices.Index(a, "--seed")+1] = "8"
	code, out, errOut := run(a...)
	require.Equal(t, 0, code, "%s\n%s", tail(out), errOut)
	for _, tc := range []struct {
		files []string
		want  string
	}{
		{shards[:1], "shard 2/3, 3/3 of the run is missing"},
		{[]string{shards[0], shards[0], shards[1], shards[2]}, "shard 1/3 is given twice (" + shards[0] + " and " + shards[0] + ")"},
		{[]string{shards[0], other, shards[2]}, other + " is not a shard of the same run as " + shards[0] + ": --seed 8, not 7"},
	} {
		code, out, errOut := run(append([]string{"merge"}, tc.files...)...)
		assert.Equal(t, 2, code, "%v: %s", tc.files, out)
		assert.Contains(t, errOut, "conformance merge: "+tc.want)
	}
}

func TestBaselineNamingAPassingCheckIsStale(t *testing.T) {
	t.Parallel()
	target := serveAll(t, io.Discard)
	known := filepath.Join(t.TempDir(), "known.json")
	require.NoError(t, os.WriteFile(known, []byte(`{"known_failures":[{"rule":"IYRA-SCORE","reason":"thought broken (TICKET-1)"}]}`), 0o600))
	code, out, _ := run(append([]string{"run", "--target", target, "--baseline", known}, ciSelection...)...)
	assert.Equal(t, 1, code, tail(out))
	assert.Contains(t, out, "STALE BASELINE: rule IYRA-SCORE is listed as a known failure (thought broken (TICKET-1))")
}

func TestBadBaselineOrShardIsAUsageError(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"known_failures":[{"rule":"IYRA-SCORE"}]}`), 0o600))
	code, _, errOut := run("run", "--baseline", bad)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "needs its reason")
	code, _, errOut = run("run", "--shard", "4/3")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "1 <= i <= n")
	code, _, errOut = run("merge")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "name the shards' JSON reports")
}
