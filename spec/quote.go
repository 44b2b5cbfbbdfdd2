package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// pathStep is one step of a catalogue path: an object key or an array index.
var pathStep = regexp.MustCompile(`^(?:\.([A-Za-z0-9_]+)|\[(\d+)\])`)

// ValueAt returns the raw JSON at a catalogue path such as $.a.b[6], as the
// source spells it, so a quote can be checked where the path points.
func ValueAt(doc json.RawMessage, path string) (json.RawMessage, error) {
	if !strings.HasPrefix(path, "$") {
		return nil, fmt.Errorf("path %q does not start with $", path)
	}
	cur, rest := doc, path[1:]
	for rest != "" {
		m := pathStep.FindStringSubmatch(rest)
		if m == nil {
			return nil, fmt.Errorf("path %q: cannot read %q", path, rest)
		}
		rest = rest[len(m[0]):]
		next, err := pathValue(cur, m[1], m[2])
		if err != nil {
			return nil, fmt.Errorf("path %q: %w", path, err)
		}
		cur = next
	}
	return cur, nil
}

// pathValue takes one step into cur: the member key, or the element index.
func pathValue(cur json.RawMessage, key, index string) (json.RawMessage, error) {
	if key != "" {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(cur, &obj); err != nil {
			return nil, fmt.Errorf("%s is not inside an object", key)
		}
		next, ok := obj[key]
		if !ok {
			return nil, fmt.Errorf("no key %s", key)
		}
		return next, nil
	}
	var arr []json.RawMessage
	i, _ := strconv.Atoi(index)
	if err := json.Unmarshal(cur, &arr); err != nil || i >= len(arr) {
		return nil, fmt.Errorf("no element %d", i)
	}
	return arr[i], nil
}

// QuoteFits reports whether quote is the source's words at raw: part of a
// string value, or of the source's own spelling of any other value, on
// token boundaries (ContainsToken: "40" is not the words of "409").
func QuoteFits(raw json.RawMessage, quote string) bool {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return ContainsToken(s, quote)
	}
	return ContainsToken(string(raw), quote)
}

// CheckQuotes reports every rule whose quote is not the source contract's
// own words at the rule's path (errors.Join of them all). The path is a JSON
// path ($.a.b[6]) into a JSON source, or a document and heading
// (games.md#Goofspiel/Turn view) into a markdown source, as the
// catalogue's source file name says (markdown.go).
func (c *Catalogue) CheckQuotes(source []byte) error {
	if c.isMarkdown() {
		return errors.Join(c.checkMarkdownQuotes(string(source))...)
	}
	var errs []error
	for _, r := range c.Rules {
		v, err := ValueAt(source, r.Path)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", r.ID, err))
			continue
		}
		if !QuoteFits(v, r.Quote) {
			errs = append(errs, fmt.Errorf("%s: %q is not the contract's words at %s", r.ID, r.Quote, r.Path))
		}
	}
	return errors.Join(errs...)
}

// lastStep is the last step of a catalogue path, which Around drops.
var lastStep = regexp.MustCompile(`(\.[A-Za-z0-9_]+|\[\d+\])$`)

// Around returns the source's words around a catalogue path: the compact
// JSON of the object or array that holds the value at path, cut to max
// bytes, or "" when the path does not resolve (a Markdown source). A quote
// such as "10" or "false" means something only beside its neighbours
// ("seedPositions": {"first":1,"last":10}), so reports show this with it.
func Around(doc json.RawMessage, path string) string {
	parent := path
	if m := lastStep.FindStringIndex(path); m != nil && m[0] > 0 {
		parent = path[:m[0]]
	}
	raw, err := ValueAt(doc, parent)
	if err != nil {
		return ""
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return ""
	}
	out := buf.String()
	if max := 120; len(out) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(out[cut]) {
			cut--
		}
		out = out[:cut] + "…"
	}
	return out
}
