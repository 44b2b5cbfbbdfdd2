package server

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/agentgames/conformance/reference/audit"
	"github.com/agentgames/conformance/reference/faults"
	"github.com/agentgames/conformance/reference/skeleton"
)

// link is one registered socket of an agent.
type link struct {
	g       *Gateway
	conn    *websocket.Conn
	agentID string
	anyID   bool
	expired map[string]bool // ids of turns that timed out (LateApplies)
	faults  *faults.Socket  // serve --faults: the documented failures to inject
	audit   *frameAudit     // serve --audit: the agent's frames against its rules
	order   uint64          // registration order, for PYYOL-REF-SUPERSEDED
	// timeouts are the turns the gateway's own timeout settled (--audit).
	timeouts map[string]bool
	late     *Frame // a late response kept for the next turn (LateApplies)

	wmu     sync.Mutex
	mu      sync.Mutex
	pending map[string]chan Frame
	closed  chan struct{}
	once    sync.Once
}

func newLink(g *Gateway, conn *websocket.Conn) *link {
	return &link{g: g, conn: conn, anyID: g.opts.Tamper == AnyID, expired: map[string]bool{},
		pending: map[string]chan Frame{}, closed: make(chan struct{})}
}

// send writes one frame as JSON text.
func (l *link) send(frame any) error {
	frames, err := l.g.rewrite(frame)
	if err != nil {
		return err
	}
	l.wmu.Lock()
	defer l.wmu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, data := range frames {
		l.watchSent(frame, data)
		if err := l.conn.Write(ctx, websocket.MessageText, data); err != nil {
			return err
		}
	}
	return nil
}

// expect registers a waiter for the response echoing id.
func (l *link) expect(id string) chan Frame {
	ch := make(chan Frame, 1)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.late != nil {
		ch <- *l.late
		l.late = nil
		return ch
	}
	l.pending[id] = ch
	return ch
}

func (l *link) forget(id string) {
	l.mu.Lock()
	delete(l.pending, id)
	l.expired[id] = true
	l.mu.Unlock()
}

// deliver hands a response to the waiter of its id; a response nobody
// waits for (late, or with an unknown id) is dropped
// (PYYOL-WS-CORRELATION, PYYOL-WS-LATE-RESPONSE).
func (l *link) deliver(f Frame) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ch, ok := l.pending[f.ID]
	if !ok && l.expired[f.ID] && l.g.opts.Tamper == LateApplies && len(l.pending) == 0 {
		l.late = &f // kept for the next turn asked
		return
	}
	if !ok && (l.anyID || (l.expired[f.ID] && l.g.opts.Tamper == LateApplies)) {
		for _, id := range slices.Sorted(mapKeys(l.pending)) {
			ch, ok, f.ID = l.pending[id], true, id
			break
		}
	}
	if !ok {
		return
	}
	delete(l.pending, f.ID)
	ch <- f
}

func mapKeys(m map[string]chan Frame) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func (l *link) close() { l.once.Do(func() { close(l.closed) }) }

// connect serves GET /v1/agent/connect: hello, register, then frames until
// the socket drops.
func (g *Gateway) connect(w http.ResponseWriter, r *http.Request) {
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return
	}
	conn.SetReadLimit(1 << 20)
	defer conn.CloseNow()
	ctx := context.Background()
	l := newLink(g, conn)
	l.faults = faults.SocketFrom(r.Context())
	l.audit = newFrameAudit(audit.FramesFrom(r.Context()), g.opts.HeartbeatGap)
	defer l.socketEnded()
	// PYYOL-WS-HELLO: "On connect the gateway sends {"t":"hello","version":"1.0"}".
	if l.send(Frame{T: "hello", Version: "1.0"}) != nil {
		return
	}
	reg, ok := g.awaitRegister(ctx, l)
	if !ok {
		return
	}
	id, ok := g.resolve(reg.Token, reg.AgentID)
	if !ok {
		// PYYOL-WS-UNAUTHORIZED: error unauthorized, then the socket closes.
		l.send(Frame{T: "error", Error: "unauthorized"})
		conn.Close(websocket.StatusPolicyViolation, "unauthorized")
		return
	}
	l.agentID = id
	if g.opts.Tamper == NoReregister && g.isPlaying(id) {
		l.send(Frame{T: "error", Error: "already_connected"})
		conn.Close(websocket.StatusPolicyViolation, "already connected")
		return
	}
	l.order = g.registration()
	g.newSession(id)
	l.registeredAs(reg)
	g.cameBack(id)
	// PYYOL-WS-REGISTERED: {"t":"registered","agent_id":...}.
	if l.send(Frame{T: "registered", AgentID: id}) != nil {
		return
	}
	g.attach(l, reg)
	defer g.detach(l)
	go g.heartbeat(l)
	g.readLoop(ctx, l)
}

// awaitRegister reads until the register frame, answering pings.
func (g *Gateway) awaitRegister(ctx context.Context, l *link) (Frame, bool) {
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		f, err := readFrame(rctx, l.conn)
		if err != nil {
			return Frame{}, false
		}
		l.beforeRegister(f)
		switch f.T {
		case "register":
			return f, true
		case "ping":
			l.send(Frame{T: "pong", ID: f.ID})
		default:
			l.send(Frame{T: "error", Error: "register_first"})
		}
	}
}

func readFrame(ctx context.Context, conn *websocket.Conn) (Frame, error) {
	typ, data, err := conn.Read(ctx)
	if err != nil {
		return Frame{}, err
	}
	var f Frame
	// The shared input policy (reference/skeleton): a binary, non-UTF-8
	// or repeated-key frame is no frame of any type (PYYOL-WS-ENVELOPE).
	if skeleton.CheckFrame(typ == websocket.MessageBinary, data) != nil || json.Unmarshal(data, &f) != nil {
		return Frame{T: "invalid"}, nil
	}
	return f, nil
}

// readLoop dispatches frames until the socket drops.
func (g *Gateway) readLoop(ctx context.Context, l *link) {
	for {
		f, err := g.readLive(ctx, l)
		if err != nil {
			return
		}
		l.watchFrame(f)
		switch f.T {
		case "ping":
			// PYYOL-WS-PING: the gateway answers the agent's heartbeat.
			l.send(Frame{T: "pong", ID: f.ID})
		case "response":
			l.deliver(f)
		}
	}
}

// heartbeat sends the gateway's own pings (PYYOL-WS-PING).
func (g *Gateway) heartbeat(l *link) {
	t := time.NewTicker(g.opts.PingEvery)
	defer t.Stop()
	for {
		select {
		case <-l.closed:
			return
		case <-t.C:
			if l.send(Frame{T: "ping"}) != nil {
				return
			}
		}
	}
}
