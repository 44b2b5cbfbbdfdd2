package spec_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/fixtures"
	"github.com/agentgames/conformance/spec"
)

// pyyolAudit is spec/pyyol/audit.json: every section of the Pyyol documents
// the catalogue covers, mapped to the rules that catalogue its statements or
// to the recorded reason it has none.
type pyyolAudit struct {
	Documents []string `json:"documents"`
	Outside   []string `json:"outside"`
	Sections  []struct {
		Path   string   `json:"path"`
		Rules  []string `json:"rules"`
		Reason string   `json:"reason"`
	} `json:"sections"`
}

// headingPaths lists every heading of a markdown document as an audit path:
// a top heading alone, a second-level one alone, deeper ones under their
// second-level parent ("games.md#Mafia/Events").
func headingPaths(file, doc string) []string {
	var out []string
	parent := ""
	for _, h := range spec.Headings(doc) {
		if h.Level <= 2 {
			parent = h.Title
			out = append(out, file+"#"+h.Title)
		} else {
			out = append(out, file+"#"+parent+"/"+h.Title)
		}
	}
	return out
}

// TestPyyolAuditMapsEverySection: each heading of the audited documents has
// one audit entry with rules or a reason; every named rule exists, and every
// catalogued rule is reached from the audit.
func TestPyyolAuditMapsEverySection(t *testing.T) {
	raw, err := os.ReadFile("pyyol/audit.json")
	require.NoError(t, err)
	var audit pyyolAudit
	require.NoError(t, json.Unmarshal(raw, &audit))
	cat, err := spec.Load("pyyol")
	require.NoError(t, err)
	corpus, err := fixtures.ReadFile(cat.Source)
	require.NoError(t, err)
	docs := spec.MarkdownDocuments(string(corpus))

	var want []string
	for _, f := range audit.Documents {
		require.Contains(t, docs, f)
		want = append(want, headingPaths(f, docs[f])...)
	}
	var got []string
	reached := map[string]bool{}
	for _, id := range audit.Outside {
		reached[id] = true
	}
	for _, s := range audit.Sections {
		got = append(got, s.Path)
		_, err := spec.SectionAt(string(corpus), s.Path)
		assert.NoError(t, err, s.Path)
		assert.True(t, len(s.Rules) > 0 || s.Reason != "", "%s: neither rules nor a reason", s.Path)
		for _, id := range s.Rules {
			_, ok := cat.Rule(id)
			assert.True(t, ok, "%s names %s, which the catalogue does not hold", s.Path, id)
			reached[id] = true
		}
	}
	assert.Equal(t, want, got, "the audit lists every heading of the audited documents, in order, once")
	for _, r := range cat.Rules {
		assert.True(t, reached[r.ID], "%s is reached from no audited section", r.ID)
	}
}
