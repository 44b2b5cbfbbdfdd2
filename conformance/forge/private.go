package forge

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// secrets are values the runner itself wrote or computed that a deployment
// must keep server-side, searched for BY VALUE in answer bodies: a leak
// under an innocent key name (or inside a JSON-encoded string) is still a
// leak (FORGE-PRIVATE-SERVER-ONLY, FORGE-CHAIN-SUMMARY).
type secrets struct {
	lists   []secretList  // integer lists: hidden inputs, expected outputs, example inputs
	values  []secretValue // JSON values compared canonically: an oracle, its steps, pairs outputs
	strings []secretValue // texts: a title, rules, a level id
}

type secretList struct {
	what string
	list []int64
}

type secretValue struct {
	what      string
	canonical string // the value's JSON with sorted keys and plain numbers
}

// addList adds an integer list the answers must not carry.
func (s *secrets) addList(what string, l []int64) { s.lists = append(s.lists, secretList{what, l}) }

// addValue adds a JSON value (an oracle, a pairs output) the answers must
// not carry, under any key order.
func (s *secrets) addValue(what string, v any) {
	if c, ok := canonical(v); ok {
		s.values = append(s.values, secretValue{what, c})
	}
}

// addText adds a text no answer may carry, in any string.
func (s *secrets) addText(what, text string) {
	if strings.TrimSpace(text) != "" {
		s.strings = append(s.strings, secretValue{what, text})
	}
}

// find returns what the first secret found in body is, "" when none is.
// A body that is not JSON is searched as one string.
func (s *secrets) find(body []byte) string {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return s.inString(string(body), 0)
	}
	return s.walk(v, 0)
}

// walk searches a decoded JSON value: every array against the lists,
// every array and object against the values, every string as text (and,
// when it holds JSON, as that JSON).
func (s *secrets) walk(v any, depth int) string {
	if depth > 64 {
		return ""
	}
	switch x := v.(type) {
	case string:
		return s.inString(x, depth)
	case []any:
		for _, l := range s.lists {
			if sameInts(x, l.list) {
				return l.what
			}
		}
		if w := s.sameValue(x); w != "" {
			return w
		}
		for _, c := range x {
			if w := s.walk(c, depth+1); w != "" {
				return w
			}
		}
	case map[string]any:
		if w := s.sameValue(x); w != "" {
			return w
		}
		for _, c := range x {
			if w := s.walk(c, depth+1); w != "" {
				return w
			}
		}
	}
	return ""
}

// inString finds a secret written into a string: a text, a list or value
// spelled as JSON, or a string that is itself a JSON document.
func (s *secrets) inString(str string, depth int) string {
	for _, t := range s.strings {
		if strings.Contains(str, t.canonical) {
			return t.what
		}
	}
	squeezed := strings.Join(strings.Fields(str), "")
	numbers := textInts(str)
	for _, l := range s.lists {
		if strings.Contains(squeezed, compactInts(l.list)) || (len(l.list) >= looseListLength && containsRun(numbers, l.list)) {
			return l.what
		}
	}
	for _, v := range s.values {
		if strings.Contains(squeezed, v.canonical) {
			return v.what
		}
	}
	trimmed := strings.TrimSpace(str)
	if depth < 64 && (strings.HasPrefix(trimmed, "{") || strings.HasPrefix(trimmed, "[")) {
		dec := json.NewDecoder(strings.NewReader(trimmed))
		dec.UseNumber()
		var inner any
		if dec.Decode(&inner) == nil {
			return s.walk(inner, depth+1)
		}
	}
	return ""
}

func (s *secrets) sameValue(v any) string {
	if len(s.values) == 0 {
		return ""
	}
	c, ok := canonical(v)
	if !ok {
		return ""
	}
	for _, sv := range s.values {
		if c == sv.canonical {
			return sv.what
		}
	}
	return ""
}

// canonical writes v as JSON with sorted keys and every number as its
// integer value where it has one, so that 5, 5.0 and 5e0 compare equal.
func canonical(v any) (string, bool) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var plain any
	if dec.Decode(&plain) != nil {
		return "", false
	}
	out, err := json.Marshal(plainNumbers(plain))
	return string(out), err == nil
}

func plainNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, ok := intValue(x); ok {
			return n
		}
		return x
	case []any:
		for i := range x {
			x[i] = plainNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = plainNumbers(x[k])
		}
	}
	return v
}

// intValue reads a JSON number as an integer, if it is one.
func intValue(n json.Number) (int64, bool) {
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return i, true
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

// sameInts reports whether a decoded JSON array holds exactly the integers of l.
func sameInts(a []any, l []int64) bool {
	if len(a) != len(l) {
		return false
	}
	for i, v := range a {
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		if got, ok := intValue(n); !ok || got != l[i] {
			return false
		}
	}
	return true
}

func compactInts(l []int64) string {
	parts := make([]string, len(l))
	for i, v := range l {
		parts[i] = strconv.FormatInt(v, 10)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// looseListLength is the least length of a secret list searched for in a
// text as its bare values, in any spelling ("3 -1 2 9", "3, -1, 2, 9",
// "3;-1;2;9"): a list that long, the values in that order, says the list
// whatever separates them, and a shorter one may be a count and a
// position by chance (FORGE-PRIVATE-SERVER-ONLY; docs/detection.md, forge
// round 8: hidden inputs told in a log line's text passed the search for
// their JSON spelling).
const looseListLength = 4

// textInts are the integers written in a text, in their order; a '-'
// right after a letter or digit is a hyphen, not a sign.
func textInts(str string) []int64 {
	var out []int64
	rs := []rune(str)
	for i := 0; i < len(rs); i++ {
		start := i
		if rs[i] == '-' && i+1 < len(rs) && isDigit(rs[i+1]) && (i == 0 || !isWordRune(rs[i-1])) {
			i++
		} else if !isDigit(rs[i]) || (i > 0 && isWordRune(rs[i-1])) {
			continue
		}
		for i < len(rs) && isDigit(rs[i]) {
			i++
		}
		if n, err := strconv.ParseInt(string(rs[start:i]), 10, 64); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// isWordRune: a letter, digit or '_', which a number written as a value
// does not follow ("v2", "x_3" hold no value).
func isWordRune(r rune) bool {
	return isDigit(r) || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
}

// containsRun reports whether l appears in ns as a run of consecutive values.
func containsRun(ns, l []int64) bool {
	for i := 0; i+len(l) <= len(ns); i++ {
		match := true
		for j, v := range l {
			if ns[i+j] != v {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}
