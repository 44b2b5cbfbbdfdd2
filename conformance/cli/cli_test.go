package cli_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
)

// run invokes the command line in-process.
func run(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = cli.Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestHelpListsEveryVerbAndExitCodes(t *testing.T) {
	t.Parallel()
	code, out, _ := run("--help")
	assert.Equal(t, 0, code)
	for _, verb := range []string{"run", "serve", "rules", "vectors", "replay", "merge"} {
		assert.Contains(t, out, "  "+verb+" ")
	}
	assert.Contains(t, out, "Exit codes: 0 all passed, 1 a rule failed or the target is not the protocol (WRONG TARGET), 2")
}

func TestEveryVerbHasHelpWithExamples(t *testing.T) {
	t.Parallel()
	for _, verb := range []string{"run", "serve", "rules", "vectors", "replay", "merge", "solve"} {
		code, out, errOut := run(verb, "--help")
		assert.Equal(t, 0, code, verb)
		assert.Contains(t, out, "Usage: conformance "+verb, "%s: help asked for goes to stdout", verb)
		assert.Contains(t, out, "Examples:", verb)
		assert.Empty(t, errOut, verb)
	}
}

func TestAMistypedFlagNamesTheNearestOneInOneLine(t *testing.T) {
	t.Parallel()
	for typo, want := range map[string]string{"--protcol": "--protocol", "--max-write": "--max-writes",
		"--junti": "--junit", "--sed": "--seed", "--secert": "--secret"} {
		code, out, errOut := run("run", typo, "x")
		assert.Equal(t, 2, code, typo)
		assert.Empty(t, out, typo)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%s: one line, not the whole usage: %s", typo, errOut)
		assert.Contains(t, errOut, "unknown flag "+typo+" (did you mean "+want+"?)", typo)
	}
	_, _, errOut := run("run", "--zzzzzzzz")
	assert.NotContains(t, errOut, "did you mean", "nothing is near enough to suggest")
}

func TestALivePushRunWithoutItsSecretIsAUsageError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, out, errOut := run("run", "--target", "http://127.0.0.1:1/turn", "--protocol", "pyyol-push", "--cases", dir)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--protocol pyyol-push with --target needs --secret")
	assert.Empty(t, out, "refused before any check runs")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "no case file for a run that never started")
}

func TestUsageErrorsExitTwoWithAClearMessage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string
		why  string
	}{
		{[]string{"frobnicate"}, `unknown command "frobnicate"`, "unknown verb"},
		{[]string{"run", "--target", "http://127.0.0.1:1"}, "--target needs --protocol", "a target must name its contract"},
		{[]string{"run", "--protocol", "nope"}, `unknown protocol "nope"`, "unknown protocol"},
		{[]string{"run", "--no-such-flag"}, "unknown flag --no-such-flag", "bad flag"},
		{[]string{"run", "--tags", "@a and ("}, "tag expression", "bad tag expression"},
		{[]string{"rules", "--format", "yaml"}, "--format must be text or json", "bad format"},
		{[]string{"replay"}, "give exactly one case file", "missing case file"},
		{[]string{"run", "--rule", "IYRA-NO-SUCH-RULE"}, "unknown rule IYRA-NO-SUCH-RULE", "a typo in --rule"},
		{[]string{"run", "http://127.0.0.1:1", "--protocol", "iyra"}, `unexpected argument "http://127.0.0.1:1"`, "a URL without --target must not run the embedded suite"},
		{[]string{"rules", "iyra"}, `unexpected argument "iyra"`, "stray argument"},
		{[]string{"run", "--timeout", "-1s"}, "--timeout must be positive", "negative timeout"},
		{[]string{"run", "--rate", "-5"}, "--rate must be zero", "negative rate"},
		{[]string{"run", "--target", "ftp://x", "--protocol", "iyra"}, "is not an http(s) URL", "target scheme checked first"},
		{[]string{"run", "--json", "/tmp"}, "is a folder, not a file", "a report path that is a folder"},
		{[]string{"run", "--json", "/no/such/dir/r.json"}, "folder /no/such/dir does not exist", "reports are checked before the run"},
		{[]string{"replay", "/no/such/case.json"}, "reading case file", "missing file"},
		{[]string{"run", "--allow-authoring=maybe"}, "takes true or false", "a protocol's boolean flag"},
		{[]string{"run", "--frame-wait", "soon"}, "takes a positive duration", "a protocol's duration flag"},
	}
	for _, c := range cases {
		code, _, errOut := run(c.args...)
		assert.Equal(t, 2, code, c.why)
		assert.Contains(t, errOut, c.want, c.why)
	}
}

func TestUncoveredAsJSONIsAnEmptyList(t *testing.T) {
	t.Parallel()
	code, out, errOut := run("rules", "--uncovered", "--format", "json")
	assert.Equal(t, 0, code, errOut)
	assert.JSONEq(t, "[]", out, "CI scripts expect [] when every rule is checked, never null")
}
