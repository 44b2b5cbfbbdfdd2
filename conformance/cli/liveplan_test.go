package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/verdict"
)

// liveReport is the part of the JSON report the live plan tests read.
type liveReport struct {
	Results []struct {
		Name    string   `json:"name"`
		Kind    string   `json:"kind"`
		Status  string   `json:"status"`
		Message string   `json:"message"`
		Tags    []string `json:"tags"`
	} `json:"results"`
	Summary map[string]struct {
		MustChecked   int                 `json:"must_checked"`
		MustTotal     int                 `json:"must_total"`
		UncheckedMust []verdict.Unchecked `json:"unchecked_must"`
	} `json:"summary"`
}

// liveRun runs `conformance run --target` against what serve serves and
// returns its output and JSON report.
func liveRun(t *testing.T, protocol string, extra ...string) (string, liveReport) {
	t.Helper()
	var logs bytes.Buffer
	base := serveAll(t, &logs)
	js := filepath.Join(t.TempDir(), "r.json")
	args := append([]string{"run", "--target", base, "--protocol", protocol, "--quiet", "--json", js,
		"--cases", t.TempDir()}, extra...)
	code, out, errOut := run(args...)
	require.Equal(t, 0, code, "%s\n%s", tail(out), errOut)
	data, err := os.ReadFile(js)
	require.NoError(t, err)
	var rep liveReport
	require.NoError(t, json.Unmarshal(data, &rep))
	return out, rep
}

// The plan comes before any result, names what the run spends and the MUST
// rules it will not check, with why.
func TestLivePlanIsPrintedBeforeTheRun(t *testing.T) {
	t.Parallel()
	out, _ := liveRun(t, "phantom-press", "--rule", "PP-REGISTER", "--max-agents", "2", "--checks", "-1")
	plan := strings.Index(out, "phantom-press live plan:")
	require.GreaterOrEqual(t, plan, 0, out)
	assert.Less(t, plan, strings.Index(out, "RESULT:"), "the plan comes first")
	assert.Contains(t, out, "plan: 2 identities (200 a day documented; --max-agents 2), 56 runs (28 per identity; 30 a day documented)")
	assert.Contains(t, out, "PP-QUOTA-RESET: a daily reset at 00:00 JST")
	assert.Contains(t, out, "PP-QUOTA-503: needs a quota store outage")
}

// A --rule run with --quiet counts the MUST rules its selection leaves out
// in one line; --list-unselected lists each of them by ID (and says so in
// --help), so the one check is not buried under the catalogue by default.
func TestTheUnselectedMustRulesAreCountedUnlessListed(t *testing.T) {
	t.Parallel()
	counted, _ := liveRun(t, "phantom-press", "--rule", "PP-REGISTER", "--max-agents", "2", "--checks", "-1")
	m := regexp.MustCompile(`\n    (\d+) more that no selected check cites it \(--rule, --tags; --list-unselected`).FindStringSubmatch(counted)
	require.NotNil(t, m, "the plan counts the rules the selection leaves out: %s", counted)
	n, _ := strconv.Atoi(m[1])
	require.Greater(t, n, 10, "one rule selected leaves most MUST rules out")
	listedLine := regexp.MustCompile(`\n    PP-[A-Z0-9-]+: no selected check cites it\n`)
	assert.NotRegexp(t, listedLine, counted, "counted, not listed")
	listed, _ := liveRun(t, "phantom-press", "--rule", "PP-REGISTER", "--max-agents", "2", "--checks", "-1", "--list-unselected")
	assert.Equal(t, n, strings.Count(listed, ": no selected check cites it\n"), "--list-unselected lists each of them by ID")
	assert.Contains(t, listed, "    PP-SCORE: no selected check cites it\n")
	assert.NotContains(t, listed, " more that no selected check cites it")
	_, help, _ := run("run", "--help")
	assert.Contains(t, help, "-list-unselected")
}

// A default live run of The Phantom Press against a fresh serve skips
// only the @control scenarios, runs its property test, and its MUST line
// lists as unchecked only rules the plan said it would not check.
func TestPhantomPressLiveRunSkipsOnlyControl(t *testing.T) {
	t.Parallel()
	out, rep := liveRun(t, "phantom-press", "--checks", "5")
	assertOnlyControlSkipped(t, rep)
	assertMustLineMatchesPlan(t, out, rep, "phantom-press")
}

