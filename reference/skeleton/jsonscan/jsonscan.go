// Package jsonscan checks a JSON document against the input policy's
// structural bounds while it streams through a decoder, token by token:
// one value, no object repeating a key, and no more nesting, array items,
// string bytes or values than the bounds allow. It stops at the first
// token past a bound, so refusing a document far beyond them costs work
// and memory bounded by the bounds, not by the document (issue 21: a
// 170 000-element array once cost seconds of schema validation before it
// was refused). It is pure (no net/http), so engines use it as servers do
// (reference/skeleton wraps it in the input policy).
package jsonscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Codes of a refused document, machine-readable.
const (
	CodeInvalidJSON  = "invalid_json"
	CodeDuplicateKey = "duplicate_key"
	CodeTooDeep      = "too_deep"
	CodeTooManyItems = "too_many_items"
	CodeTooLong      = "string_too_long"
	CodeTooMany      = "too_many_values"
)

// Bounds limit a document's shape; a zero field is the default below.
type Bounds struct {
	MaxDepth  int // nesting of arrays and objects (default 64)
	MaxItems  int // items of one array or members of one object (default 10 000)
	MaxString int // bytes of one string or key, as written (default 1 MiB)
	MaxValues int // values and keys in the whole document (default 100 000)
}

// withDefaults fills the zero fields.
func (b Bounds) withDefaults() Bounds {
	if b.MaxDepth <= 0 {
		b.MaxDepth = 64
	}
	if b.MaxItems <= 0 {
		b.MaxItems = 10_000
	}
	if b.MaxString <= 0 {
		b.MaxString = 1 << 20
	}
	if b.MaxValues <= 0 {
		b.MaxValues = 100_000
	}
	return b
}

// Error is a refused document: a Code and a Message for people.
type Error struct {
	Code    string
	Message string
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

func refuse(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// scanner is one scan's decoder and what is left of its bounds.
type scanner struct {
	dec    *json.Decoder
	b      Bounds
	values int
}

// Scan checks that raw is exactly one JSON value within b in which no
// object repeats a key.
func Scan(raw []byte, b Bounds) *Error {
	s := &scanner{dec: json.NewDecoder(bytes.NewReader(raw)), b: b.withDefaults()}
	s.dec.UseNumber()
	if err := s.value(0); err != nil {
		return err
	}
	if _, err := s.dec.Token(); err != io.EOF {
		return refuse(CodeInvalidJSON, "the body holds more than one JSON value")
	}
	return nil
}

// token reads the next token and counts it against the bounds.
func (s *scanner) token() (json.Token, *Error) {
	tok, err := s.dec.Token()
	if err != nil {
		return nil, refuse(CodeInvalidJSON, "the body is not valid JSON")
	}
	if s.values++; s.values > s.b.MaxValues {
		return nil, refuse(CodeTooMany, "the body holds more than %d values", s.b.MaxValues)
	}
	if str, ok := tok.(string); ok && len(str) > s.b.MaxString {
		return nil, refuse(CodeTooLong, "a string of the body is longer than %d bytes", s.b.MaxString)
	}
	return tok, nil
}

func (s *scanner) value(depth int) *Error {
	if depth > s.b.MaxDepth {
		return refuse(CodeTooDeep, "the body nests deeper than %d levels", s.b.MaxDepth)
	}
	tok, err := s.token()
	if err != nil {
		return err
	}
	delim, ok := tok.(json.Delim)
	switch {
	case !ok:
		return nil
	case delim == '{':
		return s.object(depth)
	case delim == '[':
		return s.array(depth)
	}
	return refuse(CodeInvalidJSON, "the body is not valid JSON")
}

func (s *scanner) array(depth int) *Error {
	for n := 0; s.dec.More(); n++ {
		if n == s.b.MaxItems {
			return refuse(CodeTooManyItems, "an array of the body holds more than %d items", s.b.MaxItems)
		}
		if err := s.value(depth + 1); err != nil {
			return err
		}
	}
	return s.end()
}

func (s *scanner) object(depth int) *Error {
	seen := map[string]bool{}
	for s.dec.More() {
		if len(seen) == s.b.MaxItems {
			return refuse(CodeTooManyItems, "an object of the body holds more than %d members", s.b.MaxItems)
		}
		tok, err := s.token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if seen[key] {
			return refuse(CodeDuplicateKey, "key %q appears twice in one object", key)
		}
		seen[key] = true
		if err := s.value(depth + 1); err != nil {
			return err
		}
	}
	return s.end()
}

// end reads the closing delimiter of an array or object.
func (s *scanner) end() *Error {
	if _, err := s.dec.Token(); err != nil {
		return refuse(CodeInvalidJSON, "the body is not valid JSON")
	}
	return nil
}
