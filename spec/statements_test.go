package spec_test

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/spec"
)

// statement is one normative statement of a seed: where it is, its words,
// the rules that check it and, where something stays unchecked, why no
// check is needed or possible.
type statement struct {
	ID        string   `json:"id"`
	Path      string   `json:"path"`
	Quote     string   `json:"quote"`
	Requires  string   `json:"requires"`
	Rules     []string `json:"rules"`
	Unchecked string   `json:"unchecked"`
}

// statementLists are the protocols whose spec/<p>/statements.json lists
// statements by id, path and quote (from the Iyra and Phantom Press audits);
// FORGE keeps its own leaf-by-leaf list, checked in spec/forge.
var statementLists = []string{"iyra", "phantom-press"}

// TestEveryStatementIsMappedOrAnswered keeps each protocol's statement list
// complete: every quote is the seed's words at its path, every rule it names
// is catalogued, and every statement names a rule or says why it stays
// unchecked.
func TestEveryStatementIsMappedOrAnswered(t *testing.T) {
	for _, p := range statementLists {
		raw, err := os.ReadFile(p + "/statements.json")
		require.NoError(t, err)
		var doc struct {
			Statements []statement `json:"statements"`
		}
		require.NoError(t, json.Unmarshal(raw, &doc), p)
		cat, err := spec.Load(p)
		require.NoError(t, err)
		seed := source(t, cat)
		seen := map[string]bool{}
		for _, s := range doc.Statements {
			assert.False(t, seen[s.ID], "%s: statement %s listed twice", p, s.ID)
			seen[s.ID] = true
			at, err := valueAt(seed, s.Path)
			if assert.NoError(t, err, "%s %s", p, s.ID) {
				assert.True(t, statementFits(at, s.Quote), "%s %s: %q is not the seed's words at %s", p, s.ID, s.Quote, s.Path)
			}
			for _, id := range s.Rules {
				_, ok := cat.Rule(id)
				assert.True(t, ok, "%s %s names %s, which the catalogue does not hold", p, s.ID, id)
			}
			assert.True(t, len(s.Rules) > 0 || s.Unchecked != "", "%s %s: neither a rule nor a reason", p, s.ID)
		}
	}
}

// statementFits reports whether quote is the seed's words at raw: verbatim
// (quoteFits), or, for an object, a listing of some of its fields, either
// as "key": value pairs or as "keys: a, b, c".
func statementFits(raw json.RawMessage, quote string) bool {
	if quoteFits(raw, quote) {
		return true
	}
	var obj map[string]any
	if json.Unmarshal(raw, &obj) != nil {
		return false
	}
	if names, ok := strings.CutPrefix(quote, "keys: "); ok {
		for _, k := range strings.Split(names, ", ") {
			if _, has := obj[k]; !has {
				return false
			}
		}
		return true
	}
	var fields map[string]any
	if json.Unmarshal([]byte("{"+quote+"}"), &fields) != nil || len(fields) == 0 {
		return false
	}
	for k, v := range fields {
		if !reflect.DeepEqual(obj[k], v) {
			return false
		}
	}
	return true
}
