package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMisspeltBaselineEntriesExitTwoNamingThem: an entry that names no
// known rule, protocol or check is a usage error (exit 2, before any
// request) naming the entry and the nearest known name; the README's
// example baseline names only real ones.
func TestMisspeltBaselineEntriesExitTwoNamingThem(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"known_failures":[
		{"rule":"IYRA-SCOER","reason":"typo"},
		{"protocol":"iyra","check":"the score is computd","reason":"typo"},
		{"protocol":"phantompress","check":"x","reason":"typo"}]}`), 0o600))
	code, _, errOut := run("run", "--protocol", "iyra", "--baseline", bad)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `entry 1 (rule IYRA-SCOER): no protocol catalogues rule IYRA-SCOER (see conformance rules); did you mean "IYRA-SCORE"?`)
	assert.Contains(t, errOut, `entry 2 (check iyra › the score is computd): iyra has no check named "the score is computd"; did you mean`)
	assert.Contains(t, errOut, `entry 3 (check phantompress › x): unknown protocol "phantompress"; did you mean "phantom-press"?`)

	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	example := regexp.MustCompile("(?s)```json\n(\\{\"known_failures\".*?)```").FindSubmatch(readme)
	require.NotNil(t, example, "the README's example baseline")
	good := filepath.Join(dir, "readme.json")
	require.NoError(t, os.WriteFile(good, example[1], 0o600))
	code, out, errOut := run("run", "--protocol", "iyra", "--rule", "IYRA-SCORE", "--checks", "-1", "--quiet", "--baseline", good)
	assert.NotContains(t, errOut, "baseline:", "the README's example names real rules and checks")
	assert.NotEqual(t, 2, code, "%s\n%s", tail(out), errOut)
}
