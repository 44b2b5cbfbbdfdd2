package driver_test

// Tests of the JSON-RPC client against an in-process server shaped like the
// bounty's MCP streamable-http endpoint.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// seen is what the fake MCP server observed on one request.
type seen struct {
	method, session, version, accept string
	id                               any
}

// mcpServer is a fake streamable-http endpoint at /mcp.
type mcpServer struct {
	mu  sync.Mutex
	log []seen
	srv *httptest.Server
}

func newMCPServer(t *testing.T) *mcpServer {
	m := &mcpServer{}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	t.Cleanup(m.srv.Close)
	return m
}

func (m *mcpServer) client(opts driver.JSONRPCOptions) *driver.JSONRPC {
	opts.Path = "/mcp"
	return driver.NewJSONRPC(driver.NewHTTP(driver.HTTPOptions{BaseURL: m.srv.URL, Timeout: 5 * time.Second}), opts)
}

func (m *mcpServer) seen() []seen {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]seen(nil), m.log...)
}

func (m *mcpServer) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     any    `json:"id"`
		Method string `json:"method"`
	}
	body, _ := io.ReadAll(r.Body)
	if json.Unmarshal(body, &req) != nil {
		http.Error(w, "bad json", http.StatusBadRequest)
		return
	}
	m.mu.Lock()
	m.log = append(m.log, seen{method: req.Method, session: r.Header.Get("Mcp-Session-Id"),
		version: r.Header.Get("MCP-Protocol-Version"), accept: r.Header.Get("Accept"), id: req.ID})
	m.mu.Unlock()
	if req.ID == nil {
		w.WriteHeader(http.StatusAccepted) // a notification: 202, no body
		return
	}
	id, _ := json.Marshal(req.ID)
	m.answer(w, req.Method, string(id))
}

