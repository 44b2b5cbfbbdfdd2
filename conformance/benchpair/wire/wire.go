// Package wire compares a reference server with a really bare net/http
// handler answering the same bytes, both over loopback TCP through the
// same kind of client, interleaved by benchpair. The bare side is a
// separate http.Server whose handler reads the request body and writes
// the captured status, headers and body of the reference's answer to the
// same request, so the ratio is what the reference's own work costs on
// top of net/http: routing, decoding, the engine, encoding, logging.
package wire

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/agentgames/conformance/conformance/benchpair"
)

// Request is one request of a mix; Path includes the query.
type Request struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

// Response is what a server answered.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Script yields the mix's next request; prev is the answer to the request
// before (nil for the first). A script may keep state (a run to act in, a
// budget to renew) and must keep producing requests the reference
// accepts forever.
type Script func(prev *Response) Request

// Capture is how many exchanges the bare handler learns from the
// reference and replays in a cycle: enough to span a mix's periodic
// requests (a new run every few hundred actions).
const Capture = 512

// Report measures ref against the bare handler on script's mix and
// reports "<name>-speed-wall"/"-cpu": the reference's throughput as a
// fraction of the bare handler's (bare time over reference time; the goal
// is at least 0.7). It fails the benchmark when the reference answers a
// request of the mix with a status outside okStatus.
func Report(b *testing.B, name string, ref http.Handler, script Script) benchpair.Result {
	b.Helper()
	bareSide, refSide := sides(b, ref, script, Capture)
	return benchpair.Report(b, name+"-speed", bareSide, refSide)
}

// sides serves ref and the bare handler on loopback, captures capture
// exchanges of script from ref, and returns the two sides: the bare
// handler's replay of the captured requests, and script played live.
func sides(tb testing.TB, ref http.Handler, script Script, capture int) (benchpair.Side, benchpair.Side) {
	refSrv := httptest.NewServer(ref)
	tb.Cleanup(refSrv.Close)
	refC := newClient()
	var prev *Response
	reqs, resps := make([]Request, capture), make([]Response, capture)
	for i := range capture {
		req := script(prev)
		prev = send(tb, refC, refSrv.URL, req)
		reqs[i], resps[i] = req, *prev
	}
	bareSrv := httptest.NewServer(bare(resps))
	tb.Cleanup(bareSrv.Close)
	bareC := newClient()
	next := 0
	refSide := func(n int) {
		for range n {
			prev = send(tb, refC, refSrv.URL, script(prev))
		}
	}
	bareSide := func(n int) {
		for range n {
			send(tb, bareC, bareSrv.URL, reqs[next%capture])
			next++
		}
	}
	return bareSide, refSide
}

// bare answers the i-th request it gets with the i-th captured response
// (cyclically): it reads the body like any handler, then writes headers,
// status and bytes, nothing else.
func bare(resps []Response) http.Handler {
	var i atomic.Uint64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		resp := &resps[(i.Add(1)-1)%uint64(len(resps))]
		h := w.Header()
		for k, v := range resp.Header {
			h[k] = v
		}
		w.WriteHeader(resp.Status)
		_, _ = w.Write(resp.Body)
	})
}

// newClient is the client both sides use: one keep-alive connection.
func newClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4, DisableCompression: true}}
}

// send makes one request and reads the whole answer; a transport error or
// a 5xx fails the benchmark (a 4xx may be part of a mix).
func send(b testing.TB, c *http.Client, base string, r Request) *Response {
	var body io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequest(r.Method, base+r.Path, body)
	if err != nil {
		b.Fatal(err)
	}
	for k, v := range r.Header {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode >= 500 {
		b.Fatalf("%s %s: status %d, %v", r.Method, r.Path, resp.StatusCode, err)
	}
	h := resp.Header.Clone()
	h.Del("Date")
	h.Del("Content-Length")
	return &Response{Status: resp.StatusCode, Header: h, Body: data}
}

// Field returns the raw value of the first top-level-looking member name
// in body (a string without its quotes, or a number), found by a plain
// scan: scripts read a run id or a revision this way so the reference's
// side pays no JSON decoding the bare side does not.
func Field(body []byte, name string) string {
	key := []byte(`"` + name + `":`)
	i := bytes.Index(body, key)
	if i < 0 {
		return ""
	}
	rest := bytes.TrimLeft(body[i+len(key):], " ")
	if len(rest) > 0 && rest[0] == '"' {
		if end := bytes.IndexByte(rest[1:], '"'); end >= 0 {
			return string(rest[1 : 1+end])
		}
		return ""
	}
	end := bytes.IndexAny(rest, ",}] \n")
	if end < 0 {
		end = len(rest)
	}
	return string(rest[:end])
}
