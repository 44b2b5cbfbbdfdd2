package cli_test

import (
	"context"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/audit"
)

// pyyolAgent is a scripted gateway agent: it plays one Goofspiel match,
// answering each turn through answer.
type pyyolAgent struct {
	t     *testing.T
	conn  *websocket.Conn
	token string
}

// serveGatewayAudited serves pyyol-gateway with an audit.
func serveGatewayAudited(t *testing.T) (string, *audit.Auditor) {
	t.Helper()
	p, ok := protocols.Lookup("pyyol-gateway")
	require.True(t, ok)
	a := audit.New(nil)
	srv := httptest.NewServer(cli.ServeMuxWith([]*suite.Protocol{p}, 7, log.New(io.Discard, "", 0), cli.ServeOptions{Audit: a}))
	t.Cleanup(srv.Close)
	return srv.URL, a
}

// dialPyyol mints a practice key and opens a socket, without registering.
func dialPyyol(t *testing.T, ctx context.Context, base string) *pyyolAgent {
	resp, err := http.Post(base+"/v1/practice/agents", "application/json", strings.NewReader(`{}`))
	require.NoError(t, err)
	var k struct {
		Token string `json:"token"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&k))
	resp.Body.Close()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/v1/agent/connect", nil)
	require.NoError(t, err)
	conn.SetReadLimit(1 << 20)
	t.Cleanup(func() { conn.CloseNow() })
	a := &pyyolAgent{t: t, conn: conn, token: k.Token}
	require.Equal(t, "hello", a.read(ctx)["t"])
	return a
}

func (a *pyyolAgent) read(ctx context.Context) map[string]any {
	_, data, err := a.conn.Read(ctx)
	require.NoError(a.t, err)
	var f map[string]any
	require.NoError(a.t, json.Unmarshal(data, &f))
	return f
}

func (a *pyyolAgent) send(ctx context.Context, f any) {
	data, _ := json.Marshal(f)
	require.NoError(a.t, a.conn.Write(ctx, websocket.MessageText, data))
}

func (a *pyyolAgent) register(ctx context.Context) {
	a.send(ctx, map[string]any{"t": "register", "token": a.token, "agent_name": "audit-test", "version": "1.0.0", "games": []string{"goofspiel"}})
	for f := a.read(ctx); f["t"] != "registered"; f = a.read(ctx) {
		require.True(a.t, f["t"] != "error" || f["error"] == "register_first", "%v", f)
	}
}

// play answers frames until game_end; answer sends the responses to a turn.
func (a *pyyolAgent) play(ctx context.Context, answer func(turn map[string]any, round int, hand []int)) {
	for {
		f := a.read(ctx)
		switch f["t"] {
		case "initialize":
			a.send(ctx, map[string]any{"t": "response", "id": f["id"], "ready": true})
		case "ping":
			a.send(ctx, map[string]any{"t": "pong"})
		case "turn":
			var v struct {
				Round        int   `json:"round"`
				LegalActions []int `json:"legal_actions"`
			}
			raw, _ := json.Marshal(f["view"])
			require.NoError(a.t, json.Unmarshal(raw, &v))
			answer(f, v.Round, v.LegalActions)
		case "game_end":
			return
		}
	}
}

// TestPyyolAuditNamesWhatAnAgentBrokeOnTheSocket: an agent that sends a
// frame before register (named for it once it registers), bids for the wrong round with a card it does not
// hold, bids twice, answers an event and answers an id it was never sent
// gets each rule named with its quote and the frame; a polite agent gets a
// clean audit; neither key is ever shown.
func TestPyyolAuditNamesWhatAnAgentBrokeOnTheSocket(t *testing.T) {
	base, au := serveGatewayAudited(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	rude := dialPyyol(t, ctx, base)
	rude.send(ctx, map[string]any{"t": "response", "id": "early"})
	rude.register(ctx)
	rude.play(ctx, func(turn map[string]any, round int, hand []int) {
		if round == 0 {
			rude.send(ctx, map[string]any{"t": "response", "id": turn["id"], "move": map[string]int{"round": 5, "card": 99}})
			rude.send(ctx, map[string]any{"t": "response", "id": turn["id"], "move": map[string]int{"round": 0, "card": hand[0]}})
			rude.send(ctx, map[string]any{"t": "response", "move": map[string]int{"round": 0, "card": hand[0]}})
			rude.send(ctx, map[string]any{"t": "response", "id": "turn_never_sent", "move": map[string]int{"round": 0, "card": hand[0]}})
			return
		}
		rude.send(ctx, map[string]any{"t": "response", "id": turn["id"], "move": map[string]int{"round": round, "card": slices.Max(hand)}})
	})

	polite := dialPyyol(t, ctx, base)
	polite.register(ctx)
	polite.send(ctx, map[string]any{"t": "ping"})
	polite.play(ctx, func(turn map[string]any, round int, hand []int) {
		polite.send(ctx, map[string]any{"t": "response", "id": turn["id"], "move": map[string]int{"round": round, "card": slices.Min(hand)}})
	})
	polite.conn.Close(websocket.StatusNormalClosure, "")
	rude.conn.Close(websocket.StatusNormalClosure, "")

	rep := cli.BuildAuditReport(au)
	byName := map[string]cli.AuditAgent{}
	for _, ag := range rep.Agents {
		byName[ag.Agent] = ag
	}
	politeRec, ok := byName[audit.AgentName(polite.token)]
	require.True(t, ok, "the polite agent is in the audit")
	assert.True(t, politeRec.Clean, "%v", politeRec.Findings)
	assert.Positive(t, politeRec.Requests["pyyol-gateway"])
	rudeRules := byName[audit.AgentName(rude.token)].BrokenRules()
	for _, want := range []string{"PYYOL-AGENT-REGISTER", "PYYOL-AGENT-GOOF-ROUND", "PYYOL-AGENT-GOOF-CARD", "PYYOL-AGENT-GOOF-ONE-BID", "PYYOL-AGENT-ONE-WAY", "PYYOL-AGENT-RESPONSE-ID"} {
		assert.Contains(t, rudeRules, want)
	}
	for _, format := range []string{"", "?format=text", "?format=html"} {
		resp, err := http.Get(base + "/_audit" + format)
		require.NoError(t, err)
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Contains(t, string(page), "PYYOL-AGENT-GOOF-ROUND", format)
		assert.Contains(t, string(page), "frame response turn_", format)
		for _, key := range []string{rude.token, polite.token} {
			assert.NotContains(t, string(page), key, "the audit never shows a key (%s)", format)
		}
	}
}
