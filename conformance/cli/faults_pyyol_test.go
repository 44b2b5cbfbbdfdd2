package cli_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/protocols"
)

// TestPyyolGatewayRunAgainstServeFaultsNeverFailsARule: a live run against
// a gateway that drops sockets, closes them as superseded and lets turns'
// deadlines pass (serve --faults 0.3 --audit) meets each as documented, a harness
// error (the socket ended) or a fallback the runner reads as the gateway's
// timeout, never a broken rule; the faults are listed and logged with
// their rules.
func TestPyyolGatewayRunAgainstServeFaultsNeverFailsARule(t *testing.T) {
	t.Parallel()
	code, out, _ := run("serve", "--faults", "list", "--protocol", "pyyol-gateway")
	assert.Equal(t, 0, code)
	for _, want := range []string{"PYYOL-WS-FALLBACK-TIMEOUT", "late_turn", "PYYOL-WS-FALLBACK-DISCONNECT", "dropped_socket", "PYYOL-REF-SUPERSEDED", "superseded_socket"} {
		assert.Contains(t, out, want)
	}
	p, ok := protocols.Lookup("pyyol-gateway")
	require.True(t, ok)
	var logs syncBuffer
	base, _ := serveGatewayFaulted(t, 0.3, &logs)
	args := append([]string{"run", "--target", base, "--protocol", p.Name, "--seed", "3", "--checks", "2", "--cases", t.TempDir()}, p.ServeFlags...)
	code, out, errOut := run(args...)
	assert.NotEqual(t, 1, code, "%s\n%s", tail(out), errOut)
	assert.NotContains(t, out, "... FAIL")
	for _, want := range []string{"late_turn WS /v1/agent/connect", "dropped_socket WS", "superseded_socket WS"} {
		assert.Contains(t, logs.String(), want, "the run met every kind of fault")
	}
}
