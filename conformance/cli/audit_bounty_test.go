package cli_test

import (
	"context"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/agentaudit"
	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/audit"
)

// serveBountyAudited serves protocol name with an audit and faults at rate.
func serveBountyAudited(t *testing.T, name string, rate float64) (string, *audit.Auditor) {
	t.Helper()
	p, _ := protocols.Lookup(name)
	a := audit.New(nil)
	srv := httptest.NewServer(cli.ServeMuxWith([]*suite.Protocol{p}, 7, log.New(io.Discard, "", 0), cli.ServeOptions{FaultRate: rate, Audit: a}))
	t.Cleanup(srv.Close)
	return srv.URL + p.BasePath, a
}

// playBounty plays the scripted agents of the bounty's agents.feature
// (conformance/agentaudit) named by words against base.
func playBounty(t *testing.T, base string, words ...string) {
	t.Helper()
	for _, w := range words {
		script, ok := agentaudit.Lookup("bounty", w)
		require.True(t, ok, w)
		require.NoError(t, script.Play(context.Background(), base), w)
	}
}

// TestBountyAuditCleanAndRude: an agent that reads the manifest, claims
// the share it grinds and follows next_move gets a clean audit against
// serve --audit; agents that guess a path, list an overlong contact,
// solve unread and unclaimed shares, solve when told to wait and combine
// alone are each named, by agent_id.
func TestBountyAuditCleanAndRude(t *testing.T) {
	t.Parallel()
	base, a := serveBountyAudited(t, "bounty", 0)
	playBounty(t, base, "plays by the rules")
	require.True(t, cli.BuildAuditReport(a).Clean, "the polite agent broke %v", brokenRules(a))

	rules := map[string]bool{}
	for _, words := range []string{"solves a share before reading the manifest or the puzzle", "calls a path the platform does not advertise",
		"lists a contact of 300 characters", "lists itself working on one share and solves another", "is told wait and solves at once",
		"combines its one share alone"} {
		base, a = serveBountyAudited(t, "bounty", 0) // each on its own board: next_move depends on the others' solves
		playBounty(t, base, words)
		for r := range brokenRules(a) {
			rules[r] = true
		}
	}
	for _, want := range []string{"BOUNTY-AGENT-MANIFEST-FIRST", "BOUNTY-AGENT-TRUST-ENDPOINTS", "BOUNTY-AGENT-CONTACT",
		"BOUNTY-AGENT-CLAIM-BEFORE-GRIND", "BOUNTY-AGENT-WAIT", "BOUNTY-AGENT-COMBINE-K"} {
		assert.True(t, rules[want], "%s missing from %v", want, rules)
	}
	assert.False(t, rules["BOUNTY-AGENT-STALE-410"], "%v", rules)
	rude := &agentaudit.BountyAgent{Base: base}
	rude.Register(context.Background())
	rude.Live(context.Background(), false)
	rude.Solve(context.Background(), 5, nil)
	require.NoError(t, rude.Err())
	var agents []string
	for _, ag := range cli.BuildAuditReport(a).Agents {
		agents = append(agents, ag.Agent)
	}
	assert.Contains(t, agents, rude.ID, "the audit names the agent by its agent_id")
}

// TestBountyAuditStale410: with a rotation under every round-bound call,
// an agent that reads the registry after each 410 stays clean, and one
// that sends the closed round another request is named.
func TestBountyAuditStale410(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	base, a := serveBountyAudited(t, "bounty", 1)
	polite := &agentaudit.BountyAgent{Base: base}
	polite.Register(ctx)
	for i := 0; i < 3; i++ {
		polite.Live(ctx, false)
		assert.Equal(t, 410, polite.Solve(ctx, 2, nil))
	}
	require.NoError(t, polite.Err())
	assert.False(t, brokenRules(a)["BOUNTY-AGENT-STALE-410"], "%v", brokenRules(a))
	playBounty(t, base, "solves the closed round again after its 410")
	assert.True(t, brokenRules(a)["BOUNTY-AGENT-STALE-410"], "%v", brokenRules(a))
}

// TestBountyAuditOverMCP: an agent playing through the MCP tools is
// audited like one playing over HTTP, named by its agent_id, and the
// finding names the tool call.
func TestBountyAuditOverMCP(t *testing.T) {
	t.Parallel()
	base, a := serveBountyAudited(t, "bounty", 0)
	agent := &agentaudit.BountyAgent{Base: base}
	agent.Register(context.Background())
	agent.Live(context.Background(), false)
	require.NoError(t, agent.Err())
	args, _ := json.Marshal(map[string]any{"challenge_id": agent.CID, "agent_id": agent.ID, "share_index": 3,
		"solution": map[string]any{"plaintext_hex": "00"}})
	req, err := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bounty_solve","arguments":`+string(args)+`}}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Contains(t, string(body), "wrong_solution", "the tool answered")
	var found *cli.AuditFinding
	for _, ag := range cli.BuildAuditReport(a).Agents {
		for i, f := range ag.Findings {
			if ag.Agent == agent.ID && f.Rule == "BOUNTY-AGENT-MANIFEST-FIRST" {
				found = &ag.Findings[i]
			}
		}
	}
	require.NotNil(t, found, "%v", brokenRules(a))
	assert.Equal(t, "POST /mcp (tools/call bounty_solve)", found.Request)
	assert.Equal(t, 422, found.Status)
}
