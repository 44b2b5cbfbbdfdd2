package agentaudit

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// PyyolAgent is a scripted agent on Pyyol's gateway socket.
type PyyolAgent struct {
	Base    string // the server's origin and /v1
	Token   string
	AgentID string
	conn    *websocket.Conn
}

// MintPyyolAgent mints a practice key and opens a socket, reading hello,
// without registering.
func MintPyyolAgent(ctx context.Context, base string) (*PyyolAgent, error) {
	ans, err := expect(http.StatusCreated, "mint a practice key")(Do(ctx, Call{Method: http.MethodPost, URL: base + "/practice/agents", Body: `{}`}))
	if err != nil {
		return nil, err
	}
	var k struct {
		AgentID string `json:"agent_id"`
		Token   string `json:"token"`
	}
	if err := ans.Decode(&k); err != nil {
		return nil, err
	}
	a := &PyyolAgent{Base: base, Token: k.Token, AgentID: k.AgentID}
	return a, a.Dial(ctx)
}

// Dial opens a socket and reads its hello.
func (a *PyyolAgent) Dial(ctx context.Context) error {
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(a.Base, "http")+"/agent/connect", nil)
	if err != nil {
		return err
	}
	conn.SetReadLimit(1 << 20)
	a.conn = conn
	f, err := a.Read(ctx)
	if err == nil && f["t"] != "hello" {
		err = fmt.Errorf("the socket opened with %v, not hello", f["t"])
	}
	return err
}

// Close closes the socket normally.
func (a *PyyolAgent) Close() {
	if a.conn != nil {
		a.conn.Close(websocket.StatusNormalClosure, "")
	}
}

// Read reads one frame.
func (a *PyyolAgent) Read(ctx context.Context) (map[string]any, error) {
	_, data, err := a.conn.Read(ctx)
	if err != nil {
		return nil, err
	}
	var f map[string]any
	return f, json.Unmarshal(data, &f)
}

// Send writes one frame.
func (a *PyyolAgent) Send(ctx context.Context, f any) error {
	data, _ := json.Marshal(f)
	return a.conn.Write(ctx, websocket.MessageText, data)
}

// Register registers with token for games (and practice options) and reads
// until registered.
func (a *PyyolAgent) Register(ctx context.Context, token string, games []string, practice map[string]any) error {
	reg := map[string]any{"t": "register", "token": token, "agent_name": "audited", "version": "1.0.0", "games": games}
	if practice != nil {
		reg["practice"] = practice
	}
	if err := a.Send(ctx, reg); err != nil {
		return err
	}
	for {
		f, err := a.Read(ctx)
		if err != nil {
			return err
		}
		switch {
		case f["t"] == "registered":
			return nil
		case f["t"] == "error" && f["error"] != "register_first":
			return fmt.Errorf("register refused: %v", f)
		}
	}
}

// Turn is one turn frame: its id and its view.
type Turn struct {
	ID   string
	View json.RawMessage
}

