package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/reference/audit"
)

// TestAKeyInAURLPathIsFiledUnderItsAgent: an Iyra agent that reads its
// assignment with its key, then puts the key in a URL's path and under a
// parameter named "k" with no Authorization, broke IYRA-AGENT-NO-URL-KEY as
// itself, not as "anonymous", and the audit report shows the key nowhere.
func TestAKeyInAURLPathIsFiledUnderItsAgent(t *testing.T) {
	t.Parallel()
	base, a := serveAudited(t, 0)
	key := iyraKey(t, base)
	get(t, base+"/api/v5/store/echoes-of-iyra/assignment", key)
	get(t, base+"/api/v5/sessions/"+key, "")
	get(t, base+"/api/v5/store/echoes-of-iyra/assignment?k="+key, "")
	rep := cli.BuildAuditReport(a)
	raw, err := json.Marshal(rep)
	require.NoError(t, err)
	assert.NotContains(t, string(raw), key, "the audit shows the key nowhere")
	var mine []cli.AuditFinding
	for _, ag := range rep.Agents {
		if ag.Agent == "anonymous" {
			assert.NotContains(t, ag.BrokenRules(), "IYRA-AGENT-NO-URL-KEY", "a URL key names its agent")
		}
		if ag.Agent == audit.AgentName(key) {
			mine = ag.Findings
		}
	}
	var urlKey []string
	for _, f := range mine {
		assert.NotContains(t, f.Request+f.Query+f.Body+f.Detail, key, "a finding shows the key")
		if f.Rule == "IYRA-AGENT-NO-URL-KEY" {
			urlKey = append(urlKey, f.Request+"?"+f.Query)
		}
	}
	require.Len(t, urlKey, 2, "both URL keys are the agent's: %v", mine)
	assert.True(t, strings.HasPrefix(urlKey[0], "GET /sessions/[redacted]?"), urlKey[0])
}
