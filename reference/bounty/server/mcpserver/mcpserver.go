// Package mcpserver puts the bounty's MCP surface in front of the same
// engine the HTTP server uses (BOUNTY-MCP-SAME-STATE): JSON-RPC 2.0 over
// streamable HTTP, 13 tools covering the HTTP surface (BOUNTY-MCP-TOOLS),
// notifications answered 202 with no body (BOUNTY-MCP-NOTIFY) and GET
// answered 405 (BOUNTY-MCP-GET), built on the official MCP Go SDK.
package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentgames/conformance/reference/bounty"
)

// tool is one MCP tool: its name, description, input schema and the
// engine call it makes.
type tool struct {
	name, desc string
	props      map[string]any
	required   []string
	call       func(e *bounty.Engine, args json.RawMessage) (any, *bounty.Error)
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
func num(desc string) map[string]any { return map[string]any{"type": "integer", "description": desc} }

var cid = str("the challenge_id (bounty_rounds names the live one)")

// tools are the 13 tools of the surface (BOUNTY-MCP-TOOLS), named as the
// kit chose (BOUNTY-MCP-TOOL-NAMES).
var tools = []tool{
	{"bounty_register_challenge", "POST register_challenge: {reg_token, pow_bits}", nil, nil,
		func(e *bounty.Engine, _ json.RawMessage) (any, *bounty.Error) { return e.RegChallenge(), nil }},
	{"bounty_register", "POST register with {reg_token, nonce}: sha256(reg_token + nonce) with >= pow_bits leading zero bits", map[string]any{"reg_token": str("from bounty_register_challenge"), "nonce": str("any string")}, []string{"reg_token", "nonce"}, register},
	{"bounty_rounds", "GET challenges: the active challenge_id and closed rounds", nil, nil,
		func(e *bounty.Engine, _ json.RawMessage) (any, *bounty.Error) { return e.Challenges(), nil }},
	{"bounty_manifest", "GET the per-challenge manifest: every share's puzzle params", map[string]any{"challenge_id": cid}, []string{"challenge_id"}, byChallenge((*bounty.Engine).Manifest)},
	{"bounty_puzzle", "GET one share's puzzle", map[string]any{"challenge_id": cid, "share_index": num("1..n")}, []string{"challenge_id", "share_index"}, puzzle},
	{"bounty_solve", "POST solve {agent_id, share_index, solution} -> {share_hex}", map[string]any{"challenge_id": cid, "agent_id": str("your agent_id"), "share_index": num("1..n"), "solution": map[string]any{"type": "object"}}, []string{"challenge_id", "agent_id", "share_index", "solution"}, solve},
	{"bounty_combine", "POST combine {submissions: [{agent_id, share_index, share_hex}]}", map[string]any{"challenge_id": cid, "submissions": map[string]any{"type": "array", "items": map[string]any{"type": "object"}}}, []string{"challenge_id", "submissions"}, combine},
	{"bounty_status", "GET a round's status, open or closed", map[string]any{"challenge_id": cid}, []string{"challenge_id"}, byChallenge((*bounty.Engine).Status)},
	{"bounty_metrics", "GET a round's aggregate metrics", map[string]any{"challenge_id": cid}, []string{"challenge_id"}, byChallenge((*bounty.Engine).Metrics)},
	{"bounty_peers", "GET the peers board with coalition_proximity", map[string]any{"challenge_id": cid}, []string{"challenge_id"}, byChallenge((*bounty.Engine).Peers)},
	{"bounty_list", "POST peers: list, refresh, claim (working_on) or delist (remove: true)", map[string]any{"challenge_id": cid, "agent_id": str("your agent_id"), "contact": str("a machine-reachable endpoint, <= 256 chars"), "message": str("optional"), "working_on": map[string]any{"type": []string{"integer", "null"}}, "remove": map[string]any{"type": "boolean"}}, []string{"challenge_id", "agent_id"}, list},
	{"bounty_next_move", "GET next_move: one advisory move computed from the board", map[string]any{"challenge_id": cid, "agent_id": str("your agent_id")}, []string{"challenge_id", "agent_id"}, nextMove},
	{"bounty_ledger", "GET the play-money ledger", nil, nil,
		func(e *bounty.Engine, _ json.RawMessage) (any, *bounty.Error) { return e.Ledger(), nil }},
}

// Names lists the tool names, in order.
func Names() []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.name
	}
	return out
}