// The same for Iyra.
func TestIyraLiveRunSkipsOnlyControl(t *testing.T) {
	t.Parallel()
	out, rep := liveRun(t, "iyra", "--checks", "5")
	assertOnlyControlSkipped(t, rep)
	assertMustLineMatchesPlan(t, out, rep, "iyra")
}

// targetCannot are the scenarios outside @control that the reference, as
// serve serves it, cannot take part in: it refuses a creation for another
// version and assigns no version of another game, so a reused key cannot be
// told apart (the scenarios say so when they skip).
var targetCannot = map[string]bool{
	"reusing a key for another version creates no new session": true,
	"reusing a key for another game creates no new session":    true,
}

// assertOnlyControlSkipped fails on a skipped property test or on a
// skipped scenario that is not tagged @control (the JSON report keeps no
// tags, so the skip's own message tells: every @control step says it needs
// the embedded reference, or --exhaust-quotas where that reaches it live).
func assertOnlyControlSkipped(t *testing.T, rep liveReport) {
	t.Helper()
	ran := 0
	for _, r := range rep.Results {
		if r.Status != "skip" {
			ran++
			continue
		}
		if r.Kind == "property" {
			t.Errorf("the property %q skipped: %s", r.Name, r.Message)
			continue
		}
		controlled := strings.Contains(r.Message, "embedded") || strings.Contains(r.Message, "--exhaust-quotas")
		if !controlled && !targetCannot[r.Name] {
			t.Errorf("%q skipped for another reason than control: %s", r.Name, r.Message)
		}
	}
	assert.Greater(t, ran, 100, "the run checked little")
}

// assertMustLineMatchesPlan checks that every MUST rule the run left
// unchecked was named in the plan printed before it.
func assertMustLineMatchesPlan(t *testing.T, out string, rep liveReport, protocol string) {
	t.Helper()
	s, ok := rep.Summary[protocol]
	require.True(t, ok)
	assert.Contains(t, out, protocol+": MUST rules checked on this target: ")
	assert.Contains(t, out, "(every live-checkable one: ", "the MUST line says every live-checkable MUST rule was checked")
	plan := out[:strings.Index(out, "RESULT:")]
	unselected := 0
	for _, u := range s.UncheckedMust {
		if u.Reason == "no selected check cites it" {
			unselected++
			assert.NotContains(t, plan, "    "+u.Rule+": ", "a rule merely not selected is counted, not listed")
			continue
		}
		assert.Contains(t, plan, "    "+u.Rule+": ", "%s is unchecked (%s) but the plan did not say so", u.Rule, u.Reason)
	}
	if unselected > 0 {
		assert.Contains(t, plan, fmt.Sprintf("    %d more that no selected check cites it", unselected))
	}
	assert.Equal(t, s.MustTotal-len(s.UncheckedMust), s.MustChecked)
	// The plan names no more than the run leaves unchecked: a rule for
	// agents, audited by serve --audit, is never listed against a platform.
	assert.Contains(t, plan, fmt.Sprintf("MUST rules this run will not check: %d\n", len(s.UncheckedMust)))
}

// Without --exhaust-quotas the plan says which rules it would check; with
// it, a live run checks them.
func TestExhaustQuotasChecksTheQuotaRulesLive(t *testing.T) {
	t.Parallel()
	rules := []string{"--rule", "PP-QUOTA-WRITES-AGENT,PP-QUOTA-RUNS,PP-QUOTA-429", "--checks", "-1"}
	// PP-REGISTER: a check that decides, so the run without the quota
	// rules still passes.
	out, _ := liveRun(t, "phantom-press", append(rules, "--rule", "PP-REGISTER")...)
	assert.Contains(t, out, "PP-QUOTA-RUNS: spends a throwaway identity's whole daily allowance: run with --exhaust-quotas")

	out, rep := liveRun(t, "phantom-press", append(rules, "--exhaust-quotas")...)
	plan := out[:strings.Index(out, "RESULT:")]
	for _, rule := range []string{"PP-QUOTA-WRITES-AGENT", "PP-QUOTA-RUNS", "PP-QUOTA-429"} {
		assert.NotContains(t, plan, "    "+rule+": ")
		for _, u := range rep.Summary["phantom-press"].UncheckedMust {
			assert.NotEqual(t, rule, u.Rule, "%s unchecked with --exhaust-quotas: %s", rule, u.Reason)
		}
	}
}
