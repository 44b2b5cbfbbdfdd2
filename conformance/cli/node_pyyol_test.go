package cli_test

import (
	"bytes"
	"io"
	"log"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/nodetest"
	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/audit"
)

// serveGatewayFaulted serves pyyol-gateway with its documented faults at
// rate and an audit.
func serveGatewayFaulted(t *testing.T, rate float64, logs io.Writer) (string, *audit.Auditor) {
	t.Helper()
	p, _ := protocols.Lookup("pyyol-gateway")
	a := audit.New(nil)
	srv := httptest.NewServer(cli.ServeMuxWith([]*suite.Protocol{p}, 7, log.New(logs, "", 0), cli.ServeOptions{FaultRate: rate, Audit: a}))
	t.Cleanup(srv.Close)
	return srv.URL, a
}

// syncBuffer is a log the server's connections may write while a test
// reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestNodePyyolAgentsAgainstServeFaultsAudit plays the README's Node
// example (examples/node-agent/pyyol-agent.mjs) against the gateway of
// serve --faults 0.3 --audit: the polite agent rides out dropped and
// superseded sockets and late turns and gets a clean audit; the rude one
// is named for a frame before register and an answered event, and, where
// no fault cuts its match short, for its bids (wrong round, a card it does
// not hold, a second bid).
func TestNodePyyolAgentsAgainstServeFaultsAudit(t *testing.T) {
	t.Parallel()
	node := nodetest.WithWebSocket(t)
	script := filepath.Join("..", "..", "examples", "node-agent", "pyyol-agent.mjs")
	play := func(base string, flags ...string) {
		out, err := exec.Command(node[0], append(append(node[1:], script, base), flags...)...).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}

	var logs syncBuffer
	base, a := serveGatewayFaulted(t, 0.3, &logs)
	play(base, "--polite")
	assert.True(t, cli.BuildAuditReport(a).Clean, "the polite agent broke %v", brokenRules(a))
	assert.Contains(t, logs.String(), "fault injected: PYYOL-WS-FALLBACK-DISCONNECT", "the polite agent met a dropped socket")

	play(base, "--rude")
	rules := brokenRules(a)
	for _, want := range []string{"PYYOL-AGENT-REGISTER", "PYYOL-AGENT-ONE-WAY"} {
		assert.True(t, rules[want], "%s missing from %v", want, rules)
	}

	base, a = serveGatewayFaulted(t, 0, io.Discard)
	play(base, "--rude")
	rules = brokenRules(a)
	for _, want := range []string{"PYYOL-AGENT-GOOF-ROUND", "PYYOL-AGENT-GOOF-CARD", "PYYOL-AGENT-GOOF-ONE-BID"} {
		assert.True(t, rules[want], "%s missing from %v", want, rules)
	}
}
