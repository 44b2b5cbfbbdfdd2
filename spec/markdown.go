package spec

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// A markdown source contract (Pyyol's docs) is a corpus of documents, each
// opened by a marker line; a rule's path names a document and a heading
// inside it, outer to inner: "games.md#Goofspiel/Turn view".

// docMarker opens one document of a concatenated markdown corpus (Pyyol's
// "<!-- ===== protocol.md ===== -->").
var docMarker = regexp.MustCompile(`(?m)^<!-- ===== (\S+) ===== -->$`)

// headingLine is a markdown ATX heading: its level and its text.
var headingLine = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*$`)

// SectionAt returns the text of the section a catalogue path such as
// "protocol.md#Errors" or "games.md#Goofspiel/Turn view" names: the
// document, then headings from outer to inner. A section runs to the next
// heading of the same or a higher level; headings inside fenced code blocks
// do not count.
func SectionAt(corpus, path string) (string, error) {
	file, headings, _ := strings.Cut(path, "#")
	doc, ok := MarkdownDocuments(corpus)[file]
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

// MarkdownDocuments splits a corpus at its document markers, by document
// name. A catalogue looks up a section for each of its hundreds of rules in
// one corpus, so the last few corpora split are remembered; the map is
// shared: read it only.
func MarkdownDocuments(corpus string) map[string]string {
	split.mu.Lock()
	defer split.mu.Unlock()
	for _, c := range split.recent {
		if c.corpus == corpus {
			return c.docs
		}
	}
	docs := splitDocuments(corpus)
	split.recent = append(split.recent, splitCorpus{corpus, docs})
	if len(split.recent) > 8 {
		split.recent = split.recent[1:]
	}
	return docs
}

// split holds the corpora MarkdownDocuments split last.
var split struct {
	mu     sync.Mutex
	recent []splitCorpus
}

type splitCorpus struct {
	corpus string
	docs   map[string]string
}

// splitDocuments splits a corpus at its document markers.
func splitDocuments(corpus string) map[string]string {
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

// Heading is one markdown heading outside fenced code: its level (the
// number of #) and its text.
type Heading struct {
	Level int
	Title string
}

// Headings lists the headings of a markdown document in order; headings
// inside fenced code blocks do not count.
func Headings(doc string) []Heading {
	var out []Heading
	fenced := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if m := headingLine.FindStringSubmatch(line); m != nil && !fenced {
			out = append(out, Heading{Level: len(m[1]), Title: m[2]})
		}
	}
	return out
}

// QuoteInSection reports whether quote stands in section, white space
// aside, on token boundaries (ContainsToken).
func QuoteInSection(section, quote string) bool {
	return ContainsToken(squeeze(section), squeeze(quote))
}

// isMarkdown reports whether the catalogue quotes a markdown source.
func (c *Catalogue) isMarkdown() bool { return strings.HasSuffix(c.Source, ".md") }

// checkMarkdownQuotes reports every rule whose quote does not stand, white
// space aside, in the section its path names.
func (c *Catalogue) checkMarkdownQuotes(corpus string) []error {
	var errs []error
	for _, r := range c.Rules {
		sec, err := SectionAt(corpus, r.Path)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", r.ID, err))
			continue
		}
		if !QuoteInSection(sec, r.Quote) {
			errs = append(errs, fmt.Errorf("%s: %q is not the contract's words at %s", r.ID, r.Quote, r.Path))
		}
	}
	return errs
}
