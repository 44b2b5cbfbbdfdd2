package cli_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/reference/pyyol/agent"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

func TestSimulateGoofspielAgainstAPushEndpoint(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(agent.New(agent.Options{}))
	defer srv.Close()
	turn := srv.URL + agent.BasePath + "/turn"
	code, out, errOut := run("simulate", "goofspiel", "--target", turn, "--secret", agent.DevSecret)
	require.Equal(t, 0, code, out+errOut)
	assert.Contains(t, out, "PASS — 13 legal moves")
	// Each round shows its prize and both bids, and the baseline does not
	// mirror the reference agent (which bids the prize card): both score.
	assert.Regexp(t, `round  0  prize +\d+ \(pool +\d+\)  agent bids +\d+  baseline bids +\d+`, out)
	assert.NotContains(t, out, "scores [0 0]\n")
	assert.Equal(t, 26, strings.Count(out, " bids "), out)
	assert.Regexp(t, `PASS — .*scores \[[1-9]\d* [1-9]\d*\]`, out)

	code, _, errOut = run("simulate", "goofspiel", "--target", turn, "--secret", "not-the-secret")
	assert.Equal(t, 1, code, "an agent refusing the platform's signature fails")
	assert.NotContains(t, errOut, "not-the-secret", "the secret is never printed")

	code, _, errOut = run("simulate", "goofspiel", "--target", turn)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--secret")
	code, _, _ = run("simulate", "chess", "--target", turn, "--secret", "s")
	assert.Equal(t, 2, code)
}

// TestSimulateListenRefereesOneSocketMatch: `simulate --listen` serves the
// kit's gateway, a socket agent plays one match, and the verdict is PASS.
func TestSimulateListenRefereesOneSocketMatch(t *testing.T) {
	t.Parallel()
	simulateListening(t, "goofspiel", playOneSocketMatch)
}

// simulateListening runs `simulate GAME --listen` on a free port, lets
// play be the socket agent at the gateway it prints, and requires exit 0
// with a PASS verdict.
func simulateListening(t *testing.T, game string, play func(t *testing.T, addr string)) {
	t.Helper()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- cli.Main([]string{"simulate", game, "--listen", "127.0.0.1:0"}, pw, io.Discard)
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	require.True(t, lines.Scan())
	addr := regexp.MustCompile(`ws://([^/]+)/`).FindStringSubmatch(lines.Text())
	require.Len(t, addr, 2, lines.Text())
	play(t, addr[1])
	var rest strings.Builder
	for lines.Scan() {
		rest.WriteString(lines.Text() + "\n")
	}
	assert.Equal(t, 0, <-done, rest.String())
	assert.Contains(t, rest.String(), "PASS")
}

func playOneSocketMatch(t *testing.T, addr string) {
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
	send := func(v any) { b, _ := json.Marshal(v); require.NoError(t, conn.Write(ctx, websocket.MessageText, b)) }
	send(map[string]any{"t": "register", "agent_id": key["agent_id"], "token": key["token"], "agent_name": "t",
		"version": "1.0.0", "games": []string{"goofspiel"}, "sdk_version": "t"})
	for {
		_, data, err := conn.Read(ctx)
		require.NoError(t, err)
		var f struct {
			T    string          `json:"t"`
			ID   string          `json:"id"`
			View *goofspiel.View `json:"payload"` // the view, in the platform's layout
		}
		require.NoError(t, json.Unmarshal(data, &f))
		switch f.T {
		case "initialize":
			send(map[string]any{"t": "response", "id": f.ID, "ready": true})
		case "turn":
			send(map[string]any{"t": "response", "id": f.ID, "move": goofspiel.Baseline(*f.View)})
		case "game_end":
			return
		}
	}
}
