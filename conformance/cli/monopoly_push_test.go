package cli_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/pyyol/agent"
)

// TestSimulateMonopolyAgainstAPushEndpoint: `simulate monopoly --target`
// plays a whole match against the reference agent (PASS), fails an agent
// answering outside legal_actions naming the rule, and refuses a bad
// table or a missing secret without sending anything.
func TestSimulateMonopolyAgainstAPushEndpoint(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(agent.New(agent.Options{Monopoly: true}))
	defer srv.Close()
	turn := srv.URL + agent.BasePath + "/turn"
	code, out, errOut := run("simulate", "monopoly", "--target", turn, "--secret", agent.DevSecret, "--seat", "1", "--players", "2")
	require.Equal(t, 0, code, out+errOut)
	assert.Contains(t, out, "PASS")
	assert.Contains(t, out, "agent roll")
	// Each decision in its place: turn, phase, the square (its price when
	// the agent may buy it), the cash, and what a purchase cost.
	assert.Regexp(t, `(?m)^decision +\d+  turn +\d+  roll +on +\d+ [A-Z][^,]*, cash \d+ +agent roll$`, out)
	assert.Regexp(t, `(?m)^decision +\d+  turn +\d+  acquire +dice \d\+\d  on +\d+ [^(]+ \(price (\d+)\), cash \d+ +agent buy  → cash \d+$`, out)
	assert.Regexp(t, `seat 1 \(the agent\): cash -?\d+, net worth -?\d+, \d+ properties`, out, "every seat's end of the match")
	assert.Regexp(t, `(?m)^seat 0: cash`, out)

	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/turn") {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"action":"fly"}`))
			return
		}
		agent.New(agent.Options{Monopoly: true}).ServeHTTP(w, r)
	}))
	defer broken.Close()
	code, _, errOut = run("simulate", "monopoly", "--target", broken.URL+agent.BasePath+"/turn", "--secret", agent.DevSecret)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "PYYOL-MONO-MOVE-ACTION")

	code, _, errOut = run("simulate", "monopoly", "--target", turn, "--secret", agent.DevSecret, "--players", "9")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--players")
	code, _, _ = run("simulate", "monopoly", "--target", turn)
	assert.Equal(t, 2, code)
}
