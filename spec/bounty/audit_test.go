// Package bounty_test proves the audit of the agent-puzzle-bounty seed
// complete: every statement of the contract maps to a catalogued rule or to
// a recorded reason it has none.
package bounty_test

import (
	"encoding/json"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/spec"
)

type auditEntry struct {
	Path   string   `json:"path"`
	Rules  []string `json:"rules"`
	Reason string   `json:"reason"`
}

// leaves lists the JSON path of every statement: every scalar, and every
// array of scalars as one statement.
func leaves(v any, path string, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			leaves(c, path+"."+k, out)
		}
	case []any:
		nested := false
		for _, c := range x {
			switch c.(type) {
			case map[string]any, []any:
				nested = true
			}
		}
		if !nested {
			*out = append(*out, path)
			return
		}
		for i, c := range x {
			leaves(c, path+"["+strconv.Itoa(i)+"]", out)
		}
	default:
		*out = append(*out, path)
	}
}

func covers(entry, leaf string) bool {
	return leaf == entry || strings.HasPrefix(leaf, entry+".") || strings.HasPrefix(leaf, entry+"[")
}

func TestEveryStatementOfTheSeedIsAudited(t *testing.T) {
	raw, err := os.ReadFile("../../fixtures/bounty/manifest.json")
	require.NoError(t, err)
	var doc any
	require.NoError(t, json.Unmarshal(raw, &doc))
	var all []string
	leaves(doc, "$", &all)
	sort.Strings(all)

	auditRaw, err := os.ReadFile("audit.json")
	require.NoError(t, err)
	var audit struct{ Entries []auditEntry }
	require.NoError(t, json.Unmarshal(auditRaw, &audit))
	cat, err := spec.Load("bounty")
	require.NoError(t, err)

	for _, leaf := range all {
		found := false
		for _, e := range audit.Entries {
			found = found || covers(e.Path, leaf)
		}
		assert.True(t, found, "%s is mapped to no rule and no reason", leaf)
	}
	used := map[string]bool{}
	for _, e := range audit.Entries {
		assert.True(t, len(e.Rules) > 0 || e.Reason != "", "%s: neither rules nor a reason", e.Path)
		hit := false
		for _, leaf := range all {
			hit = hit || covers(e.Path, leaf)
		}
		assert.True(t, hit, "audit entry %s names no statement of the seed", e.Path)
		for _, id := range e.Rules {
			_, ok := cat.Rule(id)
			assert.True(t, ok, "%s names %s, which the catalogue does not hold", e.Path, id)
			used[id] = true
		}
	}
	for _, r := range cat.Rules {
		assert.True(t, used[r.ID], "%s is in the catalogue but the audit maps no statement to it", r.ID)
	}
}