// answer writes the scripted reply for method.
func (m *mcpServer) answer(w http.ResponseWriter, method, id string) {
	ok := func(result string) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result) }
	switch method {
	case "initialize":
		w.Header().Set("Mcp-Session-Id", "sess-abc123")
		fmt.Fprint(w, ok(`{"protocolVersion":"2025-06-18","serverInfo":{"name":"bounty"}}`))
	case "tools/list":
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, ": keepalive comment\r\n")
		fmt.Fprint(w, "event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\r\n\r\n")
		fmt.Fprintf(w, "id: 7\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\r\ndata: \"result\":{\"tools\":[{\"name\":\"bounty_next_move\"}]}}\r\n\r\n", id)
	case "nope":
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found","data":{"method":"nope"}}}`, id)
	case "not-rpc":
		fmt.Fprint(w, `{"hello":1}`)
	case "wrong-id":
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":999,"result":{}}`)
	case "both":
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{},"error":{"code":1,"message":"x"}}`, id)
	case "stream-without-answer":
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\n")
	case "crash":
		w.WriteHeader(http.StatusInternalServerError)
	default:
		fmt.Fprint(w, ok(`{"tools":"not-an-array"}`))
	}
}

func TestMCPHandshakeMakesSessionAndVersionSticky(t *testing.T) {
	m := newMCPServer(t)
	c := m.client(driver.JSONRPCOptions{})
	var init struct {
		ServerInfo struct{ Name string } `json:"serverInfo"`
	}
	require.NoError(t, c.InitializeMCP(context.Background(), "2025-06-18", map[string]string{"name": "kit"}, &init))
	assert.Equal(t, "bounty", init.ServerInfo.Name)
	assert.Equal(t, "sess-abc123", c.SessionID())
	assert.Equal(t, http.StatusAccepted, c.LastResponse().Status, "the initialized notification got 202")
	require.NoError(t, c.Call(context.Background(), "tools/list", nil, nil))

	s := m.seen()
	require.Len(t, s, 3)
	assert.Equal(t, []string{"initialize", "notifications/initialized", "tools/list"}, []string{s[0].method, s[1].method, s[2].method})
	assert.Equal(t, "", s[0].session, "no session before the server assigns one")
	assert.Equal(t, "sess-abc123", s[1].session)
	assert.Equal(t, "sess-abc123", s[2].session)
	assert.Equal(t, "2025-06-18", s[2].version)
	assert.Equal(t, "application/json, text/event-stream", s[0].accept)
	assert.Equal(t, float64(1), s[0].id)
	assert.Nil(t, s[1].id, "a notification carries no id")
	assert.Equal(t, float64(2), s[2].id, "ids increment per call")
}

func TestEventStreamResponseIsExtractedAndOtherMessagesKept(t *testing.T) {
	m := newMCPServer(t)
	c := m.client(driver.JSONRPCOptions{})
	var out struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	require.NoError(t, c.Call(context.Background(), "tools/list", nil, &out))
	require.Len(t, out.Tools, 1)
	assert.Equal(t, "bounty_next_move", out.Tools[0].Name, "the two data lines were joined into one message")
	msgs := c.ServerMessages()
	require.Len(t, msgs, 1)
	assert.Contains(t, string(msgs[0]), "notifications/progress")
}

func TestErrorObjectIsATypedRPCError(t *testing.T) {
	c := newMCPServer(t).client(driver.JSONRPCOptions{Rule: "TEST-RPC"})
	err := c.Call(context.Background(), "nope", map[string]int{"a": 1}, nil)
	var re *driver.RPCError
	require.True(t, errors.As(err, &re), "got %v", err)
	assert.Equal(t, -32601, re.Code)
	assert.Equal(t, "Method not found", re.Message)
	assert.JSONEq(t, `{"method":"nope"}`, string(re.Data))
	var f *verdict.Failure
	assert.False(t, errors.As(err, &f), "an error object is an answer, not a broken rule")
}

func TestMalformedAnswersFailTheClientRule(t *testing.T) {
	c := newMCPServer(t).client(driver.JSONRPCOptions{Rule: "TEST-RPC"})
	for _, method := range []string{"not-rpc", "wrong-id", "both", "stream-without-answer", "crash"} {
		err := c.Call(context.Background(), method, nil, nil)
		var f *verdict.Failure
		if assert.True(t, errors.As(err, &f), "%s: got %v", method, err) {
			assert.Equal(t, "TEST-RPC", f.RuleID, method)
		}
	}
	var out struct{ Tools []string }
	err := c.Call(context.Background(), "tools/wrong-shape", nil, &out)
	var f *verdict.Failure
	assert.True(t, errors.As(err, &f), "a result of the wrong shape fails the rule, got %v", err)
}

func TestNotificationAnsweredWithAnErrorStatusFails(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
	}))
	defer srv.Close()
	c := driver.NewJSONRPC(driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL}), driver.JSONRPCOptions{Path: "/", Rule: "TEST-RPC"})
	err := c.Notify(context.Background(), "notifications/initialized", nil)
	var f *verdict.Failure
	require.True(t, errors.As(err, &f), "got %v", err)
	assert.Equal(t, 400, f.Observed)
}

func TestUnreachableEndpointIsAHarnessError(t *testing.T) {
	srv := httptest.NewServer(nil)
	srv.Close()
	c := driver.NewJSONRPC(driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL, Timeout: time.Second}), driver.JSONRPCOptions{Path: "/mcp"})
	err := c.Call(context.Background(), "initialize", nil, nil)
	var he *verdict.HarnessError
	assert.True(t, errors.As(err, &he), "got %v", err)
}

func TestParseSSE(t *testing.T) {
	cases := []struct {
		name, body string
		want       []driver.SSEEvent
	}{
		{"lf", "data: a\n\n", []driver.SSEEvent{{Data: "a"}}},
		{"crlf and cr", "data: a\r\n\r\ndata:b\r\r", []driver.SSEEvent{{Data: "a"}, {Data: "b"}}},
		{"multi-line data", "data: a\ndata:  b\n\n", []driver.SSEEvent{{Data: "a\n b"}}},
		{"comments and unknown fields", ": hi\nretry: 10\nfoo\ndata: x\n\n", []driver.SSEEvent{{Data: "x"}}},
		{"event type resets, id persists", "event: e\nid: 1\ndata: x\n\ndata: y\n\n",
			[]driver.SSEEvent{{Event: "e", ID: "1", Data: "x"}, {ID: "1", Data: "y"}}},
		{"blank line without data dispatches nothing", "event: e\n\n\ndata: z\n\n", []driver.SSEEvent{{Data: "z"}}},
		{"unterminated last event is discarded", "data: a\n\ndata: b\n", []driver.SSEEvent{{Data: "a"}}},
		{"byte order mark", "\uFEFFdata: a\n\n", []driver.SSEEvent{{Data: "a"}}},
		{"empty data line", "data\n\n", []driver.SSEEvent{{Data: ""}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, driver.ParseSSE([]byte(tc.body)))
		})
	}
}
