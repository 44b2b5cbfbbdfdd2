package pyyol_test

import (
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/pyyol/agent"
)

// gatewaySettings are the live gateway tests' flags: --frame-wait 2s, so
// that a broken gateway that wedges a match fails in 2 s rather than the
// default 30 s. The loopback gateways of these tests time a turn out after
// at most 600 ms, so a match that goes on never leaves the agent waiting
// for a frame anywhere near that long.
var gatewaySettings = suite.Settings{"frame-wait": "2s"}

// pushSettings are the live push tests' flags: the reference agent's
// development secret (--secret).
var pushSettings = suite.Settings{"secret": agent.DevSecret}
