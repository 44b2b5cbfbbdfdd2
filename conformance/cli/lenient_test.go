package cli_test

import (
	"context"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/conformance/verdict"
)

// documentedFields are the body fields of the bounty's and the
// share-exchange convention's write routes.
var documentedFields = map[string]bool{"agent_id": true, "contact": true, "message": true, "working_on": true, "remove": true,
	"protocol": true, "challenge_id": true, "round": true, "requester": true, "share_index": true, "kind": true, "to": true,
	"share_hex": true, "reg_token": true, "nonce": true, "solution": true, "submissions": true, "agent_secret": true,
	"name": true, "notify_url": true}

// lenient reads every POST body as a tolerant platform would, before the
// reference sees it: the last of a repeated key wins, invalid UTF-8
// becomes U+FFFD, undocumented fields are ignored, and no size is too
// large.
func lenient(h http.Handler) http.Handler {
	return tamper.Requests(h, func(r *http.Request, body []byte) []byte {
		var m map[string]any
		if r.Method != http.MethodPost || json.Unmarshal(body, &m) != nil || m == nil {
			return body
		}
		for k := range m {
			if !documentedFields[k] {
				delete(m, k)
			}
		}
		out, _ := json.Marshal(m)
		return out
	})
}

// TestALenientReaderOnlyWarnsNamingThePolicy: a bounty platform or a
// share-exchange responder that reads bodies outside the input policy
// leniently gets a warning naming BOUNTY-INPUT-POLICY or SX-INPUT-POLICY
// for every defect (a REFERENCE choice never fails a deployment), and the
// run still passes.
func TestALenientReaderOnlyWarnsNamingThePolicy(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(lenient(cli.ServeMux(protocols.All(), 3, log.New(io.Discard, "", 0))))
	defer srv.Close()
	for name, rule := range map[string]string{"bounty": "BOUNTY-INPUT-POLICY", "share-exchange": "SX-INPUT-POLICY"} {
		p, ok := protocols.Lookup(name)
		require.True(t, ok, name)
		rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{p}, Target: srv.URL + p.BasePath,
			Rules: []string{rule}, Seed: 11, NoProperties: true, CaseDir: t.TempDir()})
		require.NoError(t, err)
		require.Len(t, rep.Results, 4, name)
		for _, r := range rep.Results {
			assert.Equal(t, verdict.Warn, r.Status, "%s: %s: %s", name, r.Name, r.Message)
			assert.Equal(t, rule, r.FailedRule, "%s: %s", name, r.Name)
		}
		assert.Equal(t, 0, rep.ExitCode(), name)
	}
}
