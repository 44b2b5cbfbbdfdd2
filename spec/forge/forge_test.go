package forge_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	forge "github.com/agentgames/conformance/spec/forge"
)

func TestDocumentsAreServedVersions(t *testing.T) {
	var schema map[string]any
	require.NoError(t, json.Unmarshal(forge.PuzzleSchema, &schema))
	assert.Equal(t, "https://json-schema.org/draft/2020-12/schema", schema["$schema"])
	for _, rule := range []string{"FORGE-DSL-MOD-NONNEG", "FORGE-DSL-DELTA-NEXT-MINUS-CURRENT", "FORGE-DSL-CHUNK-PARTIAL",
		"FORGE-DSL-RLE-TERMINAL", "FORGE-DSL-OVERFLOW-REJECTED"} {
		assert.Contains(t, string(forge.DSL), rule, "dsl.md states every named semantic rule")
	}
}
