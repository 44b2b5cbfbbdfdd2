package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/forge"
	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
)

// TestSolveClearsTheSeedChain: `conformance solve forge` clears positions
// 1-10 of the reference and stops at the frontier.
func TestSolveClearsTheSeedChain(t *testing.T) {
	t.Parallel()
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

// chainLength reads GET /api/chain's length from a FORGE target.
func chainLength(t *testing.T, base string) int {
	t.Helper()
	resp, err := http.Get(base + "/api/chain")
	require.NoError(t, err)
	defer resp.Body.Close()
	var s struct{ Length int }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&s))
	return s.Length
}

// TestLiveForgeRunAppendsOnlyWithAllowAuthoring: a live run appends
// nothing; with --allow-authoring it appends exactly one level.
func TestLiveForgeRunAppendsOnlyWithAllowAuthoring(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(forge.Reference(suite.ReferenceConfig{Seed: 2}))
	defer srv.Close()
	base := srv.URL + "/forge"
	var out, errOut bytes.Buffer
	require.Equal(t, 10, chainLength(t, base))
	code := cli.Main([]string{"run", "--target", base, "--protocol", "forge", "--quiet", "--checks", "2"}, &out, &errOut)
	require.Equal(t, 0, code, "%s\n%s", out.String(), errOut.String())
	assert.Equal(t, 10, chainLength(t, base), "no append without --allow-authoring")
	code = cli.Main([]string{"run", "--target", base, "--protocol", "forge", "--quiet", "--checks", "2", "--allow-authoring"}, &out, &errOut)
	require.Equal(t, 0, code, "%s\n%s", out.String(), errOut.String())
	assert.Equal(t, 11, chainLength(t, base), "exactly one logical level with --allow-authoring")
}

// scrambled answers every probe with a value no DSL pipeline explains.
func scrambled(h http.Handler) http.Handler {
	n := 0
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/query") {
			n++
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"output":[%d,%d,%d]}`, 7919*n%1009, n*n%97, 424242)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// TestSolveStopsOutsideTheDSLWithoutFailing: a level no pipeline explains
// is reported and the solver stops with exit 0.
func TestSolveStopsOutsideTheDSLWithoutFailing(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(scrambled(forge.Reference(suite.ReferenceConfig{Seed: 1})))
	defer srv.Close()
	var out, errOut bytes.Buffer
	code := cli.Main([]string{"solve", "forge", "--target", srv.URL + "/forge"}, &out, &errOut)
	require.Equal(t, 0, code, "%s\n%s", out.String(), errOut.String())
	assert.Contains(t, out.String(), "outside the kit's DSL")
	assert.Contains(t, out.String(), "cleared 0 levels")
}

// TestServeMountsForgeAtTheRoot: beside the other protocols, FORGE's
// documents and API answer at the origin root and under /forge, and the
// other protocols keep their own paths.
func TestServeMountsForgeAtTheRoot(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(cli.ServeMux(protocols.All(), 1, log.New(io.Discard, "", 0)))
	defer srv.Close()
	for _, p := range []string{"/openapi.json", "/spec/dsl.md", "/api/chain", "/forge/openapi.json", "/forge/api/chain"} {
		resp, err := http.Get(srv.URL + p)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, 200, resp.StatusCode, p)
	}
	resp, err := http.Get(srv.URL + "/")
	require.NoError(t, err)
	var index struct{ Protocols map[string]string }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&index))
	resp.Body.Close()
	assert.Equal(t, "/", index.Protocols["forge"])
	assert.Equal(t, "/api/v5", index.Protocols["iyra"], "the index at / is still served")
}
