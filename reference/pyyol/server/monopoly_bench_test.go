package server_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/agentgames/conformance/reference/pyyol/monopoly"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// examplePick is the docs' Monopoly example: roll, buy, end_turn, else the
// first legal action.
func examplePick(legal []string) string {
	for _, a := range []string{"roll", "buy", "end_turn"} {
		if slices.Contains(legal, a) {
			return a
		}
	}
	return legal[0]
}

// playMonopoly registers for n Monopoly matches on one socket and answers
// every turn with examplePick until n game_end frames came.
func playMonopoly(ctx context.Context, base, id, token string, n int) error {
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+server.BasePath+"/agent/connect", nil)
	if err != nil {
		return err
	}
	defer conn.CloseNow()
	conn.SetReadLimit(8 << 20)
	send := func(v any) error { b, _ := json.Marshal(v); return conn.Write(ctx, websocket.MessageText, b) }
	if err := send(map[string]any{"t": "register", "agent_id": id, "token": token, "agent_name": "bench",
		"version": "1.0.0", "games": []string{"monopoly"}, "sdk_version": "bench", "matches": n}); err != nil {
		return err
	}
	for ends := 0; ends < n; {
		_, data, err := conn.Read(ctx)
		if err != nil {
			return err
		}
		var f struct {
			T    string        `json:"t"`
			ID   string        `json:"id"`
			View monopoly.View `json:"payload"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			return err
		}
		switch f.T {
		case "initialize":
			send(map[string]any{"t": "response", "id": f.ID, "ready": true})
		case "turn":
			send(map[string]any{"t": "response", "id": f.ID, "move": monopoly.Move{Action: examplePick(f.View.LegalActions)}})
		case "game_end":
			ends++
		}
	}
	return nil
}

// TestMonopolyPracticeOverTheSocket: a registration for monopoly plays a
// whole practice match to game_end.
func TestMonopolyPracticeOverTheSocket(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(server.New(server.Options{}))
	defer srv.Close()
	id, token, err := key(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := playMonopoly(ctx, srv.URL, id, token, 1); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkMonopolyGatewayVsInProcess plays full default Monopoly games
// (4 seats, the docs' example agent in seat 0, engine bots elsewhere)
// through the gateway and in process, in one run, and reports both rates
// and their ratio. Check it compiles and runs with -benchtime=3x.
func BenchmarkMonopolyGatewayVsInProcess(b *testing.B) {
	srv := httptest.NewServer(server.New(server.Options{}))
	defer srv.Close()
	id, token, err := key(srv.URL)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	b.ResetTimer()
	start := time.Now()
	if err := playMonopoly(ctx, srv.URL, id, token, b.N); err != nil {
		b.Fatal(err)
	}
	gateway := time.Since(start)
	start = time.Now()
	for i := 0; i < b.N; i++ {
		g, _ := monopoly.New(monopoly.DefaultRules(), uint64(i))
		for !g.Over() {
			seat := g.Actor()
			if seat == 0 {
				v := g.View(0)
				g.Apply(0, monopoly.Move{Action: examplePick(v.LegalActions)})
			} else {
				g.Apply(seat, g.Bot(seat))
			}
		}
		g.EventsAfter(0)
	}
	inProcess := time.Since(start)
	b.ReportMetric(float64(b.N)/gateway.Seconds(), "gateway-games/s")
	b.ReportMetric(float64(b.N)/inProcess.Seconds(), "inprocess-games/s")
	b.ReportMetric(gateway.Seconds()/inProcess.Seconds(), "gateway/inprocess")
}
