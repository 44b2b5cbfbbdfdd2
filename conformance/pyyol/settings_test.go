package pyyol_test

import (
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/pyyol/agent"
)

// gatewaySettings are the live gateway tests' flags: --frame-wait 3s, so
// that a broken gateway that wedges a match fails in 3 s rather than the
// default 30 s. The loopback gateways answer a turn within their turn
// timeout (at most 2 s), so a healthy match never waits that long.
var gatewaySettings = suite.Settings{"frame-wait": "3s"}

// pushSettings are the live push tests' flags: the reference agent's
// development secret (--secret).
var pushSettings = suite.Settings{"secret": agent.DevSecret}
