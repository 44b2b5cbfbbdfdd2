package cli_test

import (
	"bytes"
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/agentaudit"
	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/audit"
	"github.com/agentgames/conformance/reference/iyra/proof"
)

// serveAudited serves Iyra with faults at rate and an audit.
func serveAudited(t *testing.T, rate float64) (string, *audit.Auditor) {
	t.Helper()
	p, _ := protocols.Lookup("iyra")
	a := audit.New(nil)
	srv := httptest.NewServer(cli.ServeMuxWith([]*suite.Protocol{p}, 7, log.New(io.Discard, "", 0), cli.ServeOptions{FaultRate: rate, Audit: a}))
	t.Cleanup(srv.Close)
	return srv.URL, a
}

// brokenRules lists the rules the audit names for every agent.
func brokenRules(a *audit.Auditor) map[string]bool {
	out := map[string]bool{}
	for _, ag := range cli.BuildAuditReport(a).Agents {
		for _, r := range ag.BrokenRules() {
			out[r] = true
		}
	}
	return out
}

// TestAuditNamesWhatAnAgentBroke plays the scripted agents of the Iyra
// agents.feature (conformance/agentaudit) that put the key in a URL, nest
// revision in an action, reuse an Idempotency-Key for another version,
// skip a replay and accept again, against serve --audit, and checks the
// audit names each rule with its quote in every format, while never
// showing a key.
func TestAuditNamesWhatAnAgentBroke(t *testing.T) {
	t.Parallel()
	base, a := serveAudited(t, 0)
	ctx := context.Background()
	for _, words := range []string{"puts its key in the query of a read", "reuses an Idempotency-Key for another version",
		"sends an action without revision", "puts revision inside the action",
		"starts a session before reading the replay of its finished one", "reads its assignment with its key and then accepts the task again"} {
		script, ok := agentaudit.Lookup("iyra", words)
		require.True(t, ok, words)
		require.NoError(t, script.Play(ctx, base+"/api/v5"), words)
	}
	key := iyraKey(t, base) // one more agent, whose key the pages must not show
	get(t, base+"/api/v5/store/echoes-of-iyra/assignment?api_key="+key, key)
	rules := brokenRules(a)
	for _, want := range []string{"IYRA-AGENT-NO-URL-KEY", "IYRA-AGENT-KEY-NOT-REUSED", "IYRA-AGENT-REVISION-REQUIRED", "IYRA-AGENT-REVISION-BESIDE-ACTION",
		"IYRA-AGENT-REPLAY-BEFORE-NEXT", "IYRA-AGENT-NO-REACCEPT"} {
		assert.True(t, rules[want], "%s missing from %v", want, rules)
	}
	for _, format := range []string{"", "?format=text", "?format=html"} {
		page := get(t, base+"/_audit"+format, "")
		assert.Contains(t, page, "IYRA-AGENT-NO-URL-KEY", format)
		assert.Contains(t, page, "never put it in URLs or public messages.", format)
		assert.NotContains(t, page, key, "the audit never shows the key (%s)", format)
	}
	dir := t.TempDir()
	var out bytes.Buffer
	require.NoError(t, cli.WriteAuditFiles(dir, a, &out))
	for _, f := range []string{"audit.json", "audit.html"} {
		raw, err := os.ReadFile(filepath.Join(dir, f))
		require.NoError(t, err)
		assert.Contains(t, string(raw), "IYRA-AGENT-KEY-NOT-REUSED", f)
		assert.NotContains(t, string(raw), key, f)
	}
	assert.Contains(t, out.String(), "rules broken")
	assert.Contains(t, out.String(), "(seed 7, ", "the text audit names serve's seed")
	assert.Regexp(t, `agent-[0-9a-f]+ \(iyra \d+ requests?\)`, out.String(), "counts in words, not Go map syntax")
	assert.NotContains(t, out.String(), "map[")
	html, err := os.ReadFile(filepath.Join(dir, "audit.html"))
	require.NoError(t, err)
	assert.Contains(t, string(html), "seed 7 · agents audited by the reference servers")
	assert.Regexp(t, `duration [1-9][0-9.]*(ms|s) · seed 7`, string(html), "the header shows how long serve audited, not a zero")
	assert.NotContains(t, string(html), "exit code", "an audit is no run")
	// The key put in a URL is the agent's own: that finding is filed
	// under the agent its key belongs to, not under "anonymous".
	for _, ag := range cli.BuildAuditReport(a).Agents {
		if ag.Agent == "anonymous" {
			assert.NotContains(t, ag.BrokenRules(), "IYRA-AGENT-NO-URL-KEY", "a URL key names its agent")
		}
	}
}

