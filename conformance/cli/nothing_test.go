package cli_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
)

// wrongTargets are servers that are not the protocol under test: a static
// server that has nothing (404 everywhere), an HTML catch-all (200 text/html
// to every method and path) and another protocol's reference.
func wrongTargets(t *testing.T, p *suite.Protocol) map[string]string {
	t.Helper()
	static := httptest.NewServer(http.NotFoundHandler())
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><html><body><h1>Welcome</h1></body></html>")
	}))
	other := "forge"
	if p.Name == "forge" {
		other = "iyra"
	}
	op, _ := protocols.Lookup(other)
	foreign := httptest.NewServer(cli.ServeMux([]*suite.Protocol{op}, 1, log.New(io.Discard, "", 0)))
	t.Cleanup(func() { static.Close(); html.Close(); foreign.Close() })
	return map[string]string{"a static 404 server": static.URL, "an HTML catch-all": html.URL, other + "'s server": foreign.URL}
}

// TestNoPassOnAWrongTarget: every protocol run against something that is
// not its deployment exits 2 saying nothing was checked, or 1 naming the
// wrong target, never 0 (issue 19 item 3).
func TestNoPassOnAWrongTarget(t *testing.T) {
	t.Parallel()
	for _, p := range protocols.All() {
		for what, url := range wrongTargets(t, p) {
			t.Run(p.Name+" against "+what, func(t *testing.T) {
				t.Parallel()
				junit := filepath.Join(t.TempDir(), "r.xml")
				args := append([]string{"run", "--quiet", "--target", url, "--protocol", p.Name, "--checks", "2",
					"--timeout", "5s", "--cases", t.TempDir(), "--junit", junit}, p.ServeFlags...)
				code, out, errOut := run(args...)
				xml, err := os.ReadFile(junit)
				require.NoError(t, err)
				told := (code == 2 && strings.Contains(out, "nothing was checked")) ||
					(code == 1 && strings.Contains(out, "WRONG TARGET") && strings.Contains(string(xml), `type="wrong-target"`) &&
						strings.Contains(out, "RESULT: FAIL (exit 1, wrong target)"))
				if p.Name == "pyyol-push" {
					// The push agent's /health is itself under test (its
					// preflight only asks for an answer, and helper
					// "routes" owns it): its MUST checks fail here.
					told = code == 1 || code == 2
				}
				assert.True(t, told, "exit %d:\n%s\n%s", code, tail(out), errOut)
				if code == 1 && strings.Contains(out, "WRONG TARGET") && p.Name != "pyyol-push" {
					// Its checks never ran: the MUST line says so, not
					// that a selection left them out.
					assert.Contains(t, out, "not run (wrong target)")
					assert.NotContains(t, out, "not selected (--rule, --tags, --shard)")
				}
				assert.NotContains(t, out, "RESULT: PASS")
			})
		}
	}
}

// TestREADMEExitCodesAgree: the README's exit-code table names the words
// the program prints for each code (the runs above and the merge and
// baseline tests show the program exits so).
func TestREADMEExitCodesAgree(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	rows := map[string]string{}
	for _, line := range strings.Split(string(raw), "\n") {
		if m := exitRow.FindStringSubmatch(line); m != nil {
			rows[m[1]] = m[2]
		}
	}
	require.Len(t, rows, 3, "the README's exit-code table")
	assert.Contains(t, rows["1"], "WRONG TARGET")
	assert.Contains(t, rows["1"], "stale")
	assert.Contains(t, rows["2"], "nothing was checked")
	assert.Contains(t, rows["2"], "merge")
	assert.Equal(t, []int{0, 1, 2}, []int{cli.ExitPass, cli.ExitFail, cli.ExitError})
	_, out, _ := run("--help")
	assert.Contains(t, out, "1 a rule failed or the target is not the protocol (WRONG TARGET), 2 harness error, bad usage or nothing checked")
}

var exitRow = regexp.MustCompile("^\\| `([012])` \\| (.*) \\|$")