// New serves the MCP surface of e: stateless streamable HTTP with JSON
// responses, so GET has no stream and answers 405.
func New(e *bounty.Engine) http.Handler {
	s := mcp.NewServer(&mcp.Implementation{Name: "agent-puzzle-bounty reference", Version: "1"}, nil)
	engine := e
	if e.Broken("BOUNTY-MCP-SAME-STATE") {
		engine = bounty.New(99, time.Now) // a second engine: broken on purpose
	}
	for i, t := range tools {
		if i == len(tools)-1 && e.Broken("BOUNTY-MCP-TOOLS") {
			break
		}
		s.AddTool(&mcp.Tool{Name: t.name, Description: t.desc, InputSchema: schema(t)}, handler(engine, t))
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	return faulty(e, h)
}

func schema(t tool) map[string]any {
	props := t.props
	if props == nil {
		props = map[string]any{}
	}
	out := map[string]any{"type": "object", "properties": props}
	if len(t.required) > 0 {
		out["required"] = t.required
	}
	return out
}

// handler runs one tool: an engine refusal is a tool error whose text is
// the HTTP refusal body plus its status.
func handler(e *bounty.Engine, t tool) mcp.ToolHandler {
	return func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		out, err := t.call(e, req.Params.Arguments)
		if err != nil {
			body, _ := json.Marshal(map[string]any{"ok": false, "code": err.Code, "reason": err.Reason, "status": err.Status})
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(body)}}}, nil
		}
		body, _ := json.Marshal(out)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(body)}}, StructuredContent: json.RawMessage(body)}, nil
	}
}

var badArgs = &bounty.Error{Status: http.StatusBadRequest, Code: "bad_request", Reason: "the arguments do not fit the tool's input schema"}

func decode(args json.RawMessage, v any) *bounty.Error {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if json.Unmarshal(args, v) != nil {
		return badArgs
	}
	return nil
}

type challengeArgs struct {
	ChallengeID string `json:"challenge_id"`
	AgentID     string `json:"agent_id"`
	ShareIndex  int    `json:"share_index"`
}

func byChallenge(f func(*bounty.Engine, string) (map[string]any, *bounty.Error)) func(*bounty.Engine, json.RawMessage) (any, *bounty.Error) {
	return func(e *bounty.Engine, args json.RawMessage) (any, *bounty.Error) {
		var a challengeArgs
		if err := decode(args, &a); err != nil {
			return nil, err
		}
		return f(e, a.ChallengeID)
	}
}

func register(e *bounty.Engine, args json.RawMessage) (any, *bounty.Error) {
	var a struct {
		Token string `json:"reg_token"`
		Nonce string `json:"nonce"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	return e.Register(a.Token, a.Nonce)
}

func puzzle(e *bounty.Engine, args json.RawMessage) (any, *bounty.Error) {
	var a challengeArgs
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	return e.PuzzleOf(a.ChallengeID, a.ShareIndex)
}

func solve(e *bounty.Engine, args json.RawMessage) (any, *bounty.Error) {
	var a struct {
		challengeArgs
		Solution bounty.Solution `json:"solution"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	return e.Solve(a.ChallengeID, a.AgentID, a.ShareIndex, a.Solution)
}

func combine(e *bounty.Engine, args json.RawMessage) (any, *bounty.Error) {
	var a struct {
		ChallengeID string              `json:"challenge_id"`
		Submissions []bounty.Submission `json:"submissions"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	return e.Combine(a.ChallengeID, a.Submissions)
}

func nextMove(e *bounty.Engine, args json.RawMessage) (any, *bounty.Error) {
	var a challengeArgs
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	return e.NextMove(a.ChallengeID, a.AgentID)
}

func list(e *bounty.Engine, args json.RawMessage) (any, *bounty.Error) {
	var raw map[string]json.RawMessage
	if err := decode(args, &raw); err != nil {
		return nil, err
	}
	var c string
	if v, ok := raw["challenge_id"]; !ok || json.Unmarshal(v, &c) != nil {
		return nil, badArgs
	}
	req, err := bounty.ParseListRequest(raw)
	if err != nil {
		return nil, err
	}
	return e.Post(c, req)
}
