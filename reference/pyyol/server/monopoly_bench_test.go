package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/agentgames/conformance/conformance/benchpair"
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
	return playMonopolyEach(ctx, base, id, token, n, nil)
}

// playMonopolyEach is playMonopoly handing each game_end's winners to
// onEnd (when set).
func playMonopolyEach(ctx context.Context, base, id, token string, n int, onEnd func(winners []int)) error {
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
		var end struct {
			Payload struct {
				Winners []int `json:"winners"`
			} `json:"payload"`
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
			if onEnd != nil && json.Unmarshal(data, &end) == nil {
				onEnd(end.Payload.Winners)
			}
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

// gatewaySeed is the seed the reference gateway deals its n-th match
// with (server.go, derive: SHA-256 of the label, the gateway's seed and n,
// big-endian), so the in-process side can play the very same games.
func gatewaySeed(seed int64, n uint64) uint64 {
	return binary.BigEndian.Uint64(gatewaySeedBytes(seed, n))
}

// gatewaySeedBytes is the 32-byte seed of the gateway's n-th match, as
// Goofspiel and Mafia take it.
func gatewaySeedBytes(seed int64, n uint64) []byte {
	var buf [16]byte
	binary.BigEndian.PutUint64(buf[:8], uint64(seed))
	binary.BigEndian.PutUint64(buf[8:], n)
	sum := sha256.Sum256(append([]byte("seed"), buf[:]...))
	return sum[:]
}

// benchTotal is how many units benchpair.Measure runs for n: its rounds
// times the per-round share, so a socket can register for exactly that
// many matches up front.
func benchTotal(n int) int {
	per := (n + benchpair.Rounds - 1) / benchpair.Rounds
	return max(per, 1) * benchpair.Rounds
}

// playInProcess plays the gateway's n-th match on the engine alone: the
// same rules (defaults, the agent in seat 0), the same seed, the docs'
// example moves in seat 0 and engine bots elsewhere, and returns the
// winners.
func playInProcess(n uint64) []int {
	g, _ := monopoly.New(monopoly.DefaultRules(), gatewaySeed(0, n))
	for !g.Over() {
		seat := g.Actor()
		if seat == 0 {
			g.Apply(0, monopoly.Move{Action: examplePick(g.View(0).LegalActions)})
		} else {
			g.Apply(seat, g.Bot(seat))
		}
	}
	g.EventsAfter(0)
	return g.Winners()
}

// BenchmarkMonopolyGatewayVsInProcess plays full default Monopoly games
// (4 seats, the docs' example agent in seat 0, engine bots elsewhere)
// through the gateway and in process, interleaved A B A B, and reports
// "gateway/inprocess" (time). Both sides play the same games: match n of
// the in-process side is dealt with the seed the gateway deals its n-th
// match with, and the benchmark fails when a game's winners differ.
func BenchmarkMonopolyGatewayVsInProcess(b *testing.B) {
	srv := httptest.NewServer(server.New(server.Options{}))
	defer srv.Close()
	id, token, err := key(srv.URL)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var viaGateway [][]int
	var played uint64
	gateway := func(n int) {
		if err := playMonopolyEach(ctx, srv.URL, id, token, n, func(w []int) { viaGateway = append(viaGateway, w) }); err != nil {
			b.Fatal(err)
		}
	}
	inProcess := func(n int) {
		for range n {
			played++
			if w := playInProcess(played); !slices.Equal(w, viaGateway[played-1]) {
				b.Fatalf("match %d: in process winners %v, through the gateway %v: not the same game", played, w, viaGateway[played-1])
			}
		}
	}
	benchpair.Report(b, "gateway/inprocess", gateway, inProcess)
}
