package spec_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/spec"
)

// docMarker opens one document of a concatenated markdown corpus (Pyyol's
// "<!-- ===== protocol.md ===== -->").
var docMarker = regexp.MustCompile(`(?m)^<!-- ===== (\S+) ===== -->$`)

// headingLine is a markdown ATX heading: its level and its text.
var headingLine = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*$`)

// markdownSection returns the text of the section a path such as
// "protocol.md#Errors" or "games.md#Goofspiel/Turn view" names: the
// document, then headings from outer to inner. A section runs to the next
// heading of the same or a higher level; headings inside fenced code blocks
// do not count.
func markdownSection(corpus, path string) (string, error) {
	file, headings, _ := strings.Cut(path, "#")
	doc, ok := markdownDocs(corpus)[file]
	if !ok {
		return "", fmt.Errorf("path %q: no document %s in the corpus", path, file)
	}
	if headings == "" {
		return doc, nil
	}
	for _, h := range strings.Split(headings, "/") {
		sec, err := sectionUnder(doc, h)
		if err != nil {
			return "", fmt.Errorf("path %q: %w", path, err)
		}
		doc = sec
	}
	return doc, nil
}

// markdownDocs splits a corpus at its document markers.
func markdownDocs(corpus string) map[string]string {
	out := map[string]string{}
	locs := docMarker.FindAllStringSubmatchIndex(corpus, -1)
	for i, l := range locs {
		end := len(corpus)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		out[corpus[l[2]:l[3]]] = corpus[l[1]:end]
	}
	return out
}

// sectionUnder returns the section of doc under the first heading whose text
// is title.
func sectionUnder(doc, title string) (string, error) {
	lines := strings.Split(doc, "\n")
	start, level := -1, 0
	fenced := false
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		m := headingLine.FindStringSubmatch(line)
		if fenced || m == nil {
			continue
		}
		if start >= 0 && len(m[1]) <= level {
			return strings.Join(lines[start:i], "\n"), nil
		}
		if start < 0 && m[2] == title {
			start, level = i+1, len(m[1])
		}
	}
	if start < 0 {
		return "", fmt.Errorf("no heading %q", title)
	}
	return strings.Join(lines[start:], "\n"), nil
}

// squeeze collapses runs of white space, since markdown wraps its prose at
// arbitrary points.
func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

// checkMarkdownQuotes is the quote check for a markdown source: every quote
// stands, white space aside, in the section its path names.
func checkMarkdownQuotes(t *testing.T, cat *spec.Catalogue, corpus string) {
	t.Helper()
	for _, r := range cat.Rules {
		sec, err := markdownSection(corpus, r.Path)
		if err != nil {
			t.Errorf("%s: %v", r.ID, err)
			continue
		}
		assert.Contains(t, squeeze(sec), squeeze(r.Quote), "%s: the quote is not the contract's words at %s", r.ID, r.Path)
	}
}

func TestMarkdownSectionsRejectMisplacedQuotes(t *testing.T) {
	corpus := "<!-- ===== a.md ===== -->\n# A\n## One\nfirst words\n```\n# not a heading\n```\n### Deep\ndeep words\n## Two\nsecond\nwords\n<!-- ===== b.md ===== -->\n# B\n"
	sec, err := markdownSection(corpus, "a.md#A/One")
	require.NoError(t, err)
	assert.Contains(t, sec, "deep words", "a section holds its subsections")
	assert.NotContains(t, sec, "second")
	sec, err = markdownSection(corpus, "a.md#A/Two")
	require.NoError(t, err)
	assert.Contains(t, squeeze(sec), "second words", "wrapped prose matches")
	for _, bad := range []string{"c.md#A", "a.md#Three", "a.md#A/not a heading"} {
		_, err := markdownSection(corpus, bad)
		assert.Error(t, err, bad)
	}
}
