package forge_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/fixtures"
	"github.com/agentgames/conformance/spec"
	forge "github.com/agentgames/conformance/spec/forge"
)

// leaves lists the JSON path of every scalar in v.
func leaves(v any, path string, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			leaves(c, path+"."+k, out)
		}
	case []any:
		for i, c := range x {
			leaves(c, fmt.Sprintf("%s[%d]", path, i), out)
		}
	default:
		*out = append(*out, path)
	}
}

// covers reports whether statement path s is p or an ancestor of p.
func covers(s, p string) bool {
	return s == p || strings.HasPrefix(p, s+".") || strings.HasPrefix(p, s+"[")
}

// TestEverySeedStatementIsAudited: every scalar of the seed is mapped to a
// rule or to a recorded reason, and every mapped rule exists.
func TestEverySeedStatementIsAudited(t *testing.T) {
	raw, err := fixtures.ReadFile("forge/contract.json")
	require.NoError(t, err)
	var seed any
	require.NoError(t, json.Unmarshal(raw, &seed))
	var paths []string
	leaves(seed, "$", &paths)
	sort.Strings(paths)
	st, err := forge.Statements()
	require.NoError(t, err)
	cat, err := spec.Load("forge")
	require.NoError(t, err)
	for _, p := range paths {
		found := false
		for _, s := range st {
			found = found || covers(s.Path, p)
		}
		assert.True(t, found, "seed statement %s is mapped to no rule and no reason", p)
	}
	mapped := map[string]bool{}
	for _, s := range st {
		assert.True(t, len(s.Rules) > 0 || s.Unchecked != "", "%s: neither rules nor a reason", s.Path)
		for _, id := range s.Rules {
			_, ok := cat.Rule(id)
			assert.True(t, ok, "%s maps to unknown rule %s", s.Path, id)
			mapped[id] = true
		}
	}
	for _, r := range cat.Rules {
		assert.True(t, mapped[r.ID], "rule %s stands for no audited statement", r.ID)
	}
}

func TestDocumentsAreServedVersions(t *testing.T) {
	var schema map[string]any
	require.NoError(t, json.Unmarshal(forge.PuzzleSchema, &schema))
	assert.Equal(t, "https://json-schema.org/draft/2020-12/schema", schema["$schema"])
	for _, rule := range []string{"FORGE-DSL-MOD-NONNEG", "FORGE-DSL-DELTA-NEXT-MINUS-CURRENT", "FORGE-DSL-CHUNK-PARTIAL",
		"FORGE-DSL-RLE-TERMINAL", "FORGE-DSL-OVERFLOW-REJECTED"} {
		assert.Contains(t, string(forge.DSL), rule, "dsl.md states every named semantic rule")
	}
}
