package pyyol

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// Waits are absolute (issue 24): --match-wait and --frame-wait each set a
// deadline that no heartbeat, ping or unrelated frame extends. A
// gateway's own pings (the platform sends one every 15 s) used to hand
// the runner a frame, and each frame restarted the wait, so a platform
// that never starts a match held a scenario for as long as it pinged.

// read waits for the next frame until by (or the run's context ends);
// the socket's own per-frame timeout only splits the wait. A wait past
// by is driver.ErrTimeout.
func (g *gwRun) read(ctx context.Context, by time.Time) (json.RawMessage, error) {
	for {
		rctx, cancel := context.WithDeadline(ctx, by)
		raw, err := g.ws.Next(rctx)
		cancel()
		if errors.Is(err, driver.ErrTimeout) && time.Now().Before(by) && ctx.Err() == nil {
			continue
		}
		if err != nil && !errors.Is(err, driver.ErrTimeout) && g.inMatch && g.closed() {
			// The gateway ended a match's socket before its game_end
			// (gatewayHealth: a run of them stops the socket checks).
			g.inMatch = false
			err = &verdict.HarnessError{Cause: &droppedMatch{n: healthOf(g.env).dropped(), cause: err}}
		}
		return raw, err
	}
}

// frameBy is when the frame wait of a started match runs out: --frame-wait
// after the last frame that was no heartbeat.
func (g *gwRun) frameBy() time.Time {
	if g.progress.IsZero() {
		g.progress = time.Now()
	}
	return g.progress.Add(waitLimit(g.env))
}

// matchBy is when the wait for the next match runs out: --match-wait
// after the wait began, cut by the run's --deadline. It holds until a
// frame of a match arrives.
func (g *gwRun) matchBy(ctx context.Context) time.Time {
	if g.matchWait.IsZero() {
		g.matchWait = time.Now().Add(matchDeadline(g.env))
		if run, ok := ctx.Deadline(); ok && run.Before(g.matchWait) {
			g.matchWait = run
		}
	}
	return g.matchWait
}

// touch moves the clocks for a frame received: any frame but a heartbeat
// is progress, and a frame of a match ends the wait for one.
func (g *gwRun) touch(f frame) {
	switch f.T {
	case "ping", "pong", "ack":
		return
	case "initialize", "turn", "event", "game_end":
		g.matchWait = time.Time{}
		g.inMatch = f.T != "game_end"
		if f.T == "game_end" {
			healthOf(g.env).finished()
		}
	}
	g.progress = time.Now()
}