// TestNodeAgentsAgainstServeFaultsAudit plays the README's Node.js agent
// (examples/node-agent) against serve --faults --audit: the rude one, which
// ignores Retry-After and repeats a creation under a fresh key, is named
// for both rules; the polite one gets a clean audit.
func TestNodeAgentsAgainstServeFaultsAudit(t *testing.T) {
	t.Parallel() // the agents wait out Retry-After; they play side by side, each against its own server
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	script := filepath.Join("..", "..", "examples", "node-agent", "iyra-agent.mjs")
	type play struct {
		flag  string
		clean bool
		audit *audit.Auditor
		out   []byte
		err   error
	}
	plays := []*play{{flag: "--rude"}, {flag: "--polite", clean: true}}
	var wg sync.WaitGroup
	for _, c := range plays {
		var base string
		base, c.audit = serveAudited(t, 0.5)
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.out, c.err = exec.Command(node, script, base, c.flag).CombinedOutput()
		}()
	}
	wg.Wait()
	for _, c := range plays {
		require.NoError(t, c.err, "%s", c.out)
		rep := cli.BuildAuditReport(c.audit)
		if c.clean {
			assert.True(t, rep.Clean, "the polite agent broke %v", brokenRules(c.audit))
			continue
		}
		rules := brokenRules(c.audit)
		assert.True(t, rules["IYRA-AGENT-RETRY-AFTER"], "%v", rules)
		assert.True(t, rules["IYRA-AGENT-SESSION-KEY-STABLE"], "%v", rules)
	}
}

// iyraKey registers an agent with the reference, as the scripted agents
// of conformance/agentaudit do, and returns its key.
func iyraKey(t *testing.T, base string) string {
	t.Helper()
	ag, err := agentaudit.NewIyraAgent(context.Background(), base+"/api/v5")
	require.NoError(t, err)
	return ag.Key
}

func post(t *testing.T, url, key, idem, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if idem != "" {
		req.Header.Set("Idempotency-Key", idem)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func get(t *testing.T, url, key string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(raw)
}

// TestForgeAuditNamesAProbedChallengeAndASessionBody plays the scripted
// FORGE agents of agents.feature (conformance/agentaudit) that open a
// session naming a levelId and probe a challenge input against serve
// --audit, and checks the audit names both rules and nothing else.
func TestForgeAuditNamesAProbedChallengeAndASessionBody(t *testing.T) {
	t.Parallel()
	p, _ := protocols.Lookup("forge")
	a := audit.New(nil)
	srv := httptest.NewServer(cli.ServeMuxWith([]*suite.Protocol{p}, 7, log.New(io.Discard, "", 0), cli.ServeOptions{Audit: a}))
	t.Cleanup(srv.Close)
	for _, words := range []string{"opens a session naming a levelId", "queries one of its challenge inputs"} {
		script, ok := agentaudit.Lookup("forge", words)
		require.True(t, ok, words)
		require.NoError(t, script.Play(context.Background(), srv.URL), words)
	}
	rules := brokenRules(a)
	assert.True(t, rules["FORGE-AGENT-EMPTY-SESSION-BODY"], "%v", rules)
	assert.True(t, rules["FORGE-AGENT-NO-CHALLENGE-PROBE"], "%v", rules)
	assert.False(t, rules["FORGE-AGENT-ONE-SUBMISSION"], "%v", rules)
}

// TestPhantomPressAuditNamesAWriteBeforeRetryAfter: with every counted
// write faulted, an agent that writes again at once is named for the
// quota answer's Retry-After, and a run without budget_turns is named too.
func TestPhantomPressAuditNamesAWriteBeforeRetryAfter(t *testing.T) {
	t.Parallel()
	p, _ := protocols.Lookup("phantom-press")
	a := audit.New(nil)
	srv := httptest.NewServer(cli.ServeMuxWith([]*suite.Protocol{p}, 7, log.New(io.Discard, "", 0), cli.ServeOptions{Audit: a, FaultRate: 1}))
	t.Cleanup(srv.Close)
	base := srv.URL + p.BasePath
	for _, words := range []string{"starts a run again at once after a daily_write_limit answer", "starts a run without budget_turns"} {
		script, ok := agentaudit.Lookup("phantom-press", words)
		require.True(t, ok, words)
		_ = script.Play(context.Background(), base) // faults are drawn among both quota answers: the status may differ from the script's
	}
	rules := brokenRules(a)
	assert.True(t, rules["PP-AGENT-RETRY-AFTER"] || rules["PP-AGENT-WAIT-503"], "%v", rules)
	assert.True(t, rules["PP-AGENT-BUDGET-TURNS"], "%v", rules)
}

// solvePoW finds the proof of work an Iyra acceptance asks for.
func solvePoW(challenge string, difficulty int) string {
	s, _ := proof.Solve(context.Background(), challenge, difficulty)
	return s
}
