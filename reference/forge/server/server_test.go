package server_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/forge/server"
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
