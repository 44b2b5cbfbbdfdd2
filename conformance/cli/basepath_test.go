package cli_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentgames/conformance/reference/bounty/server"
	"github.com/agentgames/conformance/reference/skeleton"
)

// rootMounted serves the reference bounty at the origin root, as the
// contract's own deployment does (its endpoints are listed at /register,
// /challenge/..., not under the kit's /bounty mount).
func rootMounted() http.Handler {
	ref := server.New(skeleton.Config{Seed: 1})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r2 := r.Clone(r.Context())
		r2.URL.Path = server.BasePath + r.URL.Path
		r2.URL.RawPath = ""
		ref.ServeHTTP(w, r2)
	})
}

// TestBasePathReachesADeploymentAtItsOriginRoot: a bare target URL gets
// the protocol's documented path; --base-path / checks a deployment that
// lives at the root instead.
func TestBasePathReachesADeploymentAtItsOriginRoot(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(rootMounted())
	defer srv.Close()
	args := []string{"run", "--target", srv.URL, "--protocol", "bounty", "--rule", "BOUNTY-REG-CHALLENGE", "--checks", "-1"}

	code, out, errOut := run(append(args, "--base-path", "/")...)
	assert.Equal(t, 0, code, "%s\n%s", out, errOut)
	assert.Contains(t, out, "RESULT: PASS")

	code, out, _ = run(args...)
	assert.NotEqual(t, 0, code, "without --base-path the runner looks under /bounty, where this deployment answers nothing:\n%s", out)
}

func TestBasePathNeedsATargetAndASlash(t *testing.T) {
	t.Parallel()
	code, _, errOut := run("run", "--base-path", "/")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--base-path needs --target")
	code, _, errOut = run("run", "--target", "http://127.0.0.1:9", "--protocol", "bounty", "--base-path", "api")
	assert.Equal(t, 2, code)
	assert.True(t, strings.Contains(errOut, "--base-path must start with /"), errOut)
}
