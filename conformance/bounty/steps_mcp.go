package bounty

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// initialize sends initialize with version and keeps the answer.
func (w *world) initialize(ctx context.Context, version string) error {
	_, reply, err := w.rpc(ctx, "initialize", map[string]any{"protocolVersion": version, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "conformance-kit", "version": "1"}}, false)
	if err != nil {
		return err
	}
	if reply.Error != nil {
		return verdict.Failf("BOUNTY-MCP-VERSIONS", "initialize accepted for "+version, reply.Error.Message, "JSON-RPC error %d", reply.Error.Code)
	}
	w.initResult = reply.Result
	_, _, err = w.rpc(ctx, "notifications/initialized", nil, true)
	return err
}

// toolsCapability holds initialize's answer to the MCP lifecycle: its
// capabilities object declares tools, which a server offering tools must
// (BOUNTY-MCP-FLOW: the manifest's flow is initialize -> tools/list ->
// tools/call, and an MCP client calls tools/list only on a server whose
// capabilities name them).
func (w *world) toolsCapability() error {
	var r struct {
		Capabilities struct {
			Tools map[string]any `json:"tools"`
		} `json:"capabilities"`
	}
	if json.Unmarshal(w.initResult, &r) != nil || r.Capabilities.Tools == nil {
		return verdict.Failf("BOUNTY-MCP-FLOW", "initialize's capabilities declare tools (an object)", w.clip(w.initResult), "initialize")
	}
	return nil
}

// unknownMethodErrs sends a request for a method no MCP server offers: a
// JSON-RPC 2.0 server answers it with an error object and no result
// (BOUNTY-MCP-FLOW; -32601 is the code JSON-RPC names, but the code,
// message and data are not held). An HTTP 4xx refusal is the transport's
// own answer to input it cannot accept, and passes too.
func (w *world) unknownMethodErrs(ctx context.Context) error {
	msg := map[string]any{"jsonrpc": "2.0", "method": "conformance/no_such_method", "id": rpcID.Add(1)}
	resp, err := w.postRPC(ctx, msg)
	if err != nil {
		return err
	}
	if resp.Status/100 == 4 {
		return nil
	}
	var reply map[string]json.RawMessage
	if resp.Status != http.StatusOK || json.Unmarshal(eventData(resp), &reply) != nil {
		return verdict.Failf("BOUNTY-MCP-FLOW", "200 with a JSON-RPC error, or a 4xx", resp.Status, "conformance/no_such_method: %s", w.clip(resp.Body))
	}
	if _, hasResult := reply["result"]; hasResult || len(reply["error"]) == 0 || string(reply["error"]) == "null" {
		return verdict.Failf("BOUNTY-MCP-FLOW", "a JSON-RPC error (method not found), no result", w.clip(resp.Body), "conformance/no_such_method")
	}
	return nil
}

func (w *world) versionIs(version string) error {
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(w.initResult, &r)
	if r.ProtocolVersion != version {
		return verdict.Failf("BOUNTY-MCP-VERSIONS", version, r.ProtocolVersion, "the version initialize answered")
	}
	return nil
}

func (w *world) roundsOverMCP(ctx context.Context) error {
	resp, err := w.callTool(ctx, "bounty_rounds", map[string]any{})
	if err != nil {
		return err
	}
	if resp.Status != http.StatusOK || !strings.Contains(string(resp.Body), "challenge_id") {
		return verdict.Failf("BOUNTY-MCP-FLOW", "tools/call answers the live challenge", w.clip(resp.Body), "")
	}
	return nil
}

