package cli

import (
	"context"
	"io"
	"log"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
)

func TestServeWithoutASeedPicksARandomOne(t *testing.T) {
	if got := serveSeed(7); got != 7 {
		t.Fatalf("an explicit seed is kept, got %d", got)
	}
	a, b := serveSeed(0), serveSeed(0)
	if a <= 0 || b <= 0 || a == b {
		t.Fatalf("random seeds %d and %d", a, b)
	}
}

func TestServeBoundsEveryConnection(t *testing.T) {
	srv := newHTTPServer(nil)
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 || srv.MaxHeaderBytes <= 0 {
		t.Fatalf("unbounded server: %+v", srv)
	}
}

// TestServeKeepsWebSocketsPastItsTimeouts: serve's read and write timeouts
// bound HTTP requests, not the Pyyol gateway's long-lived WebSocket (the
// upgrade hijacks the connection, which clears its deadlines). The
// timeouts are shortened so that the socket outlives them several times.
func TestServeKeepsWebSocketsPastItsTimeouts(t *testing.T) {
	p, ok := protocols.Lookup("pyyol-gateway")
	if !ok || len(p.WebSocketPaths) == 0 {
		t.Fatal("pyyol-gateway with a WebSocket path is not registered")
	}
	srv := newHTTPServer(ServeMux([]*suite.Protocol{p}, 1, log.New(io.Discard, "", 0)))
	srv.ReadTimeout, srv.WriteTimeout = 100*time.Millisecond, 100*time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+ln.Addr().String()+p.BasePath+p.WebSocketPaths[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if _, hello, err := c.Read(ctx); err != nil || !strings.Contains(string(hello), "hello") {
		t.Fatalf("first frame %s, %v", hello, err)
	}
	time.Sleep(500 * time.Millisecond)
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"t":"ping"}`)); err != nil {
		t.Fatalf("write after the timeouts: %v", err)
	}
	if _, pong, err := c.Read(ctx); err != nil || !strings.Contains(string(pong), "pong") {
		t.Fatalf("answer to a ping after the timeouts: %s, %v", pong, err)
	}
}
