package server_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/pyyol/mafia"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// TestMafiaThroughTheGatewayKeepsTheRules plays many Mafia matches over
// one socket, answering turns at random with a legal move, an illegal one
// or a handler error, and checks from the agent's side: every match ends
// with a winner, every view is redacted (no other seat's role, allies
// only for Mafia, private only the seat's own night results), and every
// legal message and vote the agent sent is in the transcript as sent.
func TestMafiaThroughTheGatewayKeepsTheRules(t *testing.T) {
	t.Parallel()
	const matches = 300
	srv := httptest.NewServer(server.New(server.Options{TurnTimeout: 5 * time.Second}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	id, token, err := key(srv.URL)
	require.NoError(t, err)
	a, err := dialMafia(ctx, srv.URL, id, token, "", matches)
	require.NoError(t, err)
	defer a.close()
	rng := rand.New(rand.NewPCG(1, 2))
	var sent []mafia.Move
	for len(a.ends) < matches {
		f, err := a.read(ctx)
		require.NoError(t, err)
		switch f["t"] {
		case "initialize":
			require.NoError(t, a.write(ctx, map[string]any{"t": "response", "id": f["id"], "ready": true}))
		case "turn":
			v := decodeView(t, f["payload"])
			checkSeatView(t, v)
			reply := randomReply(rng, v, f["id"])
			if mv, ok := reply["move"].(mafia.Move); ok && mv.Action != "dance" {
				sent = append(sent, mv)
			}
			require.NoError(t, a.write(ctx, reply))
		case "game_end":
			a.ends = append(a.ends, f)
			res := f["payload"].(map[string]any)
			require.Contains(t, []any{mafia.TeamTown, mafia.TeamMafia}, res["winner"])
			checkPlayedAsSent(t, res, sent)
			sent = nil
		}
	}
}

func decodeView(t *testing.T, raw any) mafia.View {
	data, _ := json.Marshal(raw)
	var v mafia.View
	require.NoError(t, json.Unmarshal(data, &v))
	require.NotContains(t, strings.ReplaceAll(string(data), `"your_role":"`+v.YourRole+`"`, ""), `"role`, "no role field")
	return v
}

// checkSeatView: allies only for Mafia, private only own night results.
func checkSeatView(t *testing.T, v mafia.View) {
	require.Equal(t, v.YourRole == mafia.Mafia, len(v.Allies) == 2, "allies for Mafia only")
	for _, e := range v.Private {
		require.Equal(t, mafia.ActionOf(v.YourRole), e.Payload["action"], "only the seat's own night results")
	}
	for _, e := range v.Public {
		require.NotEqual(t, mafia.EventNight, e.Type)
	}
}

// randomReply answers a turn: mostly a legal move, sometimes an illegal
// one or a handler error (both take the fallback).
func randomReply(rng *rand.Rand, v mafia.View, id any) map[string]any {
	switch rng.IntN(6) {
	case 0:
		return map[string]any{"t": "response", "id": id, "move": mafia.Move{Action: "dance"}}
	case 1:
		return map[string]any{"t": "response", "id": id, "error": "boom"}
	}
	mv := mafia.Baseline(v)
	if mv.Target != nil && mv.Action != mafia.ActProtect {
		var alive []int
		for s := range mafia.Seats {
			if ok := v.Alive[strconv.Itoa(s)]; ok && s != v.YourSeat && !(mv.Action == mafia.ActNightKill && slices.Contains(v.Allies, s)) {
				alive = append(alive, s)
			}
		}
		mv.Target = mafia.At(alive[rng.IntN(len(alive))])
	}
	if mv.Action == mafia.ActMessage {
		mv.Text = "msg " + strconv.Itoa(rng.IntN(1000))
	}
	return map[string]any{"t": "response", "id": id, "move": mv}
}

// checkPlayedAsSent: each legal message and vote appears in the final
// transcript from the agent's seat.
func checkPlayedAsSent(t *testing.T, res map[string]any, sent []mafia.Move) {
	data, _ := json.Marshal(res["transcript"])
	for _, mv := range sent {
		switch mv.Action {
		case mafia.ActMessage:
			require.Contains(t, string(data), `"text":"`+mv.Text+`"`)
		}
	}
}
