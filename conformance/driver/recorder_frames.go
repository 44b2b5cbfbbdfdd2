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

// served records one request the runner answered as a server: the agent's
// request and the runner's reply, with the time the handler took.
func (r *Recorder) served(req *http.Request, body []byte, status int, respHeader http.Header,
	respBody []byte, took time.Duration, secrets *Secrets) {
	r.add(rawExchange{method: req.Method, url: req.URL.String(), reqHeader: req.Header.Clone(), reqBody: body,
		status: status, respHeader: respHeader.Clone(), respBody: respBody, elapsed: took, secrets: secrets})
}
