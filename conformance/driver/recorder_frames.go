package driver

// Recorder hooks for the non-HTTP drivers. WebSocket frames (Pyyol's
// local-runtime socket) and requests the runner receives as a server (an
// agent calling back, Pyyol's hosted push, the bounty's share exchange) go
// into the same transcript as HTTP exchanges, so reports and redaction treat
// every wire alike.

import (
	"net/http"
	"time"
)

// Frame directions as they appear in a transcript's Method column.
const (
	FrameOut = "WS>" // a frame the runner sent
	FrameIn  = "WS<" // a frame the runner received
)

// frame records one WebSocket frame. An outbound frame is kept as the request
// body and an inbound one as the response body, so a reader sees the
// direction twice (method and column); the frame is redacted when read, like
// any exchange, because it may carry a token (Pyyol's register frame does).
func (r *Recorder) frame(dir, url string, body []byte, note string, secrets *Secrets) {
	x := rawExchange{method: dir, url: url, note: note, secrets: secrets}
	if dir == FrameOut {
		x.reqBody = body
	} else {
		x.respBody = body
	}
	r.add(x)
}

// frameSending records an outbound frame before it is written, so no
// reply the read loop records can come before it in the transcript; the
// returned func sets the write's error as the frame's note afterwards.
func (r *Recorder) frameSending(url string, body []byte, secrets *Secrets) (noteWrite func(note string)) {
	if r == nil {
		return func(string) {}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	at := len(r.exchanges)
	r.exchanges = append(r.exchanges, rawExchange{method: FrameOut, url: url, reqBody: body, secrets: secrets})
	return func(note string) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if at < len(r.exchanges) && r.exchanges[at].method == FrameOut {
			r.exchanges[at].note = note
		}
	}
}

// served records one request the runner answered as a server: the agent's
// request and the runner's reply, with the time the handler took.
func (r *Recorder) served(req *http.Request, body []byte, status int, respHeader http.Header,
	respBody []byte, took time.Duration, secrets *Secrets) {
	r.add(rawExchange{method: req.Method, url: req.URL.String(), reqHeader: req.Header.Clone(), reqBody: body,
		status: status, respHeader: respHeader.Clone(), respBody: respBody, elapsed: took, secrets: secrets})
}
