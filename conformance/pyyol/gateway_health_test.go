package pyyol_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/faults"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// TestASilentGatewayIsDecidedOnce: a gateway that never says hello fails
// PYYOL-WS-HELLO in the first socket check, and every later socket check
// ends at once, unchecked for that cause, without dialling again (before,
// each waited out --frame-wait and failed under its own rule).
func TestASilentGatewayIsDecidedOnce(t *testing.T) {
	t.Parallel()
	silent := func(map[string]any) []map[string]any { return nil }
	var sockets atomic.Int32
	gw := server.New(server.Options{Rewrite: server.EveryFrame(silent)})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/agent/connect") {
			sockets.Add(1)
		}
		gw.ServeHTTP(w, r)
	}))
	defer srv.Close()
	rep := runLive(t, pyyol.Gateway(), srv.URL, "", suite.Settings{"frame-wait": "500ms", "match-wait": "500ms"})
	var hello, others []string
	for _, r := range rep.Results {
		switch {
		case r.Status == verdict.Fail && r.FailedRule == "PYYOL-WS-HELLO":
			hello = append(hello, r.Name)
		case r.Status == verdict.Fail || r.Status == verdict.Error:
			others = append(others, string(r.Status)+" "+r.Name+": "+r.FailedRule+" "+r.Message)
		}
	}
	if len(hello) != 1 {
		t.Errorf("PYYOL-WS-HELLO failed in %d checks, want the first one only: %v", len(hello), hello)
	}
	if len(others) > 0 {
		t.Errorf("other findings than the one root cause: %v", others)
	}
	if n := sockets.Load(); n != 1 {
		t.Errorf("%d sockets dialled, want 1: the later checks must not dial a silent gateway again", n)
	}
}

// TestAGatewayThatClosesEverySocketUnheardIsDecidedOnce: a gateway that
// closes each fresh socket with no frame at all, before --frame-wait runs
// out (as a gateway whose own register deadline is shorter does), sent no
// hello on connect either: the first socket check fails PYYOL-WS-HELLO and
// the others end unchecked without dialling (before, each check dialled,
// met the close and ended in a harness error of its own).
func TestAGatewayThatClosesEverySocketUnheardIsDecidedOnce(t *testing.T) {
	t.Parallel()
	gw := server.New(server.Options{})
	var sockets atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/agent/connect") {
			gw.ServeHTTP(w, r)
			return
		}
		sockets.Add(1)
		conn, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
		conn.Close(websocket.StatusNormalClosure, "")
	}))
	defer srv.Close()
	rep := runLive(t, pyyol.Gateway(), srv.URL, "", suite.Settings{"frame-wait": "5s", "match-wait": "5s"})
	var hello, others []string
	for _, r := range rep.Results {
		switch {
		case r.Status == verdict.Fail && r.FailedRule == "PYYOL-WS-HELLO":
			hello = append(hello, r.Name)
		case r.Status == verdict.Fail || r.Status == verdict.Error:
			others = append(others, string(r.Status)+" "+r.Name+": "+r.FailedRule+" "+r.Message)
		}
	}
	if len(hello) != 1 {
		t.Errorf("PYYOL-WS-HELLO failed in %d checks, want the first one only: %v", len(hello), hello)
	}
	if len(others) > 0 {
		t.Errorf("other findings than the one root cause: %v", others)
	}
	if n := sockets.Load(); n != 1 {
		t.Errorf("%d sockets dialled, want 1", n)
	}
}

// TestAGatewayThatDropsEveryMatchIsDecidedOnce: a gateway whose every
// turn drops the socket is reconnected to with backoff, and once three
// matches in a row were dropped the run dials it no more (before, the
// runner reconnected about five times a second until --deadline).
func TestAGatewayThatDropsEveryMatchIsDecidedOnce(t *testing.T) {
	t.Parallel()
	var drop []faults.Fault
	for _, f := range server.Faults() {
		if f.Name == server.DroppedSocket {
			drop = append(drop, f)
		}
	}
	var sockets atomic.Int32
	gw := faults.Wrap(server.New(server.Options{}), drop, faults.Options{Rate: 1, Seed: 3, Base: server.BasePath})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/agent/connect") {
			sockets.Add(1)
		}
		gw.ServeHTTP(w, r)
	}))
	defer srv.Close()
	rep := runLive(t, pyyol.Gateway(), srv.URL, "", suite.Settings{"frame-wait": "2s", "match-wait": "2s"})
	decided := 0
	var others []string
	for _, r := range rep.Results {
		switch {
		case strings.Contains(r.Message, "matches in a row before their game_end"):
			decided++
		case r.Status == verdict.Fail || r.Status == verdict.Error:
			others = append(others, string(r.Status)+" "+r.Name+": "+r.FailedRule+" "+r.Message)
		}
	}
	if decided == 0 {
		t.Errorf("no check says the gateway dropped its matches in a row: %v", failedRules(rep))
	}
	// The dropped matches themselves and the checks the breaker ended tell
	// one root cause: no finding outside it (before, each dropped match was
	// a socket error of its own beside the breaker's).
	if len(others) > 0 {
		t.Errorf("findings beside the one root cause: %v", others)
	}
	if n := sockets.Load(); n > 10 {
		t.Errorf("%d sockets dialled: the run went on dialling a gateway that drops every match", n)
	}
	t.Logf("%d sockets, %d checks ended for the dropped matches", sockets.Load(), decided)
}
