package runbench_test

import (
	"bytes"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/suite"
)

// sent is one request as the serve side received it, with the status it
// answered: what the raw replay sends again.
type sent struct {
	method, uri string
	header      http.Header
	body        []byte
	status      int
}

// tape records the requests a handler receives, in arrival order.
type tape struct {
	mu   sync.Mutex
	reqs []sent
}

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// wrap returns h recording every request into t.
func (t *tape) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		t.mu.Lock()
		t.reqs = append(t.reqs, sent{method: r.Method, uri: r.RequestURI, header: r.Header.Clone(), body: body, status: sw.status})
		t.mu.Unlock()
	})
}

// server is one loopback `serve` whose handler a benchmark swaps for a
// fresh one (a new world of the same seed) before each unit of work, so
// the runner and the replay meet the same state and keep their
// connections.
type server struct {
	url     string
	handler atomic.Pointer[http.Handler]
	srv     *http.Server
}

// startServe listens on a loopback port with an empty handler.
func startServe(tb testing.TB) *server {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	s := &server{url: "http://" + ln.Addr().String()}
	s.reset(http.NotFoundHandler())
	s.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		(*s.handler.Load()).ServeHTTP(w, r)
	})}
	go s.srv.Serve(ln)
	tb.Cleanup(func() { s.srv.Close() })
	return s
}

func (s *server) reset(h http.Handler) { s.handler.Store(&h) }

// fresh serves a new world of seed for ps, as `conformance serve --seed`
// builds it.
func (s *server) fresh(ps []*suite.Protocol, seed uint64) {
	s.reset(cli.ServeMux(ps, seed, log.New(io.Discard, "", 0)))
}
