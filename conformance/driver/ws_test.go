package driver_test

// Tests of the WebSocket session driver against an in-process gateway that
// speaks Pyyol-shaped frames ({"t": ...}).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// gateway starts a loopback WebSocket server running script on each
// connection and returns its ws:// URL.
func gateway(t *testing.T, script func(ctx context.Context, c *websocket.Conn)) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		script(r.Context(), c)
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// readFrame reads one text frame from the server side as a map.
func readFrame(ctx context.Context, c *websocket.Conn) (map[string]any, error) {
	_, data, err := c.Read(ctx)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(data, &m)
}

func writeFrame(ctx context.Context, c *websocket.Conn, frame string) {
	_ = c.Write(ctx, websocket.MessageText, []byte(frame))
}

// holdOpen keeps the server side reading until the client leaves.
func holdOpen(ctx context.Context, c *websocket.Conn) {
	for {
		if _, _, err := c.Read(ctx); err != nil {
			return
		}
	}
}

func dial(t *testing.T, url string, opts driver.WSOptions) *driver.WS {
	t.Helper()
	ws, err := driver.DialWS(context.Background(), url, nil, opts)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return ws
}

func TestCallsGetTheirOwnResponsesOutOfOrderWithEventsInterleaved(t *testing.T) {
	url := gateway(t, func(ctx context.Context, c *websocket.Conn) {
		a, _ := readFrame(ctx, c)
		b, _ := readFrame(ctx, c)
		ids := map[string]bool{fmt.Sprint(a["id"]): true, fmt.Sprint(b["id"]): true}
		if !ids["r1"] || !ids["r2"] {
			return
		}
		writeFrame(ctx, c, `{"t":"event","seq":1}`)
		writeFrame(ctx, c, `{"t":"response","id":"r2","answer":"two"}`)
		writeFrame(ctx, c, `{"t":"event","seq":2}`)
		writeFrame(ctx, c, `{"t":"response","id":"r1","answer":"one"}`)
		holdOpen(ctx, c)
	})
	ws := dial(t, url, driver.WSOptions{})
	var wg sync.WaitGroup
	answers := make([]string, 2)
	errs := make([]error, 2)
	for i, id := range []string{"r1", "r2"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := ws.Call(context.Background(), map[string]string{"t": "turn", "id": id}, nil)
			errs[i] = err
			var m map[string]string
			_ = json.Unmarshal(got, &m)
			answers[i] = m["answer"]
		}()
	}
	wg.Wait()
	require.NoError(t, errs[0])
	require.NoError(t, errs[1])
	assert.Equal(t, []string{"one", "two"}, answers, "each call got the response with its own id")
	for _, seq := range []string{"1", "2"} {
		ev, err := ws.Next(context.Background())
		require.NoError(t, err)
		assert.JSONEq(t, `{"t":"event","seq":`+seq+`}`, string(ev), "events stay queued in arrival order")
	}
}

