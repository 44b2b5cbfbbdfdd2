package driver

// WS is the session driver for protocols whose wire is one long-lived
// WebSocket carrying JSON frames. Pyyol's local runtime is the first: the
// agent dials out, the gateway says hello, the agent registers, and from then
// on both sides exchange correlated request/response frames (turn and
// initialize carry an id the response echoes), one-way events (event,
// game_end) and ping/pong heartbeats. The driver keeps those three kinds
// apart: Call waits for the frame its matcher accepts, Heartbeat answers
// transport chatter, and everything else queues for Next.

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	neturl "net/url"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/agentgames/conformance/conformance/verdict"
)

// ErrTimeout is wrapped by the harness error a driver returns when it waited
// longer than its timeout for a frame, a response or an inbound request, so
// a step that expects silence can tell a timeout from other harness errors
// with errors.Is.
var ErrTimeout = errors.New("driver: timed out waiting")

// ErrOverflow is wrapped by the harness error returned once a driver's
// buffer of unread frames or requests overflowed: a frame was lost to the
// step, so nothing it concludes afterwards can be trusted.
var ErrOverflow = errors.New("driver: buffer of unread messages overflowed")

// WSOptions configures a WebSocket session. Limiter and Secrets are the
// run's shared ones; Recorder is the scenario's transcript.
type WSOptions struct {
	// Client carries the opening handshake (nil = http.DefaultClient).
	Client   *http.Client
	Limiter  *Limiter
	Secrets  *Secrets
	Recorder *Recorder
	// Budget, when set, is spent by every frame Send and Call write for
	// which IsWrite says true (nil IsWrite: every such frame); a spent
	// budget skips the step instead of sending. Heartbeat replies and
	// keepalives never spend it.
	Budget  *Budget
	IsWrite func(frame json.RawMessage) bool
	// Breaker, shared with the run's other drivers, stops dials and writes
	// to a target that has stopped answering.
	Breaker *Breaker
	// Timeout bounds each wait in Call and Next (default 10s).
	Timeout time.Duration
	// DialTimeout bounds the opening handshake (default 30s, as an HTTP
	// request): how long a frame may keep a session waiting says nothing
	// of how long a loaded machine takes to open one.
	DialTimeout time.Duration
	// CorrelateBy is the top-level field that pairs a request frame with its
	// response when Call gets no matcher (default "id", as Pyyol's turn and
	// response frames and JSON-RPC use).
	CorrelateBy string
	// EventBuffer is how many unread one-way frames are kept (default 256).
	EventBuffer int
	// ReadLimit caps one inbound frame in bytes (default 4 MiB; a Monopoly
	// board view is far larger than the library's 32 KiB default).
	ReadLimit int64
	// Heartbeat, when set, sees every inbound frame first. handled=true keeps
	// the frame out of Call and Next (it is still recorded); a non-nil reply
	// is sent back at once, bypassing the limiter so a slow run is not
	// marked offline.
	Heartbeat func(frame json.RawMessage) (reply any, handled bool)
	// KeepaliveEvery, when positive, sends KeepaliveFrame at that interval
	// (Pyyol: "The SDK sends a ping every few seconds").
	KeepaliveEvery time.Duration
	KeepaliveFrame any
}

// WS is one WebSocket session.
type WS struct {
	opts   WSOptions
	url    string
	conn   *websocket.Conn
	events chan json.RawMessage
	cancel context.CancelFunc
	done   chan struct{} // closed when the read loop ends

	mu      sync.Mutex
	waiters []*waiter
	fault   error // sticky ErrOverflow
	err     error // why the read loop ended
}

// waiter is a Call waiting for its response frame.
type waiter struct {
	match func(json.RawMessage) bool
	ch    chan json.RawMessage
}

