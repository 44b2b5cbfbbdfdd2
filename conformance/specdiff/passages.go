// Package specdiff compares a new version of a source contract with a
// protocol's rule catalogue: which rules' quotes no longer stand where
// their paths point, where a lost quote now stands, and which new
// normative text no rule quotes. Spec authors run it (conformance spec
// diff) before they move a catalogue to a new contract version.
package specdiff

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/agentgames/conformance/spec"
)

// Passage is one located piece of a contract: a JSON leaf (its path and
// text) or a markdown section's own text (document#heading chain).
type Passage struct {
	Path string `json:"path"`
	Text string `json:"text"`
}

// jsonPassages flattens a JSON document into its leaves, each with the
// catalogue path that reaches it; strings are their own words, every other
// scalar its source spelling.
func jsonPassages(doc json.RawMessage) ([]Passage, error) {
	var out []Passage
	err := walkJSON(doc, "$", func(path string, raw json.RawMessage, leaf bool) {
		if !leaf {
			return
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			s = string(raw)
		}
		out = append(out, Passage{Path: path, Text: s})
	})
	return out, err
}

// walkJSON visits every value of doc, containers first, in a stable order
// (object keys sorted), telling visit whether the value is a leaf.
func walkJSON(doc json.RawMessage, path string, visit func(path string, raw json.RawMessage, leaf bool)) error {
	trimmed := strings.TrimSpace(string(doc))
	switch {
	case strings.HasPrefix(trimmed, "{"):
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(doc, &obj); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		visit(path, doc, false)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := walkJSON(obj[k], path+keyStep(k), visit); err != nil {
				return err
			}
		}
	case strings.HasPrefix(trimmed, "["):
		var arr []json.RawMessage
		if err := json.Unmarshal(doc, &arr); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		visit(path, doc, false)
		for i, v := range arr {
			if err := walkJSON(v, fmt.Sprintf("%s[%d]", path, i), visit); err != nil {
				return err
			}
		}
	default:
		visit(path, doc, true)
	}
	return nil
}

// plainKey is an object key a catalogue path can spell with a dot.
var plainKey = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// keyStep spells one object step of a path; a key the catalogue's path
// grammar cannot spell is shown quoted, so the report still says where.
func keyStep(k string) string {
	if plainKey.MatchString(k) {
		return "." + k
	}
	return fmt.Sprintf("[%q]", k)
}

// fieldShape is a path with its array indices folded, so that a new
// element of a list is not a new field but a new key is.
func fieldShape(path string) string { return arrayIndex.ReplaceAllString(path, "[]") }

var arrayIndex = regexp.MustCompile(`\[\d+\]`)

// jsonFields lists the object-key shapes of a JSON document.
func jsonFields(doc json.RawMessage) map[string]bool {
	out := map[string]bool{}
	walkJSON(doc, "$", func(path string, _ json.RawMessage, _ bool) {
		out[fieldShape(path)] = true
	})
	return out
}

// section is one markdown heading's place: its catalogue path and its own
// text (up to the next heading of any level).
type section struct {
	path string
	text string
}

// markdownSections lists every document of a corpus and every heading in
// it, each with its full heading chain, as catalogue paths
// (games.md#Goofspiel/Turn view) and the section's own text.
func markdownSections(corpus string) []section {
	docs := spec.MarkdownDocuments(corpus)
	names := make([]string, 0, len(docs))
	for n := range docs {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []section
	for _, name := range names {
		out = append(out, docSections(name, docs[name])...)
	}
	return out
}

// docSections splits one markdown document at its headings (outside
// fenced code), naming each piece by its chain of headings.
func docSections(name, doc string) []section {
	var out []section
	var chain []spec.Heading
	cur := section{path: name}
	var body []string
	fenced := false
	flush := func() {
		cur.text = strings.Join(body, "\n")
		out = append(out, cur)
		body = nil
	}
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
		}
		hs := spec.Headings(line)
		if fenced || len(hs) == 0 {
			body = append(body, line)
			continue
		}
		flush()
		h := hs[0]
		for len(chain) > 0 && chain[len(chain)-1].Level >= h.Level {
			chain = chain[:len(chain)-1]
		}
		chain = append(chain, h)
		cur = section{path: name + "#" + chainPath(chain)}
	}
	flush()
	return out
}

func chainPath(chain []spec.Heading) string {
	titles := make([]string, len(chain))
	for i, h := range chain {
		titles[i] = h.Title
	}
	return strings.Join(titles, "/")
}

// markdownPassages are the sections' own texts as passages.
func markdownPassages(corpus string) []Passage {
	var out []Passage
	for _, s := range markdownSections(corpus) {
		out = append(out, Passage{Path: s.path, Text: s.text})
	}
	return out
}