// Play answers frames until game_end (or until onTurn says stop): ready
// to initialize, pong to ping, onTurn to each turn.
func (a *PyyolAgent) Play(ctx context.Context, onTurn func(t Turn) (stop bool, err error)) error {
	for {
		f, err := a.Read(ctx)
		if err != nil {
			return err
		}
		switch f["t"] {
		case "initialize":
			err = a.Send(ctx, map[string]any{"t": "response", "id": f["id"], "ready": true, "payload": map[string]any{"ready": true}})
		case "ping":
			err = a.Send(ctx, map[string]any{"t": "pong", "id": f["id"]})
		case "turn":
			// The view in payload (the platform's layout) or view.
			body := f["payload"]
			if body == nil {
				body = f["view"]
			}
			view, _ := json.Marshal(body)
			id, _ := f["id"].(string)
			var stop bool
			stop, err = onTurn(Turn{ID: id, View: view})
			if stop {
				return err
			}
		case "game_end":
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// GoofView is the part of a Goofspiel view a move needs.
type GoofView struct {
	Round        int   `json:"round"`
	LegalActions []int `json:"legal_actions"`
}

// Goof reads a Goofspiel turn's view.
func (t Turn) Goof() GoofView {
	var v GoofView
	_ = json.Unmarshal(t.View, &v)
	return v
}

// Bid answers a Goofspiel turn with card for round.
func (a *PyyolAgent) Bid(ctx context.Context, id string, round, card int) error {
	move := map[string]int{"round": round, "card": card}
	return a.Send(ctx, map[string]any{"t": "response", "id": id, "payload": move, "move": move})
}

// Move answers a Mafia or Monopoly turn with move.
func (a *PyyolAgent) Move(ctx context.Context, id string, move map[string]any) error {
	return a.Send(ctx, map[string]any{"t": "response", "id": id, "payload": move, "move": move})
}

// BidLowest answers a Goofspiel turn by the rules: its round, its lowest
// legal card.
func (a *PyyolAgent) BidLowest(ctx context.Context, t Turn) error {
	v := t.Goof()
	if len(v.LegalActions) == 0 {
		return fmt.Errorf("a turn with no legal_actions: %s", t.View)
	}
	return a.Bid(ctx, t.ID, v.Round, v.LegalActions[0])
}

// PyyolPolite registers, pings and plays one Goofspiel match by the rules,
// pinging every politePingEvery while it plays (PYYOL-AGENT-HEARTBEAT).
func PyyolPolite(ctx context.Context, a *PyyolAgent) error {
	if err := a.Register(ctx, a.Token, []string{"goofspiel"}, nil); err != nil {
		return err
	}
	if err := a.Send(ctx, map[string]any{"t": "ping"}); err != nil {
		return err
	}
	defer a.KeepPinging(ctx, politePingEvery)()
	return a.Play(ctx, func(t Turn) (bool, error) { return false, a.BidLowest(ctx, t) })
}

// politePingEvery is how often the polite agent pings: well inside the
// docs' "every few seconds" and a quarter of ScenarioClocks' heartbeat
// gap, so its clean audit holds however slowly a loaded machine plays.
const politePingEvery = 250 * time.Millisecond

// KeepPinging sends a ping every interval, beside the frames Play reads
// and answers, until the returned stop is called (or a send fails).
func (a *PyyolAgent) KeepPinging(ctx context.Context, every time.Duration) (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				if a.Send(ctx, map[string]any{"t": "ping"}) != nil {
					return
				}
			}
		}
	}()
	return func() { close(quit); <-done }
}

// pyyolScript wraps a play of one minted agent and closes its socket.
func pyyolScript(play func(ctx context.Context, a *PyyolAgent) error, faults ...string) Script {
	return Script{Faults: faults, Play: func(ctx context.Context, base string) error {
		a, err := MintPyyolAgent(ctx, base)
		if err != nil {
			return err
		}
		defer a.Close()
		return play(ctx, a)
	}}
}

// onFirstTurn registers for games and answers every turn with answer
// until answer says stop.
func onFirstTurn(games []string, practice map[string]any, answer func(ctx context.Context, a *PyyolAgent, t Turn) (bool, error)) func(ctx context.Context, a *PyyolAgent) error {
	return func(ctx context.Context, a *PyyolAgent) error {
		if err := a.Register(ctx, a.Token, games, practice); err != nil {
			return err
		}
		return a.Play(ctx, func(t Turn) (bool, error) { return answer(ctx, a, t) })
	}
}

// goofOnce registers for Goofspiel and answers its first turn with answer,
// then stops.
func goofOnce(answer func(ctx context.Context, a *PyyolAgent, t Turn) error) func(ctx context.Context, a *PyyolAgent) error {
	return onFirstTurn([]string{"goofspiel"}, nil, func(ctx context.Context, a *PyyolAgent, t Turn) (bool, error) {
		return true, answer(ctx, a, t)
	})
}