// DialWS opens a session to url (ws:// or wss://) with the given handshake
// header. A failed handshake is a harness error, except a 404, 405 or 501,
// which says nothing serves the socket there (a not-served skip); it is
// recorded with the status the server answered, if any.
func DialWS(ctx context.Context, url string, header http.Header, opts WSOptions) (*WS, error) {
	opts = wsDefaults(opts)
	opts.Secrets.LearnHeader(header)
	if err := opts.Limiter.Wait(ctx); err != nil {
		return nil, verdict.Errorf("rate limiter: %v", err)
	}
	if err := opts.Breaker.check(); err != nil {
		return nil, err
	}
	dctx, cancel := context.WithTimeout(ctx, opts.DialTimeout)
	defer cancel()
	start := time.Now()
	conn, resp, err := websocket.Dial(dctx, url, &websocket.DialOptions{HTTPClient: opts.Client, HTTPHeader: header})
	recordDial(opts, url, header, resp, time.Since(start), err)
	if err != nil {
		if resp == nil {
			opts.Breaker.failed()
		}
		if resp != nil && IsMissing(resp.StatusCode) {
			// Nothing serves the socket here: the checks that need it are
			// unchecked, not failed (missing.go).
			return nil, verdict.NotServed("GET "+urlPath(url), resp.StatusCode)
		}
		return nil, verdict.Errorf("websocket dial %s: %v", opts.Secrets.Redact(url), err)
	}
	conn.SetReadLimit(opts.ReadLimit)
	rctx, rcancel := context.WithCancel(context.Background())
	w := &WS{opts: opts, url: url, conn: conn, events: make(chan json.RawMessage, opts.EventBuffer),
		cancel: rcancel, done: make(chan struct{})}
	go w.readLoop(rctx)
	if opts.KeepaliveEvery > 0 {
		go w.keepalive(rctx)
	}
	return w, nil
}

// wsDefaults fills the zero fields of opts.
func wsDefaults(opts WSOptions) WSOptions {
	opts.Client = withoutRedirects(opts.Client) // a handshake never follows a redirect
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.DialTimeout <= 0 {
		opts.DialTimeout = 30 * time.Second
	}
	if opts.CorrelateBy == "" {
		opts.CorrelateBy = "id"
	}
	if opts.EventBuffer <= 0 {
		opts.EventBuffer = 256
	}
	if opts.ReadLimit <= 0 {
		opts.ReadLimit = 4 << 20
	}
	if opts.Secrets == nil {
		opts.Secrets = &Secrets{}
	}
	return opts
}

// recordDial puts the opening handshake in the transcript as method "WS".
func recordDial(opts WSOptions, url string, header http.Header, resp *http.Response, took time.Duration, err error) {
	if opts.Recorder == nil {
		return
	}
	x := rawExchange{method: "WS", url: url, reqHeader: header.Clone(), elapsed: took, secrets: opts.Secrets}
	if resp != nil {
		x.status, x.respHeader = resp.StatusCode, resp.Header.Clone()
	}
	if err != nil {
		x.note = err.Error()
	}
	opts.Recorder.add(x)
}

// URL returns the URL the session was dialled to.
func (w *WS) URL() string { return w.url }

// Secrets returns the run's secret set, so steps can register tokens.
func (w *WS) Secrets() *Secrets { return w.opts.Secrets }

// Send writes one frame and waits for nothing. A json.RawMessage or []byte
// frame is sent verbatim, so steps can send malformed frames on purpose;
// anything else is marshalled.
func (w *WS) Send(ctx context.Context, frame any) error {
	data, err := encodeFrame(frame)
	if err != nil {
		return err
	}
	if err := w.admit(ctx, data); err != nil {
		return err
	}
	return w.write(ctx, data)
}

// admit waits for the rate limiter, the breaker and the write budget before
// a frame goes out.
func (w *WS) admit(ctx context.Context, data []byte) error {
	if err := w.opts.Limiter.Wait(ctx); err != nil {
		return verdict.Errorf("rate limiter: %v", err)
	}
	if err := w.opts.Breaker.check(); err != nil {
		return err
	}
	write := w.opts.Budget != nil && (w.opts.IsWrite == nil || w.opts.IsWrite(data))
	if write && !w.opts.Budget.Take() {
		return verdict.Skipf("write budget (--max-writes) exhausted before a WebSocket frame")
	}
	return nil
}

