package server_test

import (
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/pyyol/server"
)

func TestPracticeMatchesOverOneSocket(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(server.New(server.Options{}))
	defer srv.Close()
	id, token, err := key(srv.URL)
	require.NoError(t, err)
	assert.Regexp(t, `^sk_arena_[0-9a-f]{40}$`, token)
	ctx, cancel := timeout()
	defer cancel()
	a, err := dialAgent(ctx, srv.URL, id, token, 2)
	require.NoError(t, err)
	defer a.close()
	require.NoError(t, a.play(ctx, 2))
	for _, end := range a.ends {
		res := end["payload"].(map[string]any)
		assert.Len(t, res["history"], 13)
		assert.Equal(t, []any{}, res["usage"])
	}
	assert.Equal(t, 2*54, a.events, "match_created, 13 prizes, 26 seals, 13 reveals, match_finished per match")
}

func TestSameSeedSameKeysAndMatches(t *testing.T) {
	t.Parallel()
	a := httptest.NewServer(server.New(server.Options{}))
	defer a.Close()
	b := httptest.NewServer(server.New(server.Options{}))
	defer b.Close()
	idA, tokA, _ := key(a.URL)
	idB, tokB, _ := key(b.URL)
	assert.Equal(t, idA, idB)
	assert.Equal(t, tokA, tokB)
}
