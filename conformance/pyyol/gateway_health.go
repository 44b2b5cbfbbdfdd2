package pyyol

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// gatewayHealth is what the run has learnt about the gateway's sockets,
// shared by every scenario of the run so that one root cause is decided
// once: until some socket has heard a hello, one socket at a time waits
// for it; a gateway that says none fails PYYOL-WS-HELLO in that one
// check, and every other socket check ends at once, unchecked for that
// cause, instead of each waiting out --frame-wait under its own rule.
type gatewayHealth struct {
	mu      sync.Mutex
	state   helloState
	probing bool
	settled chan struct{} // closed when a probe ends, decided or not
	// drops counts the matches in a row whose socket the gateway closed
	// before game_end; a match that ends resets it.
	drops int
}

// maxDrops is how many matches in a row a gateway may drop before the run
// stops dialling it, as the HTTP breaker stops after three transport
// failures in a row.
const maxDrops = 3

// dropped records a match the gateway's socket ended before game_end and
// says how many matches in a row it has dropped now.
func (h *gatewayHealth) dropped() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.drops++
	return h.drops
}

// dropSummary is the one sentence every check that met a dropped match
// and every check the breaker ended reports, so the console folds them
// into one root cause (its grouping blanks the numbers) instead of
// listing the drops apart from the breaker they tripped.
func dropSummary(n int) string {
	return fmt.Sprintf("the gateway closed the socket of %d matches in a row before their game_end (at %d no further socket is dialled: one root cause)", n, maxDrops)
}

// droppedMatch is the socket error of a match the gateway dropped, told
// as dropSummary; the socket's own error stays reachable (errors.Is) and
// the transcript keeps how the socket ended.
type droppedMatch struct {
	n     int
	cause error
}

// Error is dropSummary for this drop.
func (d *droppedMatch) Error() string { return dropSummary(d.n) }

// Unwrap exposes the socket's error.
func (d *droppedMatch) Unwrap() error { return d.cause }

// finished records a match that reached game_end.
func (h *gatewayHealth) finished() {
	h.mu.Lock()
	h.drops = 0
	h.mu.Unlock()
}

// redial says how long to wait before the next socket, backing off as the
// docs require of an agent that reconnects (1 s, 2 s, 4 s, ... 30 s after
// as many dropped matches in a row), or the harness error that ends the
// socket checks once maxDrops matches in a row were dropped.
func (h *gatewayHealth) redial() (time.Duration, error) {
	h.mu.Lock()
	n := h.drops
	h.mu.Unlock()
	switch {
	case n >= maxDrops:
		return 0, &verdict.HarnessError{Cause: errors.New(dropSummary(n))}
	case n == 0:
		return 0, nil
	}
	return min(time.Second<<(n-1), 30*time.Second), nil
}

type helloState int

const (
	helloUnknown helloState = iota
	helloHeard
	helloSilent
)

// healthOf is the run's gatewayHealth.
func healthOf(env *suite.Env) *gatewayHealth {
	if env.Shared == nil {
		return &gatewayHealth{settled: make(chan struct{})}
	}
	v, _ := env.Shared.Once("pyyol gateway health", func() (any, error) {
		return &gatewayHealth{settled: make(chan struct{})}, nil
	})
	return v.(*gatewayHealth)
}

// noHello is the PYYOL-WS-HELLO failure of a fresh socket that brought no
// frame at all (observed: silence or the socket's close).
func noHello(observed string) error {
	return verdict.Failf("PYYOL-WS-HELLO", `{"t":"hello","version":"1.0"} on connect`, observed,
		"the gateway sent nothing on a fresh socket: every other socket check of this run ends unchecked for this cause")
}

// errNoHello ends a socket check once the run has seen a silent gateway.
var errNoHello = verdict.Skipf("unchecked: the gateway sent no hello on an earlier socket of this run (PYYOL-WS-HELLO, decided there); no further socket is dialled")

// await returns when this socket may dial: at once once a hello was
// heard, as the probe while none is known, or after the running probe
// ends; with errNoHello once the gateway was found silent.
func (h *gatewayHealth) await(ctx context.Context) (probe bool, err error) {
	for {
		h.mu.Lock()
		switch {
		case h.state == helloHeard:
			h.mu.Unlock()
			return false, nil
		case h.state == helloSilent:
			h.mu.Unlock()
			return false, errNoHello
		case !h.probing:
			h.probing = true
			h.mu.Unlock()
			return true, nil
		}
		wait := h.settled
		h.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
}

// settle ends a probe with what it learnt (helloUnknown: nothing, as when
// the dial itself failed), letting the waiting sockets go on.
func (h *gatewayHealth) settle(probe bool, learnt helloState) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if learnt != helloUnknown && h.state == helloUnknown {
		h.state = learnt
	}
	if probe {
		h.probing = false
		close(h.settled)
		h.settled = make(chan struct{})
	}
}

// greet dials a fresh socket and reads the gateway's first frame, which
// PYYOL-WS-HELLO makes a hello: silence where it is due is decided once
// for the run (gatewayHealth). The caller judges the frame itself.
func (g *gwRun) greet(ctx context.Context) (frame, error) {
	health := healthOf(g.env)
	backoff, err := health.redial()
	if err != nil {
		return frame{}, err
	}
	if backoff > 0 {
		if err := g.env.Wait(ctx, backoff); err != nil {
			return frame{}, err
		}
	}
	probe, err := health.await(ctx)
	if err != nil {
		return frame{}, err
	}
	g.inMatch = false
	ws, err := dial(ctx, g.env)
	if err != nil {
		health.settle(probe, helloUnknown)
		return frame{}, err
	}
	g.ws = ws
	raw, err := g.read(ctx, g.frameBy())
	switch {
	case errors.Is(err, driver.ErrTimeout):
		health.settle(probe, helloSilent)
		return frame{}, noHello("silence for " + waitLimit(g.env).String())
	case err != nil && ctx.Err() == nil && g.closed():
		// A gateway that closes a fresh socket with no frame at all (as
		// when its own register deadline, the reference's 30 s, runs out
		// before --frame-wait) did not send hello on connect either: it
		// is decided here once, not met again by every later check.
		health.settle(probe, helloSilent)
		return frame{}, noHello("the socket closed with no frame")
	case err != nil:
		health.settle(probe, helloUnknown)
		return frame{}, err
	}
	health.settle(probe, helloHeard)
	return g.accept(raw)
}
