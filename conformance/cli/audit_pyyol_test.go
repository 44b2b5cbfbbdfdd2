package cli_test

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/agentaudit"
	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/audit"
)

// serveGatewayAudited serves pyyol-gateway with an audit.
func serveGatewayAudited(t *testing.T) (string, *audit.Auditor) {
	t.Helper()
	p, ok := protocols.Lookup("pyyol-gateway")
	require.True(t, ok)
	a := audit.New(nil)
	srv := httptest.NewServer(cli.ServeMuxWith([]*suite.Protocol{p}, 7, log.New(io.Discard, "", 0), cli.ServeOptions{Audit: a}))
	t.Cleanup(srv.Close)
	return srv.URL, a
}

// TestPyyolAuditNamesWhatAnAgentBrokeOnTheSocket: an agent that sends a
// frame before register (named for it once it registers), bids for the wrong round with a card it does not
// hold, bids twice, answers an event and answers an id it was never sent
// gets each rule named with its quote and the frame; a polite agent gets a
// clean audit; neither key is ever shown.
func TestPyyolAuditNamesWhatAnAgentBrokeOnTheSocket(t *testing.T) {
	t.Parallel()
	base, au := serveGatewayAudited(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	// The rude agents are the scripted ones of the gateway's agents.feature
	// (conformance/agentaudit), each on its own practice key.
	for _, words := range []string{"sends a response before it registers", "bids for another round than the view's", "bids a card it does not hold",
		"bids twice on one turn", "sends a response without an id, as if answering an event", "answers with an id it was never sent"} {
		script, ok := agentaudit.Lookup("pyyol-gateway", words)
		require.True(t, ok, words)
		require.NoError(t, script.Play(ctx, base+"/v1"), words)
	}
	polite, err := agentaudit.MintPyyolAgent(ctx, base+"/v1")
	require.NoError(t, err)
	require.NoError(t, agentaudit.PyyolPolite(ctx, polite))
	polite.Close()
	time.Sleep(200 * time.Millisecond) // the gateway audits the last frames as it reads them

	rep := cli.BuildAuditReport(au)
	byName := map[string]cli.AuditAgent{}
	for _, ag := range rep.Agents {
		byName[ag.Agent] = ag
	}
	politeRec, ok := byName[audit.AgentName(polite.Token)]
	require.True(t, ok, "the polite agent is in the audit")
	assert.True(t, politeRec.Clean, "%v", politeRec.Findings)
	assert.Positive(t, politeRec.Requests["pyyol-gateway"])
	var rudeRules []string
	for name, ag := range byName {
		if name != audit.AgentName(polite.Token) {
			rudeRules = append(rudeRules, ag.BrokenRules()...)
		}
	}
	for _, want := range []string{"PYYOL-AGENT-REGISTER", "PYYOL-AGENT-GOOF-ROUND", "PYYOL-AGENT-GOOF-CARD", "PYYOL-AGENT-GOOF-ONE-BID", "PYYOL-AGENT-ONE-WAY", "PYYOL-AGENT-RESPONSE-ID"} {
		assert.Contains(t, rudeRules, want)
	}
	for _, format := range []string{"", "?format=text", "?format=html"} {
		resp, err := http.Get(base + "/_audit" + format)
		require.NoError(t, err)
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Contains(t, string(page), "PYYOL-AGENT-GOOF-ROUND", format)
		assert.Contains(t, string(page), "frame response turn_", format)
		assert.NotContains(t, string(page), polite.Token, "the audit never shows a key (%s)", format)
		assert.NotContains(t, string(page), "sk_arena_", "the audit never shows a key (%s)", format)
	}
}
