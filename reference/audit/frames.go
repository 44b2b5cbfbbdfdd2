package audit

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"time"
)

// Frames lets a server audit what happens inside a long-lived exchange,
// such as a WebSocket's frames, which the HTTP watcher only sees as one
// request when the socket ends: the server checks each frame against the
// contract's rules for agents and reports here. A nil Frames (no --audit)
// ignores every report.
type Frames struct {
	a        *Auditor
	protocol string
}

type framesKey struct{}

// withFrames hands the auditor to the server behind it.
func withFrames(ctx context.Context, a *Auditor, protocol string) context.Context {
	return context.WithValue(ctx, framesKey{}, &Frames{a: a, protocol: protocol})
}

// FramesFrom returns the frame auditor of the request whose context is
// ctx, or nil when agents are not audited.
func FramesFrom(ctx context.Context) *Frames {
	f, _ := ctx.Value(framesKey{}).(*Frames)
	return f
}

// Report counts one frame of agent (an AgentName) and records what it
// broke.
func (f *Frames) Report(agent string, found ...Finding) {
	if f != nil {
		if f.a.blindFrames.Load() {
			found = nil
		}
		f.a.record(f.protocol, agent, found)
	}
}

// BlindFrames makes the auditor drop every finding a server reports from
// inside a long-lived exchange, still counting the frames: the frame-side
// counterpart of a Watcher that reports nothing, with which the scenarios
// of the rules for agents (conformance/agentaudit) check that they fail
// when the audit is blind.
func (a *Auditor) BlindFrames() { a.blindFrames.Store(true) }

// Now is the auditor's clock, for dating frame findings.
func (f *Frames) Now() func() time.Time {
	if f == nil {
		return time.Now
	}
	return f.a.now
}

// Hijack passes a hijack through, so a WebSocket can be served behind the
// auditor.
func (r *recorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	r.wrote = true
	return http.NewResponseController(r.ResponseWriter).Hijack()
}
