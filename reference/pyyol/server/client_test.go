package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// key mints a practice key at the gateway served at base (http://...).
func key(base string) (id, token string, err error) {
	resp, err := http.Post(base+server.BasePath+"/practice/agents", "application/json", strings.NewReader(`{}`))
	if err != nil {
		return "", "", err
	}
	defer resp.Body.Close()
	var k struct{ AgentID, Token string }
	var raw map[string]string
	if err := json.NewDecoder(resp.Body).Decode(&raw); err != nil {
		return "", "", err
	}
	k.AgentID, k.Token = raw["agent_id"], raw["token"]
	return k.AgentID, k.Token, nil
}

// agent is a minimal test agent: it registers and answers every turn with
// the baseline's move until `matches` game_end frames arrived.
type agent struct {
	conn   *websocket.Conn
	ends   []map[string]any
	events int
}

func dialAgent(ctx context.Context, base, id, token string, matches int) (*agent, error) {
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+server.BasePath+"/agent/connect", nil)
	if err != nil {
		return nil, err
	}
	conn.SetReadLimit(1 << 20)
	a := &agent{conn: conn}
	if _, err := a.read(ctx); err != nil { // hello
		return nil, err
	}
	reg := map[string]any{"t": "register", "agent_id": id, "token": token, "agent_name": "go-test", "version": "1.0.0",
		"games": []string{"goofspiel"}, "sdk_version": "test", "matches": matches}
	if err := a.write(ctx, reg); err != nil {
		return nil, err
	}
	f, err := a.read(ctx)
	if err != nil || f["t"] != "registered" {
		return nil, fmt.Errorf("register: %v %v", f, err)
	}
	return a, nil
}

func (a *agent) read(ctx context.Context) (map[string]any, error) {
	_, data, err := a.conn.Read(ctx)
	if err != nil {
		return nil, err
	}
	var f map[string]any
	return f, json.NewDecoder(bytes.NewReader(data)).Decode(&f)
}

func (a *agent) write(ctx context.Context, f any) error {
	data, _ := json.Marshal(f)
	return a.conn.Write(ctx, websocket.MessageText, data)
}

// play answers frames until matches game_end frames arrived.
func (a *agent) play(ctx context.Context, matches int) error {
	for len(a.ends) < matches {
		f, err := a.read(ctx)
		if err != nil {
			return err
		}
		switch f["t"] {
		case "initialize":
			err = a.write(ctx, map[string]any{"t": "response", "id": f["id"], "payload": map[string]any{"ready": true}})
		case "ping":
			err = a.write(ctx, map[string]any{"t": "pong", "id": f["id"]})
		case "event":
			a.events++
		case "turn":
			var v goofspiel.View
			raw, _ := json.Marshal(f["payload"])
			json.Unmarshal(raw, &v)
			// The SDK's layout: the move in payload (runtime.py).
			err = a.write(ctx, map[string]any{"t": "response", "id": f["id"], "payload": goofspiel.Baseline(v)})
		case "game_end":
			a.ends = append(a.ends, f)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (a *agent) close() { a.conn.Close(websocket.StatusNormalClosure, "") }

func timeout() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 60*time.Second)
}
