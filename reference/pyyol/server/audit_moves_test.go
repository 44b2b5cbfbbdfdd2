package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/audit"
)

// TestMoveChecksNameTheRuleEachMoveBreaks checks the audit's move rules
// per game: a faithful move breaks none, each defect names its rule.
func TestMoveChecksNameTheRuleEachMoveBreaks(t *testing.T) {
	t.Parallel()
	goof := `{"round":2,"legal_actions":[3,5,7]}`
	mafia := `{"legal":["vote"]}`
	mono := `{"legal_actions":["build","mortgage","end_turn","propose_trade"]}`
	for _, c := range []struct {
		game, view, move string
		want             []string
	}{
		{"goofspiel", goof, `{"round":2,"card":5}`, nil},
		{"goofspiel", goof, `{"round":1,"card":5}`, []string{"PYYOL-AGENT-GOOF-ROUND"}},
		{"goofspiel", goof, `{"card":5}`, []string{"PYYOL-AGENT-GOOF-ROUND"}},
		{"goofspiel", goof, `{"round":2,"card":4}`, []string{"PYYOL-AGENT-GOOF-CARD"}},
		{"mafia", mafia, `{"action":"vote","target":3}`, nil},
		{"mafia", mafia, `{"action":"vote"}`, []string{"PYYOL-AGENT-MAFIA-TARGET"}},
		{"mafia", mafia, `{"action":"message","text":"hi"}`, []string{"PYYOL-AGENT-MAFIA-ACTION"}},
		{"monopoly", mono, `{"action":"build","property":1}`, nil},
		{"monopoly", mono, `{"action":"propose_trade","trade":{"target":1}}`, nil},
		{"monopoly", mono, `{"action":"mortgage"}`, []string{"PYYOL-AGENT-MONO-PROPERTY"}},
		{"monopoly", mono, `{"action":"buy"}`, []string{"PYYOL-AGENT-MONO-ACTION"}},
		{"monopoly", mono, `{"action":"manage"}`, []string{"PYYOL-AGENT-MONO-PHASE-NOT-ACTION"}},
		{"monopoly", mono, `{"action":"end_turn","trade":{"target":1}}`, []string{"PYYOL-AGENT-MONO-TRADE"}},
		{"monopoly", mono, `{"action":"propose_trade"}`, []string{"PYYOL-AGENT-MONO-TRADE"}},
	} {
		var rules []string
		for _, f := range moveChecks[c.game](json.RawMessage(c.view), json.RawMessage(c.move)) {
			rules = append(rules, f[0])
		}
		assert.Equal(t, c.want, rules, "%s %s", c.game, c.move)
	}
}

// framesAt returns a frame reporter of an auditor dated by *now.
func framesAt(now *time.Time) (*audit.Auditor, *audit.Frames) {
	a := audit.New(func() time.Time { return *now })
	var rep *audit.Frames
	h := a.Wrap(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { rep = audit.FramesFrom(r.Context()) }), "pyyol-gateway", BasePath, NewAuditor())
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, BasePath+"/agent/connect", nil))
	return a, rep
}

// TestFrameAuditTimingRules: an answer after the gateway's own timeout is
// PYYOL-AGENT-ON-TIME, one after an injected late turn is not the agent's
// fault, and a socket silent past the heartbeat gap is PYYOL-AGENT-HEARTBEAT,
// named once.
func TestFrameAuditTimingRules(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	_, rep := framesAt(&now)
	fa := newFrameAudit(rep, DefaultHeartbeatGap)
	fa.agent = &agentAudit{asked: map[string][]byte{
		"t1": []byte(`{"t":"turn","id":"t1","payload":{"game":"goofspiel","round":0,"legal_actions":[1,2]}}`),
		"t2": []byte(`{"t":"turn","id":"t2","payload":{"game":"goofspiel","round":1,"legal_actions":[1,2]}}`),
	}, answered: map[string]bool{}, injected: map[string]bool{}}
	fa.lastPing = now
	rules := func(fs []audit.Finding) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Rule)
		}
		return out
	}
	assert.Equal(t, []string{"PYYOL-AGENT-ON-TIME"}, rules(fa.response(Frame{T: "response", ID: "t1", Move: json.RawMessage(`{"round":0,"card":1}`)}, true)))
	assert.Empty(t, rules(fa.response(Frame{T: "response", ID: "t2", Move: json.RawMessage(`{"round":1,"card":2}`)}, false)))
	assert.Equal(t, []string{"PYYOL-AGENT-GOOF-ONE-BID"}, rules(fa.response(Frame{T: "response", ID: "t2", Move: json.RawMessage(`{"round":1,"card":2}`)}, false)))
	assert.Empty(t, fa.heartbeat())
	now = now.Add(DefaultHeartbeatGap + time.Second)
	assert.Equal(t, []string{"PYYOL-AGENT-HEARTBEAT"}, rules(fa.heartbeat()))
	assert.Empty(t, fa.heartbeat(), "named once per socket")
}

// TestAnEndpointSecretIsNoAgentKey: a register token equal to a stored
// endpoint secret is PYYOL-AGENT-KEY-NOT-SECRET's break.
func TestAnEndpointSecretIsNoAgentKey(t *testing.T) {
	t.Parallel()
	g := New(Options{})
	g.manifests["mf_1"] = &published{secret: "endpoint-secret-1"}
	assert.True(t, g.isEndpointSecret("endpoint-secret-1"))
	assert.False(t, g.isEndpointSecret("sk_arena_0123"))
}

// TestAuditAllowancesDefaultToTheDocumentedOnes: a gateway built without
// them audits with 15 s between pings (PYYOL-AGENT-HEARTBEAT) and a 5 s
// reconnect grace (PYYOL-AGENT-RECONNECT), as serve --audit; set ones are
// kept, and a socket's frame audit uses the gateway's gap.
func TestAuditAllowancesDefaultToTheDocumentedOnes(t *testing.T) {
	t.Parallel()
	g := New(Options{})
	assert.Equal(t, 15*time.Second, g.opts.HeartbeatGap)
	assert.Equal(t, 5*time.Second, g.opts.ReconnectGrace)
	g = New(Options{HeartbeatGap: time.Second, ReconnectGrace: 500 * time.Millisecond})
	assert.Equal(t, time.Second, g.opts.HeartbeatGap)
	assert.Equal(t, 500*time.Millisecond, g.opts.ReconnectGrace)

	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	_, rep := framesAt(&now)
	fa := newFrameAudit(rep, g.opts.HeartbeatGap)
	fa.agent, fa.lastPing = &agentAudit{}, now
	now = now.Add(time.Second)
	assert.Empty(t, fa.heartbeat(), "a silence of exactly the gap is allowed")
	now = now.Add(time.Millisecond)
	found := fa.heartbeat()
	require.Len(t, found, 1)
	assert.Equal(t, "PYYOL-AGENT-HEARTBEAT", found[0].Rule)
	assert.Contains(t, found[0].Detail, "the audit allows 1s")
}
