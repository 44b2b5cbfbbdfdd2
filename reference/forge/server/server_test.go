package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/forge/server"
	"github.com/agentgames/conformance/reference/skeleton"
)

func TestDocumentsAndSessionBody(t *testing.T) {
	srv := httptest.NewServer(server.New(server.Options{}))
	defer srv.Close()
	for _, p := range []string{"/spec/puzzle.schema.json", "/spec/dsl.md", "/docs/agent-quickstart", "/openapi.json", "/api/chain", "/api/leaderboards"} {
		resp, err := http.Get(srv.URL + server.AltPath + p)
		require.NoError(t, err)
		assert.Equal(t, 200, resp.StatusCode, p)
		resp.Body.Close()
	}
	resp, err := http.Post(srv.URL+"/forge/api/agents", "application/json", strings.NewReader(`{"name":"x"}`))
	require.NoError(t, err)
	assert.Equal(t, 201, resp.StatusCode)
	resp, err = http.Get(srv.URL + "/api/chain")
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode, "the contract's paths are at the origin root")
}

// TestTheRateLimitRefillsOnTheServerClock: the per-key limiter
// (FORGE-RATE-LIMIT, FORGE-REF-BUDGETS) counts time on the server's clock,
// so a run against the embedded reference that waits out Retry-After by
// moving the clock meets the same limit as a live one that sleeps.
func TestTheRateLimitRefillsOnTheServerClock(t *testing.T) {
	t.Parallel()
	clock := skeleton.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	srv := httptest.NewServer(server.New(server.Options{Config: skeleton.Config{Now: clock.Now}}))
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/api/agents", "application/json", strings.NewReader(`{"name":"x"}`))
	require.NoError(t, err)
	var reg struct{ APIKey string }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&reg))
	resp.Body.Close()
	require.NotEmpty(t, reg.APIKey)
	progress := func() *http.Response {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/progress", nil)
		req.Header.Set("Authorization", "Bearer "+reg.APIKey)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	limited := 0
	for range 200 {
		if progress().StatusCode == http.StatusTooManyRequests {
			limited++
		}
	}
	assert.Equal(t, 200-120, limited, "a burst of 120 on a clock that does not move")
	last := progress()
	assert.Equal(t, http.StatusTooManyRequests, last.StatusCode)
	assert.Equal(t, "1", last.Header.Get("Retry-After"))
	clock.Advance(time.Second)
	assert.Equal(t, http.StatusOK, progress().StatusCode, "a second on the server's clock refills the bucket")
}
