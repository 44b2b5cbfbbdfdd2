package suite_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/quota"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/spec"
)

// The "relay" toy uses every transport Env hands out: a WebSocket echo on
// the target, an inbound endpoint the runner hosts, a signed push to it,
// JSON-RPC over the HTTP driver, the embedded controls and the planner.

const relaySecret = "relay_push_secret_0123456789"

const relayFeature = `@relay
Feature: Relay
  @RELAY-ECHO
  Rule: frames echo
    Scenario: every transport
      When the agent echoes a frame over the live channel
      And the runner pushes a signed request to an inbound endpoint
      Then the controls are there on the embedded reference only
      And the quota plan is shared

    Scenario: two frames
      When the agent echoes a frame over the live channel
      And the agent echoes a frame over the live channel

    Scenario: a route beside the target
      When the runner calls the platform beside the target twice
`

const relayOpenAPI = `openapi: 3.0.3
info: {title: relay, version: "1"}
paths:
  /rpc:
    post:
      operationId: rpc
      responses:
        "200": {description: a JSON-RPC answer}
`

// relayServer echoes WebSocket frames at /relay/ws and answers JSON-RPC at
// /relay/rpc.
func relayServer(suite.ReferenceConfig) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/relay/ws", func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		for {
			_, data, err := c.Read(r.Context())
			if err != nil {
				return
			}
			c.Write(r.Context(), websocket.MessageText, data)
		}
	})
	mux.HandleFunc("POST /relay/rpc", func(w http.ResponseWriter, r *http.Request) {
		var req struct{ ID int64 }
		json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"pong": true}})
	})
	return mux
}

func relaySteps(sc *suite.ScenarioContext, env *suite.Env) {
	sc.Step(suite.Pattern(`^the agent echoes a frame over the live channel$`), func(ctx context.Context) error {
		url := "ws" + strings.TrimPrefix(env.HTTP.BaseURL(), "http") + "/ws"
		ws, err := env.DialWS(ctx, url, nil, driver.WSOptions{})
		if err != nil {
			return err
		}
		got, err := ws.Call(ctx, map[string]any{"id": 1, "say": "hello"}, nil)
		if err != nil {
			return err
		}
		if !strings.Contains(string(got), "hello") {
			return verdict.Failf("RELAY-ECHO", "hello", string(got), "")
		}
		var rpc struct{ Pong bool }
		return env.JSONRPC(driver.JSONRPCOptions{Path: "/rpc", Rule: "RELAY-ECHO"}).Call(ctx, "ping", nil, &rpc)
	})
	sc.Step(suite.Pattern(`^the runner pushes a signed request to an inbound endpoint$`), func(ctx context.Context) error {
		in, err := env.Inbound(driver.InboundOptions{})
		if err != nil {
			return err
		}
		push, err := env.SignedPush(in.URL(), driver.NewHMACSigner(relaySecret, driver.PyyolScheme(), nil))
		if err != nil {
			return err
		}
		if _, err := push.Do(ctx, driver.Request{Method: "POST", Path: "/hook", JSON: map[string]string{"n": "1"}}); err != nil {
			return err
		}
		_, err = in.Next(ctx)
		return err
	})
	sc.Step(suite.Pattern(`^the runner calls the platform beside the target twice$`), func(ctx context.Context) error {
		beside, err := env.HTTPAt(env.HTTP.BaseURL())
		if err != nil {
			return err
		}
		for i := 0; i < 2; i++ {
			if _, err := beside.Do(ctx, driver.Request{Method: "POST", Path: "/rpc", JSON: map[string]any{"jsonrpc": "2.0", "id": i, "method": "ping"}}); err != nil {
				return err
			}
		}
		return nil
	})
	sc.Step(suite.Pattern(`^the controls are there on the embedded reference only$`), func() error {
		c, err := env.Control()
		if env.Live() != (err != nil) || (err != nil && !suite.IsNoControl(err)) || (err == nil && c.Clock == nil) {
			return verdict.Errorf("Control() = %v, %v on a live=%v target", c, err, env.Live())
		}
		return nil
	})
	sc.Step(suite.Pattern(`^the quota plan is shared$`), func() error {
		a, err := env.Quota(quota.Limits{Runs: 30}, quota.Limits{Runs: 2})
		if err != nil {
			return err
		}
		b, _ := env.Quota(quota.Limits{Runs: 99}, quota.Limits{})
		if a != b || a.Plan().Runs != 28 {
			return verdict.Errorf("two planners, or a wrong plan: %v", a)
		}
		return nil
	})
}

