package spec_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/spec"
)

const corpus = "<!-- ===== a.md ===== -->\n# A\n## One\nfirst words\n```\n# not a heading\n```\n### Deep\ndeep words\n## Two\nsecond\nwords\n<!-- ===== b.md ===== -->\n# B\n"

func TestMarkdownSectionsRejectMisplacedQuotes(t *testing.T) {
	sec, err := spec.SectionAt(corpus, "a.md#A/One")
	require.NoError(t, err)
	assert.Contains(t, sec, "deep words", "a section holds its subsections")
	assert.NotContains(t, sec, "second")
	sec, err = spec.SectionAt(corpus, "a.md#A/Two")
	require.NoError(t, err)
	assert.True(t, spec.QuoteInSection(sec, "second words"), "wrapped prose matches")
	for _, bad := range []string{"c.md#A", "a.md#Three", "a.md#A/not a heading"} {
		_, err := spec.SectionAt(corpus, bad)
		assert.Error(t, err, bad)
	}
}

// TestCheckQuotesReadsMarkdownHeadings: a catalogue quoting a markdown
// source is checked section by section, so words from another section do
// not count.
func TestCheckQuotesReadsMarkdownHeadings(t *testing.T) {
	cat := &spec.Catalogue{Protocol: "doc", Source: "doc/doc.md", Rules: []spec.Rule{
		{ID: "DOC-ONE", Quote: "first words", Path: "a.md#A/One"},
		{ID: "DOC-TWO", Quote: "second words", Path: "a.md#A/Two"},
	}}
	require.NoError(t, cat.CheckQuotes([]byte(corpus)))
	cat.Rules[1].Quote = "first words"
	err := cat.CheckQuotes([]byte(corpus))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `DOC-TWO: "first words" is not the contract's words at a.md#A/Two`)
	assert.NotContains(t, err.Error(), "DOC-ONE")
	cat.Rules[1].Path = "$.a"
	assert.ErrorContains(t, cat.CheckQuotes([]byte(corpus)), `DOC-TWO: path "$.a": no document`)
}
