package cli_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/suite"
)

// withoutStakesMenu is a Pyyol gateway that serves its socket and practice
// key mint but none of the platform's HTTP menu and manifest API.
func withoutStakesMenu() http.Handler {
	ref := pyyol.Gateway().Reference(suite.ReferenceConfig{Seed: 3})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/stakes") || strings.Contains(r.URL.Path, "/manifest") {
			http.NotFound(w, r)
			return
		}
		ref.ServeHTTP(w, r)
	})
}

// TestAGatewayWithoutItsStakesMenuIsCheckedOnItsSocket: the stakes menu is
// one optional route, so its 404 does not make the target WRONG TARGET:
// the socket upgrades, the socket checks run and pass, and the HTTP checks
// skip as not served, summed up in one line.
func TestAGatewayWithoutItsStakesMenuIsCheckedOnItsSocket(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(withoutStakesMenu())
	defer srv.Close()
	code, out, errOut := run("run", "--target", srv.URL, "--protocol", "pyyol-gateway", "--quiet", "--cases", t.TempDir(),
		"--rule", "PYYOL-WS-HELLO,PYYOL-STAKES-PUBLIC,PYYOL-MANIFEST-ENDPOINT-URL")
	assert.Equal(t, 0, code, out+errOut)
	assert.NotContains(t, out, "WRONG TARGET")
	assert.Equal(t, 1, strings.Count(out, "NOT SERVED: pyyol-gateway: "), out)
	assert.Contains(t, out, "GET /v1/games/{game}/stakes", out)
	assert.Regexp(t, `pyyol-gateway\s+[1-9]\d*\s+0\s+0\s+[1-9]`, out, "socket checks pass, HTTP checks skip")
}

// TestNeitherMenuNorSocketIsNotPyyol: a static file server and an HTML
// catch-all are told apart from a gateway (exit 1, WRONG TARGET), never
// checked into a pass.
func TestNeitherMenuNorSocketIsNotPyyol(t *testing.T) {
	t.Parallel()
	static := httptest.NewServer(http.FileServer(http.Dir(t.TempDir())))
	defer static.Close()
	code, out, errOut := run("run", "--target", static.URL, "--protocol", "pyyol-gateway", "--quiet")
	assert.Equal(t, 1, code, out+errOut)
	assert.Contains(t, out, "WRONG TARGET: the target does not look like Pyyol agent gateway (WebSocket runtime): GET /v1/games/goofspiel/stakes answered 404; the socket")
	assert.Contains(t, out, "/v1/agent/connect did not upgrade either")

	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<!doctype html><title>app</title>"))
	}))
	defer html.Close()
	code, out, errOut = run("run", "--target", html.URL, "--protocol", "pyyol-gateway", "--quiet")
	assert.Equal(t, 1, code, out+errOut)
	assert.Contains(t, out, "GET /v1/games/goofspiel/stakes answered 200 without a JSON object")
}