func relayProtocol() *suite.Protocol {
	return &suite.Protocol{Name: "relay", Title: "Relay", BasePath: "/relay", Reference: relayServer, Steps: relaySteps,
		Catalogue: &spec.Catalogue{Protocol: "relay", Rules: []spec.Rule{
			{ID: "RELAY-ECHO", Level: spec.Must, Title: "frames echo", Quote: "echo", Path: "$.echo"}}},
		Features: fstest.MapFS{"relay/relay.feature": {Data: []byte(relayFeature)}}, OpenAPI: []byte(relayOpenAPI)}
}

func TestEnvHandsOutEveryTransportOnTheRunsLimits(t *testing.T) {
	for _, live := range []bool{false, true} {
		cfg := suite.Config{Protocols: []*suite.Protocol{relayProtocol()}, Seed: 1, Checks: -1}
		if live {
			srv := newLoopback(t, relayServer(suite.ReferenceConfig{}))
			cfg.Target = srv + "/relay"
		}
		rep, err := suite.Run(context.Background(), cfg)
		require.NoError(t, err)
		require.Len(t, rep.Results, 3)
		assert.Equal(t, verdict.Pass, rep.Results[1].Status, rep.Results[1].Message)
		assert.Equal(t, verdict.Pass, rep.Results[2].Status, rep.Results[2].Message)
		res := rep.Results[0]
		require.Equal(t, verdict.Pass, res.Status, "live=%v: %s", live, res.Message)
		methods := map[string]bool{}
		for _, x := range res.Transcript {
			methods[x.Method] = true
			assert.NotContains(t, x.ReqHeader["Authorization"]+x.ReqHeader["X-Signature"]+x.RespBody+x.ReqBody, relaySecret)
		}
		for _, m := range []string{driver.FrameOut, driver.FrameIn, "POST"} {
			assert.True(t, methods[m], "live=%v: the scenario's transcript lacks %s exchanges: %v", live, m, methods)
		}
	}
}

func TestEnvDriversShareTheWriteBudget(t *testing.T) {
	p := relayProtocol()
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{p}, Seed: 1, Checks: -1,
		MaxWrites: 3, Scenarios: []string{"relay/relay.feature:11"}})
	require.NoError(t, err)
	require.Len(t, rep.Results, 1)
	// Each echo spends a frame and a JSON-RPC POST, from one budget: the
	// second echo's POST is the fourth write, and skips.
	assert.Equal(t, verdict.Skip, rep.Results[0].Status, rep.Results[0].Message)
	assert.Contains(t, rep.Results[0].Message, "write budget")
}

func TestHTTPAtSharesTheWriteBudget(t *testing.T) {
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{relayProtocol()}, Seed: 1, Checks: -1,
		MaxWrites: 1, Scenarios: []string{"relay/relay.feature:15"}})
	require.NoError(t, err)
	require.Len(t, rep.Results, 1)
	// The second POST through HTTPAt is the second write of a budget of one.
	assert.Equal(t, verdict.Skip, rep.Results[0].Status, rep.Results[0].Message)
	assert.Contains(t, rep.Results[0].Message, "write budget")
}

// newLoopback serves h on a loopback port for the test's duration.
func newLoopback(t *testing.T, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestWaitOutWaitsLiveOnlyUnderLong: a live window is waited out only
// under --long, never past the run's deadline; without --long it skips
// naming the flag.
func TestWaitOutWaitsLiveOnlyUnderLong(t *testing.T) {
	err := (&suite.Env{}).WaitOut(context.Background(), time.Hour)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--long")
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err = (&suite.Env{Long: true}).WaitOut(ctx, time.Hour)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "raise --deadline")
	assert.NoError(t, (&suite.Env{Long: true}).WaitOut(context.Background(), 10*time.Millisecond))
}
