package pyyol_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/reference/pyyol/agent"
)

// TestPushRoutes: a --target is endpoint.url, whatever its last segment;
// the reference's base path is the routes' directory.
func TestPushRoutes(t *testing.T) {
	for target, want := range map[string][2]string{
		"http://h:1/pyyol-agent/turn":   {"http://h:1/pyyol-agent", "/turn"},
		"http://h:1/pyyol-agent/turn/":  {"http://h:1/pyyol-agent", "/turn"},
		"http://h:1/pyyol-agent":        {"http://h:1/pyyol-agent", "/turn"},
		"https://a.example/agents/play": {"https://a.example/agents", "/play"},
		"https://a.example/turn":        {"https://a.example", "/turn"},
		"https://a.example":             {"https://a.example", "/turn"},
	} {
		dir, turn := pyyol.PushRoutes(target)
		assert.Equal(t, want, [2]string{dir, turn}, target)
	}
}

// strictAt serves the reference agent with endpoint.url at path play and
// the siblings beside it, and answers 404 to every other path (/turn and
// .../play/health too), as a framework with exact routes would.
func strictAt(play string) http.Handler {
	ref := agent.New(agent.Options{Mafia: true, Monopoly: true})
	siblings := []string{"health", "handshake", "initialize", "event", "game-end"}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The reference agent takes any other POST as a turn, so .../play
		// reaches its turn handler as it stands (the signature binds it).
		name, ok := strings.CutPrefix(r.URL.Path, agent.BasePath+"/")
		if !ok || (name != play && !slices.Contains(siblings, name)) {
			http.NotFound(w, r)
			return
		}
		ref.ServeHTTP(w, r)
	})
}

// TestEndpointNotNamedTurn: an agent whose endpoint.url is .../play, with
// exact routes, gets its turns at .../play and its siblings beside it, as
// the platform sends them, and passes every check.
func TestEndpointNotNamedTurn(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(strictAt("play"))
	defer srv.Close()
	rep := runLive(t, pyyol.Push(), srv.URL+agent.BasePath+"/play", "", pushSettings)
	if rep.ExitCode() != 0 {
		t.Errorf("exit %d: %v", rep.ExitCode(), failedRules(rep))
	}
}
