package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ffResult is the part of a JSON report's result these tests read.
type ffResult struct {
	Status, Message string
	FailedRule      string `json:"failed_rule"`
}

// runIyraJSON runs the Iyra checks against target with args and returns
// the exit code and the JSON report's results.
func runIyraJSON(t *testing.T, target string, args ...string) (int, []ffResult) {
	t.Helper()
	js := filepath.Join(t.TempDir(), "r.json")
	code, out, errOut := run(append([]string{"run", "--target", target, "--protocol", "iyra", "--checks", "-1", "--quiet",
		"--json", js, "--cases", t.TempDir()}, args...)...)
	raw, err := os.ReadFile(js)
	require.NoError(t, err, "exit %d: %s\n%s", code, tail(out), errOut)
	var rep struct{ Results []ffResult }
	require.NoError(t, json.Unmarshal(raw, &rep))
	return code, rep.Results
}

// TestFailFastStopsAtTheFirstFailure: run --fail-fast against a target
// that breaks every action exits 1 with one failure and every later check
// skipped naming the flag; with every rule it fails listed in a baseline,
// nothing stops the run.
func TestFailFastStopsAtTheFirstFailure(t *testing.T) {
	t.Parallel()
	broken := brokenActionsTarget(t)
	code, results := runIyraJSON(t, broken, "--fail-fast")
	require.Equal(t, 1, code)
	failed, stopped := 0, 0
	for _, r := range results {
		switch {
		case r.Status == "fail":
			failed++
		case r.Status == "skip" && strings.Contains(r.Message, "--fail-fast"):
			stopped++
		}
	}
	assert.Equal(t, 1, failed, "one failure ends the run")
	assert.Greater(t, stopped, 10, "the checks after it skip naming --fail-fast")

	_, all := runIyraJSON(t, broken)
	var entries []string
	listed := map[string]bool{}
	fails := 0
	for _, r := range all {
		if r.Status == "fail" {
			fails++
			if !listed[r.FailedRule] {
				listed[r.FailedRule] = true
				entries = append(entries, `{"rule":"`+r.FailedRule+`","reason":"fixed next release"}`)
			}
		}
	}
	require.Greater(t, fails, 1, "the target fails more than one check")
	known := filepath.Join(t.TempDir(), "known.json")
	require.NoError(t, os.WriteFile(known, []byte(`{"known_failures":[`+strings.Join(entries, ",")+`]}`), 0o644))
	_, results = runIyraJSON(t, broken, "--fail-fast", "--baseline", known)
	require.Len(t, results, len(all), "the baselined run ran every check")
	for _, r := range results {
		assert.NotContains(t, r.Message, "--fail-fast", "a baselined failure does not stop the run")
	}
}
