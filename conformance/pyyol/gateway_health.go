package pyyol

import (
	"context"
	"errors"
	"sync"

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
	probe, err := health.await(ctx)
	if err != nil {
		return frame{}, err
	}
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
		return frame{}, verdict.Failf("PYYOL-WS-HELLO", `{"t":"hello","version":"1.0"} on connect`, "silence for "+waitLimit(g.env).String(),
			"the gateway sent nothing on a fresh socket: every other socket check of this run ends unchecked for this cause")
	case err != nil:
		health.settle(probe, helloUnknown)
		return frame{}, err
	}
	health.settle(probe, helloHeard)
	return g.accept(raw)
}
