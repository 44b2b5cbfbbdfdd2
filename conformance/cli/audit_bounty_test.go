package cli_test

import (
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/audit"
	"github.com/agentgames/conformance/reference/bounty"
)

// bountyAgent plays the bounty's HTTP surface for a scripted agent.
type bountyAgent struct {
	t    *testing.T
	base string
	id   string
	cid  string
	man  []bounty.Puzzle
}

// serveBountyAudited serves protocol name with an audit and faults at rate.
func serveBountyAudited(t *testing.T, name string, rate float64) (string, *audit.Auditor) {
	t.Helper()
	p, _ := protocols.Lookup(name)
	a := audit.New(nil)
	srv := httptest.NewServer(cli.ServeMuxWith([]*suite.Protocol{p}, 7, log.New(io.Discard, "", 0), cli.ServeOptions{FaultRate: rate, Audit: a}))
	t.Cleanup(srv.Close)
	return srv.URL + p.BasePath, a
}

func (b *bountyAgent) do(method, path string, body any, v any) int {
	b.t.Helper()
	raw, _ := json.Marshal(body)
	var code int
	var out []byte
	if method == "GET" {
		out = []byte(get(b.t, b.base+path, ""))
	} else {
		resp := post(b.t, b.base+path, "", "", string(raw))
		code = resp.StatusCode
		out, _ = io.ReadAll(resp.Body)
	}
	if v != nil {
		_ = json.Unmarshal(out, v)
	}
	return code
}

// register runs the registration proof of work.
func (b *bountyAgent) register() {
	var ch struct {
		Token string `json:"reg_token"`
		Bits  int    `json:"pow_bits"`
	}
	b.do("POST", "/register/challenge", nil, &ch)
	var reg struct {
		AgentID string `json:"agent_id"`
	}
	b.do("POST", "/register", map[string]string{"reg_token": ch.Token, "nonce": bounty.SolveRegistration(ch.Token, ch.Bits)}, &reg)
	require.NotEmpty(b.t, reg.AgentID)
	b.id = reg.AgentID
}

// live reads the registry and, when read, the live round's manifest.
func (b *bountyAgent) live(readManifest bool) {
	var reg struct {
		Active struct {
			ChallengeID string `json:"challenge_id"`
		} `json:"active"`
	}
	b.do("GET", "/challenges", nil, &reg)
	b.cid = reg.Active.ChallengeID
	if readManifest {
		var m struct {
			Puzzles []bounty.Puzzle `json:"puzzles"`
		}
		b.do("GET", "/challenge/"+b.cid+"/manifest", nil, &m)
		b.man = m.Puzzles
	}
}

func (b *bountyAgent) solve(share int) int {
	sol := bounty.Solution{PlaintextHex: "00"}
	for _, p := range b.man {
		if p.ShareIndex == share {
			sol = bounty.Solve(p)
		}
	}
	return b.do("POST", "/challenge/"+b.cid+"/solve", map[string]any{"agent_id": b.id, "share_index": share, "solution": sol}, nil)
}

func (b *bountyAgent) list(contact string, workingOn int) {
	b.do("POST", "/challenge/"+b.cid+"/peers", map[string]any{"agent_id": b.id, "contact": contact, "working_on": workingOn}, nil)
}

func (b *bountyAgent) nextMove() string {
	var m struct {
		NextMove struct {
			Move string `json:"move"`
		} `json:"next_move"`
	}
	b.do("GET", "/challenge/"+b.cid+"/next_move?agent_id="+b.id, nil, &m)
	return m.NextMove.Move
}

