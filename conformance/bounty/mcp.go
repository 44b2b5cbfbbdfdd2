package bounty

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/agentgames/conformance/conformance/sse"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// MCPPath is where the bounty serves MCP, relative to the target's base.
const MCPPath = "/mcp"

// MCPVersions are the protocol versions the contract lists.
var MCPVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26"}

var rpcID atomic.Int64

// rpcReply is a JSON-RPC 2.0 response.
type rpcReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// rpc posts one JSON-RPC request (or, with notify, a notification) to the
// MCP endpoint and returns the raw answer and the decoded reply.
func (c *client) rpc(ctx context.Context, method string, params any, notify bool) (*driver.Response, *rpcReply, error) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	if !notify {
		msg["id"] = rpcID.Add(1)
	}
	resp, err := c.postRPC(ctx, msg)
	if err != nil || notify {
		return resp, nil, err
	}
	if resp.Status != http.StatusOK {
		return resp, nil, verdict.Failf("BOUNTY-MCP-FLOW", "200 with a JSON-RPC response", resp.Status, "%s: %s", method, c.clip(resp.Body))
	}
	if !jsonRPCType(resp.Header.Get("Content-Type")) {
		return resp, nil, verdict.Failf("BOUNTY-MCP-FLOW", "Content-Type application/json or text/event-stream", resp.Header.Get("Content-Type"), "%s", method)
	}
	var reply rpcReply
	if err := json.Unmarshal(eventData(resp), &reply); err != nil || reply.JSONRPC != "2.0" {
		return resp, nil, verdict.Failf("BOUNTY-MCP-FLOW", "a JSON-RPC 2.0 response", c.clip(resp.Body), "%s", method)
	}
	if !sameID(reply.ID, msg["id"].(int64)) {
		return resp, nil, verdict.Failf("BOUNTY-MCP-FLOW", msg["id"], string(reply.ID), "%s: the response's id", method)
	}
	return resp, &reply, nil
}

// postRPC sends one JSON-RPC message to the MCP endpoint as the
// streamable-HTTP transport's client does.
func (c *client) postRPC(ctx context.Context, msg map[string]any) (*driver.Response, error) {
	return c.env.HTTP.Do(ctx, driver.Request{Method: http.MethodPost, Path: MCPPath, JSON: msg,
		Header: map[string]string{"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": MCPVersions[0]}})
}

// jsonRPCType reports whether a Content-Type is one the streamable HTTP
// transport answers a request with (BOUNTY-MCP-FLOW: the manifest names
// the transport, whose server answers a JSON-RPC request as
// application/json or as a text/event-stream; parameters and case are
// free).
func jsonRPCType(v string) bool {
	mt, _, err := mime.ParseMediaType(v)
	return err == nil && (mt == "application/json" || mt == "text/event-stream")
}

// sameID reports whether a response's id is the request's: JSON-RPC 2.0
// answers with the same value, so the number 7 and the string "7" differ
// (BOUNTY-MCP-FLOW); 7.0 is the number 7.
func sameID(raw json.RawMessage, sent int64) bool {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return false
	}
	n, ok := v.(json.Number)
	if !ok {
		return false // a string, null or an object: another id
	}
	f, err := n.Float64()
	return err == nil && f == float64(sent)
}

// eventData returns a JSON body, or the last data line of an SSE answer.
func eventData(resp *driver.Response) []byte {
	if !sse.IsStream(resp.Header.Get("Content-Type")) {
		return resp.Body
	}
	return sse.LastData(resp.Body)
}

