package cli_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
)

// TestSimulateMonopoly: `simulate monopoly --listen` referees one match; the
// docs' example agent (roll, buy, end_turn, else the first legal action)
// passes, an agent answering a made-up action fails.
func TestSimulateMonopoly(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		pick  func(legal []string) string
		code  int
		words string
	}{
		{"the docs' example agent", docsExample, 0, "PASS"},
		{"an agent that answers fly", func([]string) string { return "fly" }, 1, "FAIL"},
	} {
		t.Run(c.name, func(t *testing.T) {
			pr, pw := io.Pipe()
			done := make(chan int, 1)
			go func() {
				done <- cli.Main([]string{"simulate", "monopoly", "--listen", "127.0.0.1:0", "--seed", "3"}, pw, io.Discard)
				pw.Close()
			}()
			lines := bufio.NewScanner(pr)
			require.True(t, lines.Scan())
			addr := regexp.MustCompile(`ws://([^/]+)/`).FindStringSubmatch(lines.Text())
			require.Len(t, addr, 2, lines.Text())
			go playMonopolyMatch(t, addr[1], c.pick)
			var rest strings.Builder
			for lines.Scan() {
				rest.WriteString(lines.Text() + "\n")
			}
			assert.Equal(t, c.code, <-done, rest.String())
			assert.Contains(t, rest.String(), c.words)
		})
	}
}

// docsExample is games.md's Monopoly example agent.
func docsExample(legal []string) string {
	for _, a := range []string{"roll", "buy", "end_turn"} {
		if slices.Contains(legal, a) {
			return a
		}
	}
	return legal[0]
}

func playMonopolyMatch(t *testing.T, addr string, pick func([]string) string) {
	resp, err := http.Post("http://"+addr+"/v1/practice/agents", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Error(err)
		return
	}
	var key map[string]string
	json.NewDecoder(resp.Body).Decode(&key)
	resp.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws://"+addr+"/v1/agent/connect", nil)
	if err != nil {
		t.Error(err)
		return
	}
	conn.SetReadLimit(4 << 20)
	defer conn.CloseNow()
	send := func(v any) { b, _ := json.Marshal(v); conn.Write(ctx, websocket.MessageText, b) }
	send(map[string]any{"t": "register", "agent_id": key["agent_id"], "token": key["token"], "agent_name": "t",
		"version": "1.0.0", "games": []string{"monopoly"}, "sdk_version": "t", "practice": map[string]any{"turn_cap": 40}})
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			return
		}
		var f struct {
			T    string `json:"t"`
			ID   string `json:"id"`
			View struct {
				LegalActions []string `json:"legal_actions"`
			} `json:"payload"` // the view, in the platform's layout
		}
		json.Unmarshal(data, &f)
		switch f.T {
		case "initialize":
			send(map[string]any{"t": "response", "id": f.ID, "ready": true})
		case "turn":
			send(map[string]any{"t": "response", "id": f.ID, "move": map[string]any{"action": pick(f.View.LegalActions)}})
		case "game_end":
			return
		}
	}
}