func TestCallWithExplicitMatcherAndCustomCorrelationField(t *testing.T) {
	url := gateway(t, func(ctx context.Context, c *websocket.Conn) {
		writeFrame(ctx, c, `{"t":"hello","version":"1.0"}`)
		f, _ := readFrame(ctx, c)
		if f["t"] == "register" {
			writeFrame(ctx, c, `{"t":"registered","agent_id":"ag_1"}`)
		}
		f, _ = readFrame(ctx, c)
		writeFrame(ctx, c, fmt.Sprintf(`{"t":"ack","corr":%v}`, f["corr"]))
		holdOpen(ctx, c)
	})
	ws := dial(t, url, driver.WSOptions{CorrelateBy: "corr"})
	hello, err := ws.Next(context.Background())
	require.NoError(t, err)
	assert.True(t, driver.FieldEquals("t", "hello")(hello))
	got, err := ws.Call(context.Background(), map[string]string{"t": "register"}, driver.FieldEquals("t", "registered"))
	require.NoError(t, err)
	assert.JSONEq(t, `{"t":"registered","agent_id":"ag_1"}`, string(got))
	got, err = ws.Call(context.Background(), map[string]any{"t": "q", "corr": 7}, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"t":"ack","corr":7}`, string(got), "correlated by the configured field, 7 == 7.0")
}

func TestCallTimeoutIsAHarnessError(t *testing.T) {
	url := gateway(t, holdOpen)
	ws := dial(t, url, driver.WSOptions{Timeout: 100 * time.Millisecond})
	_, err := ws.Call(context.Background(), map[string]string{"t": "turn", "id": "x"}, nil)
	var he *verdict.HarnessError
	require.True(t, errors.As(err, &he), "got %v", err)
	assert.ErrorIs(t, err, driver.ErrTimeout)
	_, err = ws.Next(context.Background())
	assert.ErrorIs(t, err, driver.ErrTimeout, "silence on Next is a timeout too")
}

func TestFrameWithoutCorrelationFieldIsRefused(t *testing.T) {
	ws := dial(t, gateway(t, holdOpen), driver.WSOptions{})
	_, err := ws.Call(context.Background(), map[string]string{"t": "turn"}, nil)
	var he *verdict.HarnessError
	assert.True(t, errors.As(err, &he), "got %v", err)
}

func TestHeartbeatIsAnsweredAndKeptOutOfEvents(t *testing.T) {
	pong := make(chan map[string]any, 1)
	url := gateway(t, func(ctx context.Context, c *websocket.Conn) {
		writeFrame(ctx, c, `{"t":"ping","id":9}`)
		f, err := readFrame(ctx, c)
		if err == nil {
			pong <- f
		}
		writeFrame(ctx, c, `{"t":"pong"}`)
		writeFrame(ctx, c, `{"t":"event","seq":1}`)
		holdOpen(ctx, c)
	})
	ws := dial(t, url, driver.WSOptions{Heartbeat: driver.TypeHeartbeat("t", "ping", "pong")})
	select {
	case f := <-pong:
		assert.Equal(t, map[string]any{"t": "pong", "id": float64(9)}, f)
	case <-time.After(5 * time.Second):
		t.Fatal("the ping was not answered")
	}
	ev, err := ws.Next(context.Background())
	require.NoError(t, err)
	assert.JSONEq(t, `{"t":"event","seq":1}`, string(ev), "ping and pong never reach Next")
}

func TestKeepaliveSendsFramesOnATicker(t *testing.T) {
	got := make(chan map[string]any, 4)
	url := gateway(t, func(ctx context.Context, c *websocket.Conn) {
		for {
			f, err := readFrame(ctx, c)
			if err != nil {
				return
			}
			got <- f
		}
	})
	dial(t, url, driver.WSOptions{KeepaliveEvery: 20 * time.Millisecond, KeepaliveFrame: map[string]string{"t": "ping"}})
	for i := 0; i < 2; i++ {
		select {
		case f := <-got:
			assert.Equal(t, "ping", f["t"])
		case <-time.After(5 * time.Second):
			t.Fatal("no keepalive frame")
		}
	}
}

func TestFullEventBufferIsAHarnessErrorNotASilentDrop(t *testing.T) {
	url := gateway(t, func(ctx context.Context, c *websocket.Conn) {
		f, _ := readFrame(ctx, c)
		for i := 1; i <= 3; i++ {
			writeFrame(ctx, c, fmt.Sprintf(`{"t":"event","seq":%d}`, i))
		}
		writeFrame(ctx, c, fmt.Sprintf(`{"t":"response","id":%q}`, f["id"]))
		holdOpen(ctx, c)
	})
	rec := &driver.Recorder{}
	ws := dial(t, url, driver.WSOptions{EventBuffer: 2, Recorder: rec})
	_, err := ws.Call(context.Background(), map[string]string{"id": "sync"}, nil)
	require.NoError(t, err, "the response after the events proves all three were dispatched")
	_, err = ws.Next(context.Background())
	var he *verdict.HarnessError
	require.True(t, errors.As(err, &he), "got %v", err)
	assert.ErrorIs(t, err, driver.ErrOverflow)
	assert.Contains(t, transcript(rec), `"seq":3`, "the lost frame is still in the transcript")
}

func TestPeerCloseEndsTheSessionWithItsStatus(t *testing.T) {
	url := gateway(t, func(ctx context.Context, c *websocket.Conn) {
		writeFrame(ctx, c, `{"t":"error","error":"unauthorized"}`)
		c.Close(4001, "unauthorized")
	})
	ws := dial(t, url, driver.WSOptions{})
	ev, err := ws.Next(context.Background())
	require.NoError(t, err, "a frame sent before the close is still delivered")
	assert.JSONEq(t, `{"t":"error","error":"unauthorized"}`, string(ev))
	_, err = ws.Next(context.Background())
	var he *verdict.HarnessError
	require.True(t, errors.As(err, &he), "got %v", err)
	<-ws.Done()
	assert.Equal(t, websocket.StatusCode(4001), websocket.CloseStatus(ws.Err()))
	_, err = ws.Call(context.Background(), map[string]string{"id": "late"}, nil)
	assert.True(t, errors.As(err, &he), "a call on an ended session is a harness error, got %v", err)
	assert.NoError(t, ws.Close(), "closing an ended session is not an error")
}

func TestDialFailureIsAHarnessErrorAndRecorded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no upgrade here", http.StatusBadRequest)
	}))
	defer srv.Close()
	rec := &driver.Recorder{}
	_, err := driver.DialWS(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http"), nil, driver.WSOptions{Recorder: rec})
	var he *verdict.HarnessError
	require.True(t, errors.As(err, &he), "got %v", err)
	x := rec.Exchanges()
	require.Len(t, x, 1)
	assert.Equal(t, "WS", x[0].Method)
	assert.Equal(t, 400, x[0].Status)
}

// TestDialToNoSocketIsNotServed: a handshake answered 404, 405 or 501
// says nothing serves the socket there, so the check that needs it is
// unchecked (a skip naming the route), never a harness error or a verdict.
func TestDialToNoSocketIsNotServed(t *testing.T) {
	for _, status := range []int{404, 405, 501} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, http.StatusText(status), status)
		}))
		rec := &driver.Recorder{}
		_, err := driver.DialWS(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http")+"/v1/agent/connect", nil, driver.WSOptions{Recorder: rec})
		srv.Close()
		var skip *verdict.Skipped
		require.True(t, errors.As(err, &skip), "status %d: got %v", status, err)
		route, ok := verdict.NotServedRoute(err.Error())
		assert.True(t, ok, "status %d: %v", status, err)
		assert.Equal(t, "GET /v1/agent/connect", route)
		require.Len(t, rec.Exchanges(), 1, "the handshake is in the transcript")
		assert.Equal(t, status, rec.Exchanges()[0].Status)
	}
}

func TestFramesAreRecordedBothWaysWithSecretsRedacted(t *testing.T) {
	const token = "sk_arena_0123456789abcdef"
	url := gateway(t, func(ctx context.Context, c *websocket.Conn) {
		f, _ := readFrame(ctx, c)
		writeFrame(ctx, c, fmt.Sprintf(`{"t":"registered","id":%q,"echo":%q}`, f["id"], f["token"]))
		holdOpen(ctx, c)
	})
	rec := &driver.Recorder{}
	secrets := &driver.Secrets{}
	header := http.Header{"Authorization": {"Bearer " + token}}
	ws, err := driver.DialWS(context.Background(), url+"?token="+token, header,
		driver.WSOptions{Recorder: rec, Secrets: secrets})
	require.NoError(t, err)
	defer ws.Close()
	ws.Secrets().Add(token)
	_, err = ws.Call(context.Background(), map[string]string{"t": "register", "id": "1", "token": token}, nil)
	require.NoError(t, err)
	x := rec.Exchanges()
	require.GreaterOrEqual(t, len(x), 3)
	assert.Equal(t, []string{"WS", driver.FrameOut, driver.FrameIn}, []string{x[0].Method, x[1].Method, x[2].Method})
	assert.Contains(t, x[1].ReqBody, `"t":"register"`)
	assert.Contains(t, x[2].RespBody, `"t":"registered"`)
	assert.NotContains(t, transcript(rec), token)
	assert.Contains(t, transcript(rec), driver.Redacted)
	assert.NoError(t, ws.Close())
	<-ws.Done()
	assert.Equal(t, websocket.StatusNormalClosure, websocket.CloseStatus(ws.Err()))
}

// transcript renders a recorder's exchanges as one string for searching.
func transcript(rec *driver.Recorder) string {
	return fmt.Sprintf("%+v", rec.Exchanges())
}

func TestWSFramesSpendTheSharedBudget(t *testing.T) {
	url := gateway(t, holdOpen)
	budget := driver.NewBudget(2)
	isWrite := func(f json.RawMessage) bool { return !strings.Contains(string(f), `"read"`) }
	ws := dial(t, url, driver.WSOptions{Budget: budget, IsWrite: isWrite})
	ctx := context.Background()
	require.NoError(t, ws.Send(ctx, map[string]any{"t": "move"}))
	require.NoError(t, ws.Send(ctx, map[string]any{"t": "read"}), "a frame IsWrite calls a read spends nothing")
	require.NoError(t, ws.Send(ctx, map[string]any{"t": "move"}))
	err := ws.Send(ctx, map[string]any{"t": "move"})
	var skip *verdict.Skipped
	assert.True(t, errors.As(err, &skip), "the third write finds the budget spent: %v", err)
	assert.EqualValues(t, 2, budget.Used())
}

func TestWSDialsStopOnceTheSharedBreakerOpens(t *testing.T) {
	srv := httptest.NewServer(nil)
	url := "ws" + strings.TrimPrefix(srv.URL, "http")
	srv.Close() // nothing listens there any more
	breaker := &driver.Breaker{}
	rec := &driver.Recorder{}
	for i := 0; i < driver.BreakerThreshold; i++ {
		_, err := driver.DialWS(context.Background(), url, nil, driver.WSOptions{Breaker: breaker, Recorder: rec})
		require.Error(t, err)
	}
	dialed := rec.Len()
	_, err := driver.DialWS(context.Background(), url, nil, driver.WSOptions{Breaker: breaker, Recorder: rec})
	assert.ErrorContains(t, err, "not answering")
	assert.Equal(t, dialed, rec.Len(), "an open breaker sends nothing")
}

// TestDialIsBoundedByDialTimeoutNotTheFrameWait: a wait for frames shorter
// than any handshake (1 ns) does not bound the dial, which has its own
// DialTimeout; a DialTimeout that has passed does.
func TestDialIsBoundedByDialTimeoutNotTheFrameWait(t *testing.T) {
	t.Parallel()
	url := gateway(t, holdOpen)
	dial(t, url, driver.WSOptions{Timeout: time.Nanosecond})
	_, err := driver.DialWS(context.Background(), url, nil, driver.WSOptions{DialTimeout: time.Nanosecond})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "websocket dial")
}
