package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/bounty"
	"github.com/agentgames/conformance/reference/bounty/server/mcpserver"
)

func call(t *testing.T, cs *mcp.ClientSession, name string, args any, v any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	text := res.Content[0].(*mcp.TextContent).Text
	require.False(t, res.IsError, "%s: %s", name, text)
	require.NoError(t, json.Unmarshal([]byte(text), v))
}

// TestAnOfficialClientListsThe13ToolsAndPlaysARound plays a whole round
// with the official SDK client, three agents over MCP.
func TestAnOfficialClientListsThe13ToolsAndPlaysARound(t *testing.T) {
	e := bounty.New(1, func() time.Time { return time.Unix(1_800_000_000, 0) })
	srv := httptest.NewServer(mcpserver.New(e))
	defer srv.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "kit-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL, DisableStandaloneSSE: true}, nil)
	require.NoError(t, err)
	defer cs.Close()
	tools, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	require.Len(t, tools.Tools, 13)

	var rounds struct {
		Active struct {
			ChallengeID string `json:"challenge_id"`
		} `json:"active"`
	}
	call(t, cs, "bounty_rounds", map[string]any{}, &rounds)
	cid := rounds.Active.ChallengeID
	var man struct {
		Puzzles []bounty.Puzzle `json:"puzzles"`
	}
	call(t, cs, "bounty_manifest", map[string]any{"challenge_id": cid}, &man)
	var subs []bounty.Submission
	for _, share := range []int{2, 3, 5} {
		var ch struct {
			Token string `json:"reg_token"`
			Bits  int    `json:"pow_bits"`
		}
		call(t, cs, "bounty_register_challenge", map[string]any{}, &ch)
		var reg struct {
			AgentID string `json:"agent_id"`
		}
		call(t, cs, "bounty_register", map[string]any{"reg_token": ch.Token, "nonce": bounty.SolveRegistration(ch.Token, ch.Bits)}, &reg)
		var out struct {
			ShareHex string `json:"share_hex"`
		}
		call(t, cs, "bounty_solve", map[string]any{"challenge_id": cid, "agent_id": reg.AgentID, "share_index": share, "solution": bounty.Solve(man.Puzzles[share-1])}, &out)
		subs = append(subs, bounty.Submission{AgentID: reg.AgentID, ShareIndex: share, ShareHex: out.ShareHex})
	}
	var won struct {
		Won bool `json:"won"`
	}
	call(t, cs, "bounty_combine", map[string]any{"challenge_id": cid, "submissions": subs}, &won)
	assert.True(t, won.Won)
}

func TestGetIs405AndNotificationsAre202WithNoBody(t *testing.T) {
	srv := httptest.NewServer(mcpserver.New(bounty.New(1, time.Now)))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)

	req, _ := http.NewRequest(http.MethodPost, srv.URL, bytes.NewBufferString(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	assert.Empty(t, body)
}
