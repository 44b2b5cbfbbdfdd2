package server

import (
	"context"
	"errors"
	"time"

	"github.com/coder/websocket"
)

// DefaultOfflineAfter is three of the default 15 s ping intervals, the
// real gateway's LivenessTimeout (PYYOL-REF-OFFLINE). It does not follow a
// shortened PingEvery: a test that pings fast still lets an agent think.
const DefaultOfflineAfter = 45 * time.Second

// OfflineCode and OfflineReason close a socket the gateway marked Offline:
// "missing several [pings] marks you Offline" (PYYOL-REF-OFFLINE).
const (
	OfflineCode   = websocket.StatusCode(4001)
	OfflineReason = "offline: no frame from the agent"
)

// readLive reads the agent's next frame; a socket silent for OfflineAfter
// is marked Offline and closed (PYYOL-REF-OFFLINE). Any frame, a ping, a
// pong or a response, proves the agent alive.
func (g *Gateway) readLive(ctx context.Context, l *link) (Frame, error) {
	if g.opts.Tamper == NeverOffline {
		return readFrame(ctx, l.conn)
	}
	rctx, cancel := context.WithTimeout(ctx, g.opts.OfflineAfter)
	defer cancel()
	f, err := readFrame(rctx, l.conn)
	if err != nil && errors.Is(rctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
		g.logf("pyyol-gateway: %s silent for %v: Offline", l.agentID, g.opts.OfflineAfter)
		l.conn.Close(OfflineCode, OfflineReason)
	}
	return f, err
}
