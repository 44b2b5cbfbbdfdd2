package cli_test

import (
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/pyyol/agent"
)

func TestSimulateMafiaAgainstAPushEndpoint(t *testing.T) {
	srv := httptest.NewServer(agent.New(agent.Options{Mafia: true}))
	defer srv.Close()
	turn := srv.URL + agent.BasePath + "/turn"
	code, out, errOut := run("simulate", "mafia", "--target", turn, "--secret", agent.DevSecret, "--role", "Doctor")
	require.Equal(t, 0, code, out+errOut)
	assert.Contains(t, out, "the agent was a Doctor")
	assert.Contains(t, out, "protect 11", "the baseline Doctor protects itself")

	code, _, errOut = run("simulate", "mafia", "--target", turn, "--secret", "not-the-secret")
	assert.Equal(t, 1, code)
	assert.NotContains(t, errOut, "not-the-secret", "the secret is never printed")

	code, _, errOut = run("simulate", "mafia", "--target", turn, "--secret", agent.DevSecret, "--role", "mafia")
	assert.Equal(t, 2, code, "roles are capitalised")
	assert.Contains(t, errOut, "--role")
}
