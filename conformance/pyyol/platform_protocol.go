package pyyol

import (
	"net/http"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// Platform describes pyyol-platform to the runner: the push protocol from
// the platform's side. The runner hosts an agent endpoint, publishes a
// manifest naming it, lets the platform verify it, plays the match the
// platform pushes and judges every request it receives.
func Platform() *suite.Protocol {
	p := side("pyyol-platform", "Pyyol push platform (the kit hosts the agent endpoint)", platformMount+server.BasePath, "platform-",
		func(cfg suite.ReferenceConfig) http.Handler {
			return http.StripPrefix(platformMount, server.New(gatewayOptions(cfg)))
		},
		platformSideSteps, []byte(gatewayOpenAPI))
	p.Vector = nil // the signing vectors are the push side's
	p.Flags = platformFlags
	// A reachability probe only: a down target is reported once, and a
	// platform without the public stakes menu is still checked.
	p.Preflight, p.PreflightReachOnly = stakesPath, true
	p.PreflightBase = gatewayHTTPBase
	return p
}

// platformMount is where `conformance serve` mounts the reference platform
// for pyyol-platform, beside pyyol-gateway's at /v1 (base paths are one
// per protocol): a live platform's --target names its own /v1.
const platformMount = "/pyyol-platform"

// The flags of pyyol-platform. It reads --match-wait, --agent-id and
// --token too, which pyyol-gateway binds.
var (
	callbackAddrFlag = suite.Flag{Name: "callback-addr",
		Usage: "pyyol-platform: the `HOST:PORT` the kit's agent endpoint listens on (default: a free loopback port, for a loopback target)"}
	callbackURLFlag = suite.Flag{Name: "callback-url",
		Usage: "pyyol-platform: the public `URL` of --callback-addr the platform can reach (a tunnel's), when it is not http://HOST:PORT"}
	platformFlags = []suite.Flag{callbackAddrFlag, callbackURLFlag, productionPlatformFlag}
)

// platformTurnBudget is the runtime.timeout the kit's manifest declares:
// short, so the late and hung turns cost little, and long enough that a
// loaded machine answers the other turns in time.
const platformTurnBudget = time.Second

// lateBy is how far past runtime.timeout the kit's late answer comes.
const lateBy = 300 * time.Millisecond

// eventHold is the longest the kit holds an /event answer waiting for the
// next /turn.
const eventHold = 3 * time.Second

// hungFor is the longest the kit keeps a hung turn open.
const hungFor = 20 * time.Second

// endlessCap is how much of an endless answer body the kit writes before
// it judges the platform is reading without a bound (PYYOL-PLAT-REF-CLIENT).
const endlessCap = 16 << 20
