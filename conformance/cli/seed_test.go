package cli_test

import (
	"bytes"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
)

// firstChallenge asks h for Iyra's first identity challenge, which the
// reference draws from its seeded generator.
func firstChallenge(t *testing.T, h http.Handler) string {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/api/v5/tasks/play/accept", strings.NewReader(`{"name":"seed-check","model":"m"}`))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(rec, req)
	require.Less(t, rec.Code, 300, rec.Body.String())
	return rec.Body.String()
}

// TestServeAndRunBuildTheSameWorldFromOneSeed: `serve --seed N` and the
// embedded `run --seed N` give the reference the same seed.
func TestServeAndRunBuildTheSameWorldFromOneSeed(t *testing.T) {
	t.Parallel()
	iyra, ok := protocols.Lookup("iyra")
	require.True(t, ok)
	served := firstChallenge(t, cli.ServeMux(protocols.All(), 7, log.New(io.Discard, "", 0)))
	embedded := firstChallenge(t, iyra.Reference(suite.ReferenceConfig{Seed: suite.ReferenceSeed(7)}))
	other := firstChallenge(t, iyra.Reference(suite.ReferenceConfig{Seed: suite.ReferenceSeed(8)}))
	challenge := func(body string) string {
		_, rest, _ := strings.Cut(body, `"challenge":`)
		v, _, _ := strings.Cut(rest, ",")
		return v
	}
	require.NotEmpty(t, challenge(served), served)
	assert.Equal(t, challenge(embedded), challenge(served))
	assert.NotEqual(t, challenge(other), challenge(served), "another seed, another world")
}

func TestServeBannerNamesEveryService(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	ws := &suite.Protocol{Name: "toy", Title: "Toy", BasePath: "/toy", WebSocketPaths: []string{"/live"}}
	cli.Banner(&out, append(protocols.All(), ws), "127.0.0.1:9")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{}
	for _, p := range protocols.All() {
		want = append(want, "serving "+p.Name+" "+p.Title+" at http://127.0.0.1:9"+p.BasePath+p.EntryPath)
		for _, path := range p.WebSocketPaths {
			want = append(want, "serving "+p.Name+" "+p.Title+" at ws://127.0.0.1:9"+p.BasePath+path)
		}
		if len(p.ServeFlags) > 0 {
			want = append(want, "flags "+p.Name+" "+strings.Join(p.ServeFlags, " "))
		}
	}
	want = append(want, "serving toy Toy at http://127.0.0.1:9/toy", "serving toy Toy at ws://127.0.0.1:9/toy/live")
	assert.Contains(t, want, "serving pyyol-gateway Pyyol agent gateway (WebSocket runtime) at ws://127.0.0.1:9/v1/agent/connect")
	assert.Contains(t, want, "flags pyyol-push --secret dev-secret")
	assert.Contains(t, want, "serving pyyol-push Pyyol push protocol (agent-hosted endpoint) at http://127.0.0.1:9/pyyol-agent/turn",
		"pyyol-push's line names the endpoint.url a run's --target takes")
	assert.Equal(t, want, lines)
}