// thirteenTools holds tools/list to the 13 tools the manifest counts, the
// board, next_move and rounds among them, each with its inputSchema
// (BOUNTY-MCP-TOOLS).
func (w *world) thirteenTools(ctx context.Context) error {
	tools, err := w.toolList(ctx)
	if err != nil {
		return err
	}
	names := toolNames(tools)
	if name, bad := schemaless(tools); bad {
		return verdict.Failf("BOUNTY-MCP-TOOLS", "an inputSchema object of type object", name, "tools/list")
	}
	has := func(part string) bool {
		return slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, part) })
	}
	if len(names) != 13 || !slices.Contains(names, "bounty_next_move") || !has("peers") || !has("round") {
		return verdict.Failf("BOUNTY-MCP-TOOLS", "13 tools incl. the peers board, bounty_next_move and rounds", names, "")
	}
	return nil
}

func (w *world) kitTools(ctx context.Context) error {
	names, err := w.listTools(ctx)
	if err != nil {
		return err
	}
	a, b := slices.Clone(names), slices.Clone(KitTools)
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		return verdict.Failf("BOUNTY-MCP-TOOL-NAMES", b, a, "")
	}
	return nil
}

func (w *world) notify(ctx context.Context, method string) error {
	resp, _, err := w.rpc(ctx, method, nil, true)
	w.Last = resp
	return err
}

func (w *world) accepted202() error {
	if w.Last.Status != http.StatusAccepted || len(strings.TrimSpace(string(w.Last.Body))) != 0 {
		return verdict.Failf("BOUNTY-MCP-NOTIFY", "202 with no body", w.Last.Status, "body %q", w.clip(w.Last.Body))
	}
	return nil
}

// getMCP sends GET to the mcp endpoint as an SSE client would (Accept:
// text/event-stream) and then as a plain client (Accept: application/json):
// "GET is 405 (no SSE stream)" whatever the GET asks for
// (BOUNTY-MCP-GET), so the first answer that is not 405 is the one judged.
func (w *world) getMCP(ctx context.Context) error {
	for _, accept := range []string{"text/event-stream", "application/json"} {
		resp, err := w.env.HTTP.Do(ctx, driver.Request{Method: http.MethodGet, Path: MCPPath, Header: map[string]string{"Accept": accept}})
		w.Last = resp
		if err != nil || resp.Status != http.StatusMethodNotAllowed {
			return err
		}
	}
	return nil
}

func (w *world) is405() error {
	if w.Last.Status != http.StatusMethodNotAllowed {
		return verdict.Failf("BOUNTY-MCP-GET", 405, w.Last.Status, "GET %s", MCPPath)
	}
	return nil
}

func (w *world) memberOverMCP(i int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	w.mcpAgents[a.ID] = true
	return nil
}

// mcpSteps registers the steps of features/bounty/mcp.feature.
func (w *world) mcpSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the runner initializes an MCP session with protocol version "([^"]*)"$`), w.initialize)
	sc.Step(pattern(`^tools/list answers a list of tools$`), func(ctx context.Context) error { _, err := w.listTools(ctx); return err })
	sc.Step(pattern(`^the MCP tool for rounds names the live challenge$`), w.roundsOverMCP)
	sc.Step(pattern(`^initialize declared the tools capability$`), w.toolsCapability)
	sc.Step(pattern(`^a method the server does not offer answers a JSON-RPC error$`), w.unknownMethodErrs)
	sc.Step(pattern(`^tools/list lists 13 tools including the peers board, bounty_next_move and rounds$`), w.thirteenTools)
	sc.Step(pattern(`^tools/list names the kit's 13 tools$`), w.kitTools)
	sc.Step(pattern(`^the runner sends the MCP notification "([^"]*)"$`), w.notify)
	sc.Step(pattern(`^the answer is 202 with no body$`), w.accepted202)
	sc.Step(pattern(`^the runner sends GET to the mcp endpoint$`), w.getMCP)
	sc.Step(pattern(`^the answer is 405$`), w.is405)
	sc.Step(pattern(`^the session's protocol version is "([^"]*)"$`), w.versionIs)
	sc.Step(pattern(`^agent (\d+) plays over MCP$`), w.memberOverMCP)
}
