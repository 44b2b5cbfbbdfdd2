package cli_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/pyyol/agent"
	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

func TestSimulateMafiaAgainstAPushEndpoint(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(agent.New(agent.Options{Mafia: true}))
	defer srv.Close()
	turn := srv.URL + agent.BasePath + "/turn"
	code, out, errOut := run("simulate", "mafia", "--target", turn, "--secret", agent.DevSecret, "--role", "Doctor")
	require.Equal(t, 0, code, out+errOut)
	assert.Contains(t, out, "the agent was a Doctor")
	assert.Contains(t, out, "protect 11", "the baseline Doctor protects itself")
	assert.Regexp(t, `day 1  seat \d+ (\(the agent\) )?out \((vote|night_kill)\), a (Mafia|Detective|Doctor|Sheriff|Villager)`, out,
		"the story names who left the table, how and as what")
	assert.Contains(t, out, "alive at the end: ")
	// Each day's vote, before the seat it put out: who voted for whom,
	// the agent's own vote named.
	assert.Regexp(t, `(?m)^day (\d+)  votes: seat (\d+) <- [0-9 ]*\d+.*\nday \d+  seat \d+ (\(the agent\) )?out \(vote\)`, out)
	assert.Regexp(t, `votes: .*11 \(the agent\)`, out, "the agent at seat 11 votes")

	code, _, errOut = run("simulate", "mafia", "--target", turn, "--secret", "not-the-secret")
	assert.Equal(t, 1, code)
	assert.NotContains(t, errOut, "not-the-secret", "the secret is never printed")

	code, _, errOut = run("simulate", "mafia", "--target", turn, "--secret", agent.DevSecret, "--role", "mafia")
	assert.Equal(t, 2, code, "roles are capitalised")
	assert.Contains(t, errOut, "--role")
}

// TestSimulateMafiaListen: `simulate mafia --listen` serves the kit's
// gateway, a socket agent plays one Mafia match, and the verdict is PASS.
func TestSimulateMafiaListen(t *testing.T) {
	t.Parallel()
	simulateListening(t, "mafia", playOneMafiaMatch)
}

func playOneMafiaMatch(t *testing.T, addr string) {
	resp, err := http.Post("http://"+addr+"/v1/practice/agents", "application/json", strings.NewReader(`{}`))
	require.NoError(t, err)
	var key map[string]string
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&key))
	resp.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws://"+addr+"/v1/agent/connect", nil)
	require.NoError(t, err)
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 22)
	send := func(v any) { b, _ := json.Marshal(v); require.NoError(t, conn.Write(ctx, websocket.MessageText, b)) }
	send(map[string]any{"t": "register", "agent_id": key["agent_id"], "token": key["token"], "agent_name": "t",
		"version": "1.0.0", "games": []string{"mafia"}, "sdk_version": "t", "practice": map[string]any{"seat": 11}})
	for {
		_, data, err := conn.Read(ctx)
		require.NoError(t, err)
		var f struct {
			T    string      `json:"t"`
			ID   string      `json:"id"`
			View *mafia.View `json:"payload"` // the view, in the platform's layout
		}
		require.NoError(t, json.Unmarshal(data, &f))
		switch f.T {
		case "initialize":
			send(map[string]any{"t": "response", "id": f.ID, "ready": true})
		case "turn":
			send(map[string]any{"t": "response", "id": f.ID, "move": mafia.Baseline(*f.View)})
		case "game_end":
			return
		}
	}
}
