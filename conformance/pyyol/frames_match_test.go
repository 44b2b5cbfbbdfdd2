package pyyol

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
	"github.com/agentgames/conformance/reference/pyyol/mafia"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// frameTape keeps every frame the gateway sent (through its Rewrite hook,
// which passes them on unchanged) and every frame the agent sent.
type frameTape struct {
	mu         sync.Mutex
	sent, recv []json.RawMessage
}

func (ft *frameTape) gatewaySent(f map[string]any) []map[string]any {
	data, _ := json.Marshal(f)
	ft.mu.Lock()
	ft.sent = append(ft.sent, data)
	ft.mu.Unlock()
	return []map[string]any{f}
}

// TestEveryFrameOfAFullMatchValidates: in a full match of each game, every
// frame the reference gateway sends and every frame an agent speaking the
// SDK's layout sends it validates against spec/pyyol/frames, each move
// against its game's move schema, with no warning either (the Go twin of
// the Python agent's test, which skips without python3; this agent answers
// as the runner does, in both layouts at once).
func TestEveryFrameOfAFullMatchValidates(t *testing.T) {
	t.Parallel()
	for _, game := range []string{"goofspiel", "mafia", "monopoly"} {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			tape := &frameTape{}
			srv := httptest.NewServer(server.New(server.Options{Rewrite: server.EveryFrame(tape.gatewaySent), PingEvery: 20 * time.Millisecond}))
			defer srv.Close()
			id, token := practiceKey(t, srv.URL)
			playTaped(t, "ws"+strings.TrimPrefix(srv.URL, "http")+server.BasePath+"/agent/connect", id, token, game, tape)
			tape.mu.Lock()
			defer tape.mu.Unlock()
			types := map[string]bool{}
			for _, raw := range append(slices.Clone(tape.sent), tape.recv...) {
				var head struct {
					T       string          `json:"t"`
					ID      string          `json:"id"`
					Payload json.RawMessage `json:"payload"`
				}
				json.Unmarshal(raw, &head)
				types[head.T] = true
				if err := checkFrameOf(raw, head.T, game); err != nil {
					t.Errorf("%s: %v", raw, err)
				}
				if head.T == "response" && strings.HasPrefix(head.ID, "turn_") {
					if err := checkPart(game+"-move", head.Payload, "", "a move"); err != nil {
						t.Errorf("%s: %v", raw, err)
					}
				}
			}
			for _, want := range []string{"hello", "registered", "initialize", "event", "game_end", "register", "response"} {
				if !types[want] {
					t.Errorf("no %s frame: %v", want, types)
				}
			}
		})
	}
}

// playTaped plays one match in the SDK's layout, taping what it sends.
func playTaped(t *testing.T, url, id, token, game string, tape *frameTape) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(16 << 20)
	send := func(v any) {
		data, _ := json.Marshal(v)
		tape.mu.Lock()
		tape.recv = append(tape.recv, data)
		tape.mu.Unlock()
		if err := conn.Write(ctx, websocket.MessageText, data); err != nil {
			t.Fatal(err)
		}
	}
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			T       string          `json:"t"`
			ID      string          `json:"id"`
			Payload json.RawMessage `json:"payload"`
		}
		json.Unmarshal(data, &f)
		switch f.T {
		case "hello":
			send(map[string]any{"t": "register", "agent_id": id, "token": token, "agent_name": "go-sdk-twin", "version": "1.0.0",
				"games": []string{game}, "sdk_version": "0.0.0", "sdk_language": "go"})
			send(map[string]any{"t": "ping"})
		case "ping":
			send(map[string]any{"t": "pong", "id": f.ID})
		case "initialize":
			send(map[string]any{"t": "response", "id": f.ID, "payload": map[string]any{"ready": true, "display_name": "go-sdk-twin"}})
		case "turn":
			// The runner's own answer, the move in payload and in move
			// (the Python agent's test covers payload alone).
			send(moveResponse(f.ID, sdkMove(game, f.Payload)))
		case "game_end":
			return
		}
	}
}

// sdkMove is a legal move for a turn's view: the kit's baselines, and the
// docs' example for Monopoly (roll, buy or end_turn, else the first).
func sdkMove(game string, view json.RawMessage) any {
	switch game {
	case "goofspiel":
		var v goofspiel.View
		json.Unmarshal(view, &v)
		return goofspiel.Baseline(v)
	case "mafia":
		var v mafia.View
		json.Unmarshal(view, &v)
		return mafia.Baseline(v)
	}
	var v struct {
		LegalActions []string `json:"legal_actions"`
	}
	json.Unmarshal(view, &v)
	for _, a := range []string{"roll", "buy", "end_turn"} {
		if slices.Contains(v.LegalActions, a) {
			return map[string]string{"action": a}
		}
	}
	return map[string]string{"action": v.LegalActions[0]}
}