// toolFor maps an HTTP call of the surface onto its MCP tool and
// arguments (BOUNTY-MCP-TOOL-NAMES); ok is false for calls outside the 13.
func toolFor(method, path string, body any) (string, map[string]any, bool) {
	u, err := url.Parse(path)
	if err != nil {
		return "", nil, false
	}
	args := map[string]any{}
	if body != nil {
		raw, _ := json.Marshal(body)
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber() // an integer beyond 2^53 must travel exactly (BOUNTY-INTEGERS)
		_ = dec.Decode(&args)
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	switch {
	case method == http.MethodPost && u.Path == "/register/challenge":
		return "bounty_register_challenge", args, true
	case method == http.MethodPost && u.Path == "/register":
		return "bounty_register", args, true
	case method == http.MethodGet && u.Path == "/challenges":
		return "bounty_rounds", args, true
	case method == http.MethodGet && u.Path == "/ledger":
		return "bounty_ledger", args, true
	case len(parts) < 3 || parts[0] != "challenge":
		return "", nil, false
	}
	args["challenge_id"] = parts[1]
	op := method + " " + strings.Join(parts[2:], "/")
	if strings.HasPrefix(op, "GET puzzle/") {
		n, err := strconv.Atoi(parts[len(parts)-1])
		if err != nil {
			return "", nil, false
		}
		args["share_index"] = n
		return "bounty_puzzle", args, true
	}
	if op == "GET next_move" {
		args["agent_id"] = u.Query().Get("agent_id")
	}
	tool, ok := map[string]string{"GET manifest": "bounty_manifest", "POST solve": "bounty_solve", "POST combine": "bounty_combine",
		"GET status": "bounty_status", "GET metrics": "bounty_metrics", "GET peers": "bounty_peers", "POST peers": "bounty_list",
		"GET next_move": "bounty_next_move"}[op]
	return tool, args, ok
}

// callTool runs one tools/call and presents the answer as the HTTP surface
// would: 200 with the tool's JSON, or the refusal's status and body.
func (c *client) callTool(ctx context.Context, tool string, args map[string]any) (*driver.Response, error) {
	raw, reply, err := c.rpc(ctx, "tools/call", map[string]any{"name": tool, "arguments": args}, false)
	if err != nil {
		return raw, err
	}
	if reply.Error != nil {
		body, _ := json.Marshal(map[string]any{"ok": false, "code": "jsonrpc_" + strconv.Itoa(reply.Error.Code), "reason": reply.Error.Message})
		return &driver.Response{Status: http.StatusBadRequest, Header: raw.Header, Body: body}, nil
	}
	var res struct {
		IsError bool `json:"isError"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(reply.Result, &res); err != nil || len(res.Content) == 0 {
		return raw, verdict.Failf("BOUNTY-MCP-FLOW", "a tools/call result with content", c.clip(reply.Result), "%s", tool)
	}
	text := []byte(res.Content[0].Text)
	status := http.StatusOK
	if res.IsError {
		var refusal struct {
			Status int `json:"status"`
		}
		_ = json.Unmarshal(text, &refusal)
		status = refusal.Status
		if status/100 != 4 {
			status = http.StatusBadRequest
		}
	}
	return &driver.Response{Status: status, Header: raw.Header, Body: text}, nil
}

// KitTools are the kit's 13 tool names (BOUNTY-MCP-TOOL-NAMES).
var KitTools = []string{"bounty_register_challenge", "bounty_register", "bounty_rounds", "bounty_manifest", "bounty_puzzle",
	"bounty_solve", "bounty_combine", "bounty_status", "bounty_metrics", "bounty_peers", "bounty_list", "bounty_next_move", "bounty_ledger"}

// mcpTool is one entry of tools/list: its name and its inputSchema as it
// came.
type mcpTool struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

func (w *world) listTools(ctx context.Context) ([]string, error) {
	tools, err := w.toolList(ctx)
	return toolNames(tools), err
}

// toolNames are the names of tools, in their order.
func toolNames(tools []mcpTool) []string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return names
}

// toolList runs tools/list and returns its tools.
func (w *world) toolList(ctx context.Context) ([]mcpTool, error) {
	_, reply, err := w.rpc(ctx, "tools/list", map[string]any{}, false)
	if err != nil {
		return nil, err
	}
	var r struct {
		Tools []mcpTool `json:"tools"`
	}
	if reply.Error != nil || json.Unmarshal(reply.Result, &r) != nil || len(r.Tools) == 0 {
		return nil, verdict.Failf("BOUNTY-MCP-FLOW", "tools/list answers its tools", w.clip(reply.Result), "")
	}
	return r.Tools, nil
}

// schemaless names the first tool without an inputSchema that is a JSON
// Schema object ({"type": "object", ...}), which the MCP tool definition
// requires of every tool, under that spelling (BOUNTY-MCP-TOOLS).
func schemaless(tools []mcpTool) (string, bool) {
	for _, t := range tools {
		var s struct {
			Type any `json:"type"`
		}
		if json.Unmarshal(t.InputSchema, &s) != nil || s.Type != "object" {
			return t.Name, true
		}
	}
	return "", false
}
