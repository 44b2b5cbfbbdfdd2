package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/benchpair"
	"github.com/agentgames/conformance/reference/pyyol/mafia"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// dialMafia registers a test agent for Mafia practice with a role.
func dialMafia(ctx context.Context, base, id, token, role string, matches int) (*agent, error) {
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+server.BasePath+"/agent/connect", nil)
	if err != nil {
		return nil, err
	}
	conn.SetReadLimit(1 << 22)
	a := &agent{conn: conn}
	if _, err := a.read(ctx); err != nil {
		return nil, err
	}
	reg := map[string]any{"t": "register", "agent_id": id, "token": token, "agent_name": "go-test", "version": "1.0.0",
		"games": []string{"mafia"}, "sdk_version": "test", "matches": matches, "practice": map[string]any{"seat": 3, "role": role}}
	if err := a.write(ctx, reg); err != nil {
		return nil, err
	}
	if f, err := a.read(ctx); err != nil || f["t"] != "registered" {
		return nil, fmt.Errorf("register: %v %v", f, err)
	}
	return a, nil
}

// playMafia answers every Mafia turn with the baseline until matches
// game_end frames arrived; it returns the views it saw.
func (a *agent) playMafia(ctx context.Context, matches int) ([]mafia.View, error) {
	var views []mafia.View
	for len(a.ends) < matches {
		f, err := a.read(ctx)
		if err != nil {
			return views, err
		}
		switch f["t"] {
		case "initialize":
			err = a.write(ctx, map[string]any{"t": "response", "id": f["id"], "ready": true})
		case "event":
			a.events++
		case "turn":
			var v mafia.View
			raw, _ := json.Marshal(f["payload"])
			json.Unmarshal(raw, &v)
			views = append(views, v)
			err = a.write(ctx, map[string]any{"t": "response", "id": f["id"], "move": mafia.Baseline(v)})
		case "game_end":
			a.ends = append(a.ends, f)
		}
		if err != nil {
			return views, err
		}
	}
	return views, nil
}

func TestMafiaPracticeMatchEnds(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(server.New(server.Options{TurnTimeout: 5 * time.Second}))
	defer srv.Close()
	ctx, cancel := timeout()
	defer cancel()
	for _, role := range []string{mafia.Mafia, mafia.Detective, mafia.Villager} {
		id, token, err := key(srv.URL)
		require.NoError(t, err)
		a, err := dialMafia(ctx, srv.URL, id, token, role, 1)
		require.NoError(t, err)
		views, err := a.playMafia(ctx, 1)
		require.NoError(t, err)
		a.close()
		require.NotEmpty(t, views)
		for _, v := range views {
			require.Equal(t, role, v.YourRole, "the practice role was honoured")
			require.Equal(t, 3, v.YourSeat)
		}
		res := a.ends[0]["payload"].(map[string]any)
		require.Contains(t, []any{mafia.TeamTown, mafia.TeamMafia}, res["winner"])
		require.Equal(t, role, res["roles"].([]any)[3])
	}
}

// BenchmarkMafiaGatewayVsInProcess plays whole Mafia matches through the
// gateway (one agent seat over loopback, eleven baseline seats) and on the
// engine alone, interleaved A B A B, and reports "gateway/inprocess"
// (time). Both sides play the same matches: the in-process match n is
// dealt as the gateway deals its n-th (its seed, seat 3, a Villager).
func BenchmarkMafiaGatewayVsInProcess(b *testing.B) {
	srv := httptest.NewServer(server.New(server.Options{TurnTimeout: 5 * time.Second}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	id, token, err := key(srv.URL)
	if err != nil {
		b.Fatal(err)
	}
	a, err := dialMafia(ctx, srv.URL, id, token, mafia.Villager, benchTotal(b.N))
	if err != nil {
		b.Fatal(err)
	}
	defer a.close()
	target, played := 0, uint64(0)
	gateway := func(n int) {
		target += n
		if _, err := a.playMafia(ctx, target); err != nil {
			b.Fatal(err)
		}
	}
	engine := func(n int) {
		for range n {
			played++
			m := mafia.NewWithRoles(mafia.DealFor(gatewaySeedBytes(0, played), 3, mafia.Villager))
			for !m.Done() {
				s := m.Waiting()[0]
				m.Act(s, mafia.Baseline(m.View(s)))
			}
		}
	}
	benchpair.Report(b, "gateway/inprocess", gateway, engine)
}