// Call sends a request frame and waits for the response frame that match
// accepts; a nil match pairs by the CorrelateBy field of frame. Frames that
// arrive meanwhile and do not match stay queued for Next, in order. No
// response within the timeout is a harness error wrapping ErrTimeout.
func (w *WS) Call(ctx context.Context, frame any, match func(json.RawMessage) bool) (json.RawMessage, error) {
	data, err := encodeFrame(frame)
	if err != nil {
		return nil, err
	}
	if match == nil {
		if match, err = w.correlate(data); err != nil {
			return nil, err
		}
	}
	if err := w.admit(ctx, data); err != nil {
		return nil, err
	}
	wt := w.await(match) // registered before sending, so a fast reply is not missed
	defer w.forget(wt)
	if err := w.write(ctx, data); err != nil {
		return nil, err
	}
	return w.wait(ctx, wt)
}

// wait blocks until wt gets its frame, the session ends, or the timeout.
func (w *WS) wait(ctx context.Context, wt *waiter) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(ctx, w.opts.Timeout)
	defer cancel()
	select {
	case got := <-wt.ch:
		return got, nil
	case <-w.done:
		select {
		case got := <-wt.ch:
			return got, nil
		default:
			return nil, verdict.Errorf("websocket %s closed before the response: %w", w.redactedURL(), w.Err())
		}
	case <-ctx.Done():
		return nil, verdict.Errorf("no response frame on %s within %v: %w", w.redactedURL(), w.opts.Timeout, ErrTimeout)
	}
}

// Next returns the oldest unread frame that was neither a response to a Call
// nor heartbeat chatter: one-way events and the peer's own requests (Pyyol's
// turn). It waits up to the timeout (ErrTimeout) and, once the session has
// ended and the queue is drained, returns why it ended.
func (w *WS) Next(ctx context.Context) (json.RawMessage, error) {
	if err := w.overflowed(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, w.opts.Timeout)
	defer cancel()
	select {
	case f := <-w.events:
		return f, nil
	default:
	}
	select {
	case f := <-w.events:
		return f, nil
	case <-w.done:
		select {
		case f := <-w.events:
			return f, nil
		default:
			return nil, verdict.Errorf("websocket %s closed: %w", w.redactedURL(), w.Err())
		}
	case <-ctx.Done():
		return nil, verdict.Errorf("no frame on %s within %v: %w", w.redactedURL(), w.opts.Timeout, ErrTimeout)
	}
}

// Done is closed when the session has ended, by either side.
func (w *WS) Done() <-chan struct{} { return w.done }

// Err returns why the session ended (nil while it is open). A close by the
// peer is a websocket.CloseError; use websocket.CloseStatus to read its code.
func (w *WS) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Close ends the session with a normal closure and waits for the read loop.
func (w *WS) Close() error {
	err := w.conn.Close(websocket.StatusNormalClosure, "")
	w.cancel()
	<-w.done
	if err != nil && !errors.Is(err, net.ErrClosed) && websocket.CloseStatus(err) == -1 {
		return verdict.Errorf("closing websocket: %v", err)
	}
	return nil
}

// write records data as an outbound frame, then sends it as a text frame.
func (w *WS) write(ctx context.Context, data []byte) error {
	ctx, cancel := context.WithTimeout(ctx, w.opts.Timeout)
	defer cancel()
	noteWrite := w.opts.Recorder.frameSending(w.url, data, w.opts.Secrets)
	err := w.conn.Write(ctx, websocket.MessageText, data)
	if err != nil {
		noteWrite(err.Error())
		return verdict.Errorf("sending frame on %s: %v", w.redactedURL(), err)
	}
	return nil
}

