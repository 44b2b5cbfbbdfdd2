package agentaudit

import (
	"net/http"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	pyyolserver "github.com/agentgames/conformance/reference/pyyol/server"
)

// Clocks are the waits of a reference server that the agent scenarios
// shorten: Pyyol's gateway waits its turn timeout for every unanswered
// turn and audits two allowances, so at their documented values a
// scenario sleeps for seconds. The zero value keeps serve --audit's.
type Clocks struct {
	// TurnTimeout is how long the gateway waits for a turn response
	// (PYYOL-REF-TURN-TIMEOUT; zero: the documented 2 s).
	TurnTimeout time.Duration
	// HeartbeatGap is the longest the audit lets an agent go without a
	// ping (PYYOL-AGENT-HEARTBEAT; zero: 15 s).
	HeartbeatGap time.Duration
	// ReconnectGrace is how long after its match an agent dropped during
	// it may take to come back (PYYOL-AGENT-RECONNECT; zero: 5 s).
	ReconnectGrace time.Duration
}

// ScenarioClocks are the short waits Run starts every server with; the
// scripted agents that time their rudeness or politeness (a late answer,
// a long silence, a ping interval) are written against them.
func ScenarioClocks() Clocks {
	return Clocks{TurnTimeout: 500 * time.Millisecond, HeartbeatGap: time.Second, ReconnectGrace: 500 * time.Millisecond}
}

// timedReferences builds, per protocol that has clocks, its reference
// server with them; any other protocol's is its registered Reference.
var timedReferences = map[string]func(cfg suite.ReferenceConfig, c Clocks) http.Handler{
	"pyyol-gateway": func(cfg suite.ReferenceConfig, c Clocks) http.Handler {
		return pyyolserver.New(pyyolserver.Options{Config: cfg, TurnTimeout: c.TurnTimeout,
			HeartbeatGap: c.HeartbeatGap, ReconnectGrace: c.ReconnectGrace})
	},
}

// reference builds protocol name's reference server with clocks c, falling
// back to ref (the registered constructor) when it has none or c is zero.
func reference(name string, ref func(suite.ReferenceConfig) http.Handler, cfg suite.ReferenceConfig, c Clocks) http.Handler {
	if timed, ok := timedReferences[name]; ok && c != (Clocks{}) {
		return timed(cfg, c)
	}
	return ref(cfg)
}
