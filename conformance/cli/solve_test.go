package cli_test

import (
	"bytes"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/forge"
	"github.com/agentgames/conformance/conformance/suite"
)

// TestSolveClearsTheSeedChain: `conformance solve forge` clears positions
// 1-10 of the reference and stops at the frontier.
func TestSolveClearsTheSeedChain(t *testing.T) {
	srv := httptest.NewServer(forge.Reference(suite.ReferenceConfig{Seed: 1}))
	defer srv.Close()
	var out, errOut bytes.Buffer
	code := cli.Main([]string{"solve", "forge", "--target", srv.URL + "/forge"}, &out, &errOut)
	require.Equal(t, 0, code, "%s\n%s", out.String(), errOut.String())
	assert.Contains(t, out.String(), "cleared 10 levels [1 2 3 4 5 6 7 8 9 10]")
	assert.Contains(t, out.String(), "at the frontier")
	assert.NotContains(t, out.String(), "forge_", "the key never reaches the output")
	assert.Equal(t, 2, cli.Main([]string{"solve", "iyra", "--target", srv.URL}, &out, &errOut))
}
