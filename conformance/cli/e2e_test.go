package cli_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
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
	"github.com/agentgames/conformance/features"
)

// serveAll starts what `conformance serve` serves, on a loopback port.
func serveAll(t *testing.T, logs io.Writer) string {
	t.Helper()
	srv := httptest.NewServer(cli.ServeMux(protocols.All(), 1, log.New(logs, "", 0)))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestServeThenRunEachProtocolWritesAllReports(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	base := serveAll(t, &logs)
	for _, p := range protocols.All() {
		// A target without a path gets the protocol's documented base path.
		protocol, target := p.Name, base
		dir := t.TempDir()
		junit, js, html := filepath.Join(dir, "r.xml"), filepath.Join(dir, "r.json"), filepath.Join(dir, "r.html")
		// A small selection: the full live run of every protocol is the
		// contract test's (conformance/protocols); this test is about the
		// command line and its report files. ServeFlags are what serve's
		// banner prints for the protocol (the reference's dev credentials).
		args := append([]string{"run", "--target", target, "--protocol", protocol, "--checks", "2",
			"--junit", junit, "--json", js, "--html", html, "--cases", dir}, smallSelection(t, p)...)
		code, out, errOut := run(append(args, p.ServeFlags...)...)
		require.Equal(t, 0, code, "%s: %s\n%s", protocol, tail(out), errOut)
		assert.Contains(t, out, "RESULT: PASS")
		assertJUnit(t, junit)
		assertJSONKeyedByRule(t, js, protocol)
		page, err := os.ReadFile(html)
		require.NoError(t, err)
		assert.Contains(t, string(page), "<html")
	}
	assert.Contains(t, logs.String(), "POST /api/v5/store/echoes-of-iyra/sessions 201", "one log line per request")
}

// smallSelection picks a few checks of p that a live target runs: its
// property tests, or the scenarios of the first rule a scenario outside
// @control checks.
func smallSelection(t *testing.T, p *suite.Protocol) []string {
	if len(p.Properties) > 0 {
		return []string{"--tags", "@property"}
	}
	scenarios, err := features.ParseFS(p.FeatureFS(), p.DataFolder())
	require.NoError(t, err)
	for _, s := range scenarios {
		if s.HasTag("control") {
			continue
		}
		for _, tag := range s.Tags {
			if strings.HasPrefix(tag, "@"+p.RulePrefix+"-") {
				return []string{"--rule", strings.TrimPrefix(tag, "@")}
			}
		}
	}
	t.Fatalf("%s: no scenario a live target runs", p.Name)
	return nil
}

func assertJUnit(t *testing.T, path string) {
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	require.NoError(t, xml.Unmarshal(raw, &doc))
	assert.Positive(t, doc.Tests)
	assert.Zero(t, doc.Failures)
}

func assertJSONKeyedByRule(t *testing.T, path, protocol string) {
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var doc struct {
		Rules map[string]struct {
			Protocol string `json:"protocol"`
			Quote    string `json:"quote"`
			Status   string `json:"status"`
		} `json:"rules"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	require.NotEmpty(t, doc.Rules)
	for id, r := range doc.Rules {
		assert.Equal(t, protocol, r.Protocol, id)
		assert.NotEmpty(t, r.Quote, id)
	}
}

// TestEmbeddedRunOfEveryProtocolPasses: the README's first command, with
// no --protocol, selects every protocol, runs each against its embedded
// reference, prints each one's MUST line and exits 0. It shows what only
// the CLI can on one shard of the run (every protocol has checks in each
// of eight); that every check of every protocol passes embedded is
// TestEveryProtocolPassesTheContract's (conformance/protocols), and
// .ci/run runs the whole command as written.
func TestEmbeddedRunOfEveryProtocolPasses(t *testing.T) {
	t.Parallel()
	code, out, errOut := run("run", "--checks", "2", "--quiet", "--shard", "1/8")
	require.Equal(t, 0, code, "%s\n%s", tail(out), errOut)
	for _, p := range protocols.All() {
		assert.Regexp(t, `(?m)^`+regexp.QuoteMeta(p.Name)+` +[1-9][0-9]* +0 +`, out, "%s ran checks and failed none", p.Name)
		assert.Contains(t, out, p.Name+": MUST rules checked on this target: ")
	}
	assert.Contains(t, out, "RESULT: PASS (exit 0)")
}

// brokenActionsTarget serves every protocol's reference on loopback,
// except that every Iyra action is answered with a malformed body (a
// revision that is no number): a deployment that breaks the contract,
// which a run must fail (exit 1), neither error nor pass. It returns the
// server's URL; the server closes with the test.
func brokenActionsTarget(t *testing.T) string {
	t.Helper()
	ref := cli.ServeMux(protocols.All(), 1, log.New(io.Discard, "", 0))
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/actions") {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"revision":"not-a-number"}`))
			return
		}
		ref.ServeHTTP(w, r)
	}))
	t.Cleanup(broken.Close)
	return broken.URL
}

func TestBrokenTargetFailsAndItsCaseReplays(t *testing.T) {
	t.Parallel()
	broken := brokenActionsTarget(t)
	dir := t.TempDir()
	code, out, _ := run("run", "--target", broken, "--protocol", "iyra", "--checks", "-1", "--cases", dir)
	require.Equal(t, 1, code, tail(out))
	cases, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NotEmpty(t, cases)
	code, out, _ = run("replay", cases[0])
	assert.Equal(t, 1, code, "the case still fails against the broken target: %s", tail(out))
	good := serveAll(t, io.Discard)
	code, out, _ = run("replay", cases[0], "--target", good)
	assert.Equal(t, 0, code, "and passes against the reference: %s", tail(out))
}

func TestRulesAndVectors(t *testing.T) {
	t.Parallel()
	code, out, _ := run("rules", "--uncovered")
	assert.Equal(t, 0, code)
	assert.Empty(t, out, "every rule is checked")
	code, out, _ = run("rules", "--protocol", "iyra", "--format", "json")
	require.Equal(t, 0, code)
	var rows []struct {
		ID        string   `json:"id"`
		Level     string   `json:"level"`
		Quote     string   `json:"quote"`
		Scenarios []string `json:"scenarios"`
		Side      string   `json:"side"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	require.NotEmpty(t, rows)
	for _, r := range rows {
		if r.Side == "agent" {
			continue // audited by serve --audit, never by a scenario
		}
		assert.NotEmpty(t, r.Scenarios, r.ID)
	}
	code, out, _ = run("vectors")
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, " 0 mismatches")
}

func tail(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}
