package cli_test

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/protocols"
)

// capture is a server on another port that keeps everything sent to it.
type capture struct {
	mu   sync.Mutex
	seen []string
}

func (c *capture) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seen = append(c.seen, r.Method+" "+r.URL.String()+" "+r.Header.Get("Authorization")+" "+string(body))
}

func (c *capture) all() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.seen...)
}

// TestARedirectingTargetGetsNoKeyElsewhere: a deployment that redirects every
// authenticated request to another port of the same host is a harness error
// (exit 2), and the other port receives nothing at all.
func TestARedirectingTargetGetsNoKeyElsewhere(t *testing.T) {
	other := &capture{}
	elsewhere := httptest.NewServer(other)
	defer elsewhere.Close()
	ref := cli.ServeMux(protocols.All(), 1, log.New(io.Discard, "", 0))
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			http.Redirect(w, r, elsewhere.URL+r.URL.RequestURI(), http.StatusTemporaryRedirect)
			return
		}
		ref.ServeHTTP(w, r)
	}))
	defer target.Close()
	for protocol, base := range map[string]string{"iyra": target.URL, "phantom-press": target.URL + "/game/phantom-press/api"} {
		code, out, errOut := run("run", "--target", base, "--protocol", protocol, "--checks", "-1", "--cases", t.TempDir())
		assert.Equal(t, 2, code, "%s: %s\n%s", protocol, tail(out), errOut)
		assert.Contains(t, out, "redirecting to "+elsewhere.URL, protocol)
	}
	require.Empty(t, other.all(), "the other origin received requests: %s", strings.Join(other.all(), "\n"))
}

// TestTheKeyInTheURLCheckSpendsAThrowawayIdentity: the Iyra check that a key
// in the URL is refused puts a key into a URL, which access logs keep; that
// key is never one the run uses for anything but its own registration.
func TestTheKeyInTheURLCheckSpendsAThrowawayIdentity(t *testing.T) {
	ref := cli.ServeMux(protocols.All(), 1, log.New(io.Discard, "", 0))
	var mu sync.Mutex
	inURL, bearerUse := map[string]bool{}, map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if k := r.URL.Query().Get("api_key"); k != "" {
			inURL[k] = true
		}
		if k := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "); k != "" {
			bearerUse[k]++
		}
		mu.Unlock()
		ref.ServeHTTP(w, r)
	}))
	defer srv.Close()
	code, out, _ := run("run", "--target", srv.URL, "--protocol", "iyra", "--checks", "-1", "--cases", t.TempDir())
	require.Equal(t, 0, code, tail(out))
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, inURL, "the check ran")
	for k := range inURL {
		assert.LessOrEqual(t, bearerUse[k], 1, "the key sent in a URL was used beyond reading its own assignment")
	}
}