// TestBountyAuditCleanAndRude: an agent that reads the manifest, claims
// the share it grinds and follows next_move gets a clean audit; one that
// guesses a path, lists an overlong contact, solves unread and unclaimed
// shares, solves when told to wait and combines alone is named for each
// rule.
func TestBountyAuditCleanAndRude(t *testing.T) {
	base, a := serveBountyAudited(t, "bounty", 0)
	polite := &bountyAgent{t: t, base: base}
	polite.register()
	polite.live(true)
	polite.list("https://agent.example/polite", 2)
	require.Equal(t, 200, polite.solve(2))
	polite.nextMove()
	rep := cli.BuildAuditReport(a)
	require.True(t, rep.Clean, "the polite agent broke %v", brokenRules(a))

	base, a = serveBountyAudited(t, "bounty", 0)
	rude := &bountyAgent{t: t, base: base}
	rude.register()
	rude.live(false)
	rude.solve(5) // no manifest read
	get(t, base+"/challenge/"+rude.cid+"/shares", "")
	rude.list("https://agent.example/"+strings.Repeat("x", 300), 2)
	rude.live(true)
	rude.list("https://agent.example/rude", 3)
	require.Equal(t, 200, rude.solve(2)) // claimed 3
	require.Equal(t, "wait", rude.nextMove())
	rude.solve(3) // told wait
	rude.do("POST", "/challenge/"+rude.cid+"/combine", map[string]any{"submissions": []map[string]any{
		{"agent_id": rude.id, "share_index": 2, "share_hex": strings.Repeat("00", 32) + "02"}}}, nil) // solo
	rules := brokenRules(a)
	for _, want := range []string{"BOUNTY-AGENT-MANIFEST-FIRST", "BOUNTY-AGENT-TRUST-ENDPOINTS", "BOUNTY-AGENT-CONTACT",
		"BOUNTY-AGENT-CLAIM-BEFORE-GRIND", "BOUNTY-AGENT-WAIT", "BOUNTY-AGENT-COMBINE-K"} {
		assert.True(t, rules[want], "%s missing from %v", want, rules)
	}
	assert.False(t, rules["BOUNTY-AGENT-STALE-410"], "%v", rules)
	var agents []string
	for _, ag := range cli.BuildAuditReport(a).Agents {
		agents = append(agents, ag.Agent)
	}
	assert.Contains(t, agents, rude.id, "the audit names the agent by its agent_id")
}

// TestBountyAuditStale410: with a rotation under every round-bound call,
// an agent that reads the registry after each 410 stays clean, and one
// that sends the closed round another request is named.
func TestBountyAuditStale410(t *testing.T) {
	base, a := serveBountyAudited(t, "bounty", 1)
	polite := &bountyAgent{t: t, base: base}
	polite.register()
	for i := 0; i < 3; i++ {
		polite.live(false)
		assert.Equal(t, 410, polite.solve(2))
	}
	assert.False(t, brokenRules(a)["BOUNTY-AGENT-STALE-410"], "%v", brokenRules(a))
	rude := &bountyAgent{t: t, base: base}
	rude.register()
	rude.live(false)
	rude.solve(2)
	rude.solve(2)
	assert.True(t, brokenRules(a)["BOUNTY-AGENT-STALE-410"], "%v", brokenRules(a))
}

// TestBountyAuditOverMCP: an agent playing through the MCP tools is
// audited like one playing over HTTP, named by its agent_id, and the
// finding names the tool call.
func TestBountyAuditOverMCP(t *testing.T) {
	base, a := serveBountyAudited(t, "bounty", 0)
	agent := &bountyAgent{t: t, base: base}
	agent.register()
	agent.live(false)
	args, _ := json.Marshal(map[string]any{"challenge_id": agent.cid, "agent_id": agent.id, "share_index": 3,
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
			if ag.Agent == agent.id && f.Rule == "BOUNTY-AGENT-MANIFEST-FIRST" {
				found = &ag.Findings[i]
			}
		}
	}
	require.NotNil(t, found, "%v", brokenRules(a))
	assert.Equal(t, "POST /mcp (tools/call bounty_solve)", found.Request)
	assert.Equal(t, 422, found.Status)
}
