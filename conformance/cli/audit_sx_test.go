package cli_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/agentaudit"
	"github.com/agentgames/conformance/conformance/cli"
)

// playSX plays the scripted agents of the share exchange's agents.feature
// (conformance/agentaudit) named by words against base.
func playSX(t *testing.T, base string, words ...string) {
	t.Helper()
	for _, w := range words {
		script, ok := agentaudit.Lookup("share-exchange", w)
		require.True(t, ok, w)
		require.NoError(t, script.Play(context.Background(), base), w)
	}
}

// TestShareExchangeAuditCleanAndRude: the elected broker pulling from a
// holder on a combinable board gets a clean audit against serve --audit;
// agents that pull unlisted or malformed, keep naming a stale round, and
// offer from an http(s) holder or to the wrong agent are each named.
func TestShareExchangeAuditCleanAndRude(t *testing.T) {
	t.Parallel()
	base, a := serveBountyAudited(t, "share-exchange", 0)
	playSX(t, base, "is the elected broker and pulls from the holder")
	require.True(t, cli.BuildAuditReport(a).Clean, "the broker broke %v", brokenRules(a))

	base, a = serveBountyAudited(t, "share-exchange", 0)
	playSX(t, base, "pulls without a listing", "sends an exchange of another protocol version", "names the stale round again after stale_round",
		"offers its share to an agent the policy does not let combine", "offers a share while listed with an https contact")
	rules := brokenRules(a)
	for _, want := range []string{"SX-AGENT-REQUESTER-LISTED", "SX-AGENT-WELL-FORMED", "SX-AGENT-LIVE-ROUND",
		"SX-AGENT-HTTP-NO-OFFER", "SX-AGENT-OFFER-TARGET"} {
		assert.True(t, rules[want], "%s missing from %v", want, rules)
	}
}
