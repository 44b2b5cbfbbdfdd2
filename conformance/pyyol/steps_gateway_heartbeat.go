package pyyol

import (
	"context"
	"errors"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// silentFor is how long the kit's silent agent waits for the gateway to
// mark it Offline (--offline-wait): by default well past the platform's
// 45 s liveness window (PYYOL-REF-OFFLINE) and short enough for a --long
// run.
func silentFor(env *suite.Env) time.Duration {
	return env.Settings.Duration(offlineWaitFlag.Name, 2*time.Minute)
}

// gatewayHeartbeatSteps registers the steps of features/pyyol/gateway-heartbeat.feature.
func (g *gwRun) gatewayHeartbeatSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent stays silent$`), g.staySilent)
	sc.Step(pattern(`^the gateway marked the agent Offline and closed its socket$`), g.markedOffline)
}

// staySilent reads, and never sends, until the gateway closes the socket
// or silentFor has passed.
func (g *gwRun) staySilent(ctx context.Context) error {
	by := time.Now().Add(silentFor(g.env))
	for !g.closed() && time.Now().Before(by) {
		_, err := g.read(ctx, by)
		if errors.Is(err, driver.ErrTimeout) {
			break
		}
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil && !g.closed() {
			return err
		}
	}
	return nil
}

// markedOffline: the gateway closed the silent socket (PYYOL-REF-OFFLINE,
// a REFERENCE reading: a warning, never a failure).
func (g *gwRun) markedOffline() error {
	if !g.closed() {
		return verdict.Failf("PYYOL-REF-OFFLINE", "the socket closed (the agent marked Offline)", "open after "+silentFor(g.env).String(),
			"an agent that sent no frame at all, not even a pong")
	}
	return nil
}
