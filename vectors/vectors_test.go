package vectors_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/vectors"
)

func double(kind string, input json.RawMessage) (any, error) {
	var in struct{ N int }
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	if kind != "double" {
		return nil, errors.New("unknown kind " + kind)
	}
	return map[string]int{"n": in.N * 2}, nil
}

func TestCheckReportsEveryMismatch(t *testing.T) {
	files := []vectors.File{{Kind: "double", Path: "x/double.json", Vectors: []vectors.Vector{
		{ID: "ok", Input: json.RawMessage(`{"n":2}`), Expected: json.RawMessage(`{"n":4}`)},
		{ID: "wrong", Input: json.RawMessage(`{"n":2}`), Expected: json.RawMessage(`{"n":5}`)},
	}}, {Kind: "triple", Path: "x/triple.json", Vectors: []vectors.Vector{
		{ID: "unknown-kind", Input: json.RawMessage(`{"n":1}`), Expected: json.RawMessage(`{}`)},
	}}}
	bad, n := vectors.Check(files, double)
	assert.Equal(t, 3, n)
	require.Len(t, bad, 2)
	assert.Equal(t, "wrong", bad[0].ID)
	assert.Contains(t, bad[0].Diff, "5")
	assert.Equal(t, "unknown-kind", bad[1].ID)
	assert.Contains(t, bad[1].Diff, "calculator error")
}

func TestEmbeddedVectorFilesParse(t *testing.T) {
	require.NotEmpty(t, vectors.Protocols())
	for _, p := range vectors.Protocols() {
		files, err := vectors.Load(p)
		require.NoError(t, err)
		require.NotEmpty(t, files, p)
		for _, f := range files {
			assert.Equal(t, p, f.Protocol, f.Path)
			assert.NotEmpty(t, f.Vectors, f.Path)
		}
	}
}
