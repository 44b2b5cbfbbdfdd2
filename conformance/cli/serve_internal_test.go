package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
)

func TestServeWithoutASeedPicksARandomOne(t *testing.T) {
	t.Parallel()
	if got := serveSeed(7); got != 7 {
		t.Fatalf("an explicit seed is kept, got %d", got)
	}
	a, b := serveSeed(0), serveSeed(0)
	if a <= 0 || b <= 0 || a == b {
		t.Fatalf("random seeds %d and %d", a, b)
	}
}

func TestServeBoundsEveryConnection(t *testing.T) {
	t.Parallel()
	srv := newHTTPServer(nil)
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 || srv.MaxHeaderBytes <= 0 {
		t.Fatalf("unbounded server: %+v", srv)
	}
}

// TestAPipeliningClientThatNeverReadsFreezesNoProtocol: over real
// sockets, one client pipelines 200 requests and never reads its answers;
// other clients of every protocol are still answered within a second.
func TestAPipeliningClientThatNeverReadsFreezesNoProtocol(t *testing.T) {
	t.Parallel()
	ps := protocols.All()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newHTTPServer(ServeMux(ps, 1, log.New(io.Discard, "", 0)))
	go srv.Serve(ln)
	defer srv.Close()
	fillRuns(t, "http://"+ln.Addr().String()+"/game/phantom-press/api", 100) // answers under the lock grow past any buffer
	hog, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer hog.Close()
	var pipeline strings.Builder
	for i := 0; i < 200; i++ { // 200 rounds of five, about 18 MB of answers: far more than socket buffers hold
		for _, p := range []string{"/api/v5/tasks/play", "/game/phantom-press/api/runs?recent=100", "/game/phantom-press/api/runs?recent=100",
			"/game/phantom-press/api/runs?recent=100", "/game/phantom-press/api/runs?recent=100"} {
			fmt.Fprintf(&pipeline, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", p)
		}
	}
	go hog.Write([]byte(pipeline.String())) // never read
	time.Sleep(300 * time.Millisecond)
	client := &http.Client{Timeout: time.Second}
	base := "http://" + ln.Addr().String()
	for _, path := range []string{"/api/v5/tasks/play", "/game/phantom-press/api/leaderboard", "/game/phantom-press/api/runs?recent=5"} {
		resp, err := client.Get(base + path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %d", path, resp.StatusCode)
		}
	}
}

// fillRuns starts n public Phantom Press runs, 25 per registered agent.
func fillRuns(t *testing.T, base string, n int) {
	t.Helper()
	var key string
	for i := 0; i < n; i++ {
		if i%25 == 0 {
			var reg struct {
				APIKey string `json:"api_key"`
			}
			postJSON(t, base+"/register", "", `{"name":"hog"}`, &reg)
			key = reg.APIKey
		}
		postJSON(t, base+"/runs", key, `{"budget_turns":10}`, nil)
	}
}

func postJSON(t *testing.T, url, key, body string, out any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("POST %s: %d", url, resp.StatusCode)
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
}

// TestServeKeepsWebSocketsPastItsTimeouts: serve's read and write timeouts
// bound HTTP requests, not the Pyyol gateway's long-lived WebSocket (the
// upgrade hijacks the connection, which clears its deadlines). The
// timeouts are shortened so that the socket outlives them several times.
func TestServeKeepsWebSocketsPastItsTimeouts(t *testing.T) {
	t.Parallel()
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

// TestAHogOnEveryProtocolFreezesNoOtherClient: over real sockets, one
// client per protocol pipelines thousands of reads of that protocol's
// public document and never reads the answers; a fresh client of every
// protocol is still answered within a second. A server that wrote its
// answers while holding a lock shared with other requests would hang here.
func TestAHogOnEveryProtocolFreezesNoOtherClient(t *testing.T) {
	t.Parallel()
	ps := protocols.All()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newHTTPServer(ServeMux(ps, 1, log.New(io.Discard, "", 0)))
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String()
	paths := publicPaths(ps)
	for _, path := range paths {
		hog, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer hog.Close()
		req := fmt.Sprintf("GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path)
		go hog.Write([]byte(strings.Repeat(req, 20000))) // never read
	}
	time.Sleep(300 * time.Millisecond)
	client := &http.Client{Timeout: time.Second}
	for _, path := range paths {
		resp, err := client.Get(base + path)
		if err != nil {
			t.Errorf("%s while every protocol has a client that never reads: %v", path, err)
			continue
		}
		resp.Body.Close()
	}
}

// publicPaths is, per protocol, the path of the read its preflight asks
// for: a document any client may fetch without credentials.
func publicPaths(ps []*suite.Protocol) []string {
	var out []string
	for _, p := range ps {
		if p.Preflight == "" {
			continue
		}
		path := strings.TrimSuffix(p.BasePath, "/") + p.Preflight
		if p.PreflightBase != nil {
			if u, err := url.Parse(p.PreflightBase("http://x" + p.BasePath)); err == nil {
				path = strings.TrimSuffix(u.Path, "/") + p.Preflight
			}
		}
		out = append(out, path)
	}
	return out
}
