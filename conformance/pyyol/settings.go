package pyyol

import (
	"time"

	"github.com/agentgames/conformance/conformance/suite"
)

// The flags of the two sides: what a live run needs beyond --target. The
// run hands their values to the steps in Env.Settings; credentials are
// Secret, so they join the run's redaction and appear in no output.
var (
	tokenFlag = suite.Flag{Name: "token", Secret: true,
		Usage: "pyyol-gateway, pyyol-platform: the agent `key` to register with (default: mint a practice key)"}
	agentIDFlag = suite.Flag{Name: "agent-id",
		Usage: "pyyol-gateway, pyyol-platform: the agent `id` the key belongs to"}
	adminTokenFlag = suite.Flag{Name: "admin-token", Secret: true,
		Usage: "pyyol-gateway: a platform `token` for the stake-tier admin checks (never printed)"}
	frameWaitFlag = suite.Flag{Name: "frame-wait", Kind: suite.FlagDuration,
		Usage: "pyyol-gateway: the `duration` a started match may stay silent before it counts as wedged (default 30s)"}
	matchWaitFlag = suite.Flag{Name: "match-wait", Kind: suite.FlagDuration,
		Usage: "pyyol-gateway, pyyol-platform: the `duration` to wait for the platform to start a match for the agent (default 2m; --deadline cuts it)"}
	propagationFlag = suite.Flag{Name: "tier-propagation", Kind: suite.FlagDuration,
		Usage: "pyyol-gateway: the `duration` a stake-tier change may take to reach the public menu (default 12s: the docs say ~10s)",
		Rules: []string{"PYYOL-REF-STAKES-ERRORS"}}
	turnTimeoutFlag = suite.Flag{Name: "turn-timeout", Kind: suite.FlagDuration,
		Usage: "pyyol-gateway: the gateway's turn `timeout`; a Monopoly answer whose turn took longer may have met the fallback and decides nothing (default 500ms, no longer than the reference's; the docs say ~45s a Monopoly decision)"}
	offlineWaitFlag = suite.Flag{Name: "offline-wait", Kind: suite.FlagDuration,
		Usage: "pyyol-gateway: the `duration` a silent agent waits for the gateway to mark it Offline and close its socket, a --long check (default 2m; the platform's window is 45s)",
		Rules: []string{"PYYOL-REF-OFFLINE"}}
	secretFlag = suite.Flag{Name: "secret", Secret: true, RequiredLive: true,
		Usage: "pyyol-push: the agent endpoint's `secret` (never printed)"}
)

var (
	gatewayFlags = []suite.Flag{tokenFlag, agentIDFlag, adminTokenFlag, frameWaitFlag, matchWaitFlag, propagationFlag, turnTimeoutFlag, offlineWaitFlag}
	pushFlags    = []suite.Flag{secretFlag}
)

// waitLimit bounds every wait for a gateway frame once a match has
// started (--frame-wait); a live gateway's turn timeout is the manifest's
// runtime.timeout, a few seconds in practice.
func waitLimit(env *suite.Env) time.Duration {
	return env.Settings.Duration(frameWaitFlag.Name, 30*time.Second)
}

// matchDeadline bounds the wait for a live gateway to start a match for
// the agent (--match-wait); the run's own --deadline cuts it shorter.
func matchDeadline(env *suite.Env) time.Duration {
	return env.Settings.Duration(matchWaitFlag.Name, 2*time.Minute)
}

// propagation is how long a tier change may take to reach the public menu
// ("Changes take effect within ~10s"; --tier-propagation).
func propagation(env *suite.Env) time.Duration {
	return env.Settings.Duration(propagationFlag.Name, 12*time.Second)
}
