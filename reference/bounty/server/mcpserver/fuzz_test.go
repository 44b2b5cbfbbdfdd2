package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentgames/conformance/reference/bounty"
	"github.com/agentgames/conformance/reference/bounty/server/mcpserver"
)

// FuzzToolArguments: no arguments an MCP client sends to any of the 13
// tools make the server panic or stop answering: after each call, fuzzed
// or not, a read through the same session still succeeds.
func FuzzToolArguments(f *testing.F) {
	e := bounty.New(1, func() time.Time { return time.Unix(1_800_000_000, 0) })
	srv := httptest.NewServer(mcpserver.New(e))
	defer srv.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "kit-fuzz", Version: "1"}, nil)
	ctx := context.Background()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL, DisableStandaloneSSE: true}, nil)
	if err != nil {
		f.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) == 0 {
		f.Fatalf("tools/list: %v", err)
	}
	for i, args := range []string{`{}`, `{"challenge_id":"chal-x"}`, `{"agent_id":"a","share_index":2,"solution":{"x":"1"}}`,
		`{"challenge_id":"c","submissions":[{"agent_id":"a","share_index":1,"share_hex":"zz"}]}`, `{"share_index":1e999}`,
		`{"agent_id":"` + string(make([]byte, 300)) + `"}`, `[]`, `null`, `"x"`} {
		f.Add(uint8(i), []byte(args))
	}
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		if !json.Valid(args) {
			return // a client cannot send arguments that are no JSON
		}
		tool := tools.Tools[int(which)%len(tools.Tools)].Name
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		cs.CallTool(cctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
		if _, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: "bounty_rounds", Arguments: map[string]any{}}); err != nil {
			t.Fatalf("after %s(%s) the server no longer answers: %v", tool, args, err)
		}
	})
}
