package server

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/agentgames/conformance/reference/audit"
)

// toolRoutes maps the MCP tools that act on a round to the HTTP request
// they stand for (BOUNTY-MCP-SAME-STATE: one engine behind both surfaces),
// so an agent playing over MCP is audited by the same checks.
var toolRoutes = map[string]struct{ method, tail string }{
	"bounty_manifest":  {http.MethodGet, "manifest"},
	"bounty_puzzle":    {http.MethodGet, "puzzle/"},
	"bounty_solve":     {http.MethodPost, "solve"},
	"bounty_combine":   {http.MethodPost, "combine"},
	"bounty_peers":     {http.MethodGet, "peers"},
	"bounty_list":      {http.MethodPost, "peers"},
	"bounty_next_move": {http.MethodGet, "next_move"},
	"bounty_status":    {http.MethodGet, "status"},
	"bounty_metrics":   {http.MethodGet, "metrics"},
}

// viaMCP reads a tools/call to the MCP surface as the HTTP exchange it
// stands for: the tool's arguments as the body, its result text as the
// answer and the refusal's status (200 for a result that is no error),
// with the tool's name. It reports false for anything else.
func viaMCP(ex *audit.Exchange) (*audit.Exchange, string, bool) {
	if ex.Method != http.MethodPost || ex.Path != "/mcp" {
		return nil, "", false
	}
	var call struct {
		Method string `json:"method"`
		Params struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	if json.Unmarshal(ex.Body, &call) != nil || call.Method != "tools/call" {
		return nil, "", false
	}
	route, ok := toolRoutes[call.Params.Name]
	if !ok {
		return nil, "", false
	}
	var args struct {
		ChallengeID string `json:"challenge_id"`
		ShareIndex  int    `json:"share_index"`
		AgentID     string `json:"agent_id"`
	}
	_ = json.Unmarshal(call.Params.Arguments, &args)
	tail := route.tail
	if tail == "puzzle/" {
		tail += strconv.Itoa(args.ShareIndex)
	}
	out := *ex
	out.Method, out.Path, out.Body = route.method, "/challenge/"+args.ChallengeID+"/"+tail, call.Params.Arguments
	if args.AgentID != "" {
		out.RawQuery = "agent_id=" + args.AgentID
	}
	out.Status, out.RespBody = toolAnswer(ex.RespBody)
	return &out, call.Params.Name, true
}

// toolAnswer reads a tool result: its text, and the status a refusal
// carries (200 for a result that is no error).
func toolAnswer(body []byte) (int, []byte) {
	var rpc struct {
		Result struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if json.Unmarshal(body, &rpc) != nil || len(rpc.Result.Content) == 0 {
		return 0, nil
	}
	text := []byte(rpc.Result.Content[0].Text)
	if !rpc.Result.IsError {
		return http.StatusOK, text
	}
	var refusal struct {
		Status int `json:"status"`
	}
	_ = json.Unmarshal(text, &refusal)
	return refusal.Status, text
}