// readLoop records every inbound frame and routes it until the session ends.
func (w *WS) readLoop(ctx context.Context) {
	defer close(w.done)
	for {
		typ, data, err := w.conn.Read(ctx)
		if err != nil {
			w.opts.Recorder.frame(FrameIn, w.url, nil, "session ended: "+err.Error(), w.opts.Secrets)
			w.mu.Lock()
			w.err = err
			w.mu.Unlock()
			return
		}
		note := ""
		if typ == websocket.MessageBinary {
			note = "binary frame"
		}
		w.opts.Recorder.frame(FrameIn, w.url, data, note, w.opts.Secrets)
		w.dispatch(ctx, data)
	}
}

// dispatch routes one inbound frame: heartbeat, a waiting Call, or the event
// queue. A full queue is never dropped silently: it poisons the session.
func (w *WS) dispatch(ctx context.Context, data json.RawMessage) {
	if w.opts.Heartbeat != nil {
		if reply, handled := w.opts.Heartbeat(data); handled {
			w.reply(ctx, reply)
			return
		}
	}
	if w.deliver(data) {
		return
	}
	select {
	case w.events <- data:
	default:
		w.mu.Lock()
		if w.fault == nil {
			w.fault = verdict.Errorf("more than %d unread frames on %s: %w", w.opts.EventBuffer, w.redactedURL(), ErrOverflow)
		}
		w.mu.Unlock()
	}
}

// reply answers a heartbeat; a failed write surfaces through the read loop.
func (w *WS) reply(ctx context.Context, reply any) {
	if reply == nil {
		return
	}
	if data, err := encodeFrame(reply); err == nil {
		_ = w.write(ctx, data)
	}
}

// deliver hands data to the first waiting Call whose matcher accepts it.
func (w *WS) deliver(data json.RawMessage) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, wt := range w.waiters {
		if wt.match(data) {
			w.waiters = append(w.waiters[:i:i], w.waiters[i+1:]...)
			wt.ch <- data // buffered, capacity 1, sent once
			return true
		}
	}
	return false
}

func (w *WS) await(match func(json.RawMessage) bool) *waiter {
	wt := &waiter{match: match, ch: make(chan json.RawMessage, 1)}
	w.mu.Lock()
	w.waiters = append(w.waiters, wt)
	w.mu.Unlock()
	return wt
}

func (w *WS) forget(wt *waiter) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, x := range w.waiters {
		if x == wt {
			w.waiters = append(w.waiters[:i:i], w.waiters[i+1:]...)
			return
		}
	}
}

func (w *WS) overflowed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.fault
}

// keepalive sends the keepalive frame on every tick until the session ends.
func (w *WS) keepalive(ctx context.Context) {
	t := time.NewTicker(w.opts.KeepaliveEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			w.reply(ctx, w.opts.KeepaliveFrame)
		case <-ctx.Done():
			return
		case <-w.done:
			return
		}
	}
}

func (w *WS) redactedURL() string { return w.opts.Secrets.Redact(w.url) }

// correlate builds the matcher for a request frame from its CorrelateBy
// field; a frame without one cannot be correlated (a harness error: the step
// built it).
func (w *WS) correlate(data []byte) (func(json.RawMessage) bool, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil || fields[w.opts.CorrelateBy] == nil {
		return nil, verdict.Errorf("request frame has no %q field to correlate its response by", w.opts.CorrelateBy)
	}
	var want any
	if err := json.Unmarshal(fields[w.opts.CorrelateBy], &want); err != nil {
		return nil, verdict.Errorf("request frame's %q field: %v", w.opts.CorrelateBy, err)
	}
	return FieldEquals(w.opts.CorrelateBy, want), nil
}

// urlPath is the path of a socket URL, for messages; the URL itself when
// it does not parse.
func urlPath(raw string) string {
	if u, err := neturl.Parse(raw); err == nil {
		return u.Path
	}
	return raw
}
