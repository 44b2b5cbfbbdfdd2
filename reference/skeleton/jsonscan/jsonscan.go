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
	"encoding/json"
	"fmt"
	"unicode/utf8"
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

// scanner walks one document byte by byte. It reads what
// encoding/json's Decoder.Token would read, in the same order, and
// counts the same things (opening delimiters, keys and scalars; a string
// by its decoded length), so a document gets the code it always got, at
// a tenth of the cost: every reference server scans every JSON body it
// is sent.
type scanner struct {
	raw    []byte
	pos    int
	b      Bounds
	values int
}

// Scan checks that raw is exactly one JSON value within b in which no
// object repeats a key.
func Scan(raw []byte, b Bounds) *Error {
	s := &scanner{raw: raw, b: b.withDefaults()}
	if err := s.value(0); err != nil {
		return err
	}
	if s.skipSpace(); s.pos < len(s.raw) {
		return refuse(CodeInvalidJSON, "the body holds more than one JSON value")
	}
	return nil
}

func invalid() *Error { return refuse(CodeInvalidJSON, "the body is not valid JSON") }

// skipSpace moves past JSON whitespace.
func (s *scanner) skipSpace() {
	for s.pos < len(s.raw) {
		switch s.raw[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek is the next byte past whitespace, 0 at the end (a NUL byte of
// the document reads 0 too: callers that must tell them apart look at pos).
func (s *scanner) peek() byte {
	if s.skipSpace(); s.pos < len(s.raw) {
		return s.raw[s.pos]
	}
	return 0
}

// count counts one token against MaxValues.
func (s *scanner) count() *Error {
	if s.values++; s.values > s.b.MaxValues {
		return refuse(CodeTooMany, "the body holds more than %d values", s.b.MaxValues)
	}
	return nil
}

func (s *scanner) value(depth int) *Error {
	if depth > s.b.MaxDepth {
		return refuse(CodeTooDeep, "the body nests deeper than %d levels", s.b.MaxDepth)
	}
	switch c := s.peek(); {
	case c == '{' || c == '[':
		s.pos++
		if err := s.count(); err != nil {
			return err
		}
		if c == '{' {
			return s.object(depth)
		}
		return s.array(depth)
	case c == '"':
		_, err := s.str()
		return err
	default:
		if !s.scalar() {
			return invalid()
		}
		return s.count()
	}
}

// more reports whether a container goes on (Decoder.More): the next byte
// is neither its closer nor the end.
func (s *scanner) more() bool {
	c := s.peek()
	return s.pos < len(s.raw) && c != ']' && c != '}'
}

// separator reads the comma before every item but the first.
func (s *scanner) separator(n int) *Error {
	if n == 0 {
		return nil
	}
	if s.peek() != ',' {
		return invalid()
	}
	s.pos++
	return nil
}

func (s *scanner) array(depth int) *Error {
	for n := 0; s.more(); n++ {
		if n == s.b.MaxItems {
			return refuse(CodeTooManyItems, "an array of the body holds more than %d items", s.b.MaxItems)
		}
		if err := s.separator(n); err != nil {
			return err
		}
		if err := s.value(depth + 1); err != nil {
			return err
		}
	}
	return s.end(']')
}

func (s *scanner) object(depth int) *Error {
	var seen map[string]bool
	for n := 0; s.more(); n++ {
		if n == s.b.MaxItems {
			return refuse(CodeTooManyItems, "an object of the body holds more than %d members", s.b.MaxItems)
		}
		if err := s.separator(n); err != nil {
			return err
		}
		if s.peek() != '"' {
			return invalid()
		}
		key, err := s.str()
		if err != nil {
			return err
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		if seen[key] {
			return refuse(CodeDuplicateKey, "key %q appears twice in one object", key)
		}
		seen[key] = true
		if s.peek() != ':' {
			return invalid()
		}
		s.pos++
		if err := s.value(depth + 1); err != nil {
			return err
		}
	}
	return s.end('}')
}

// end reads the closing delimiter of an array or object.
func (s *scanner) end(closer byte) *Error {
	if s.peek() != closer {
		return invalid()
	}
	s.pos++
	return nil
}

// str reads a string token at pos and returns it decoded, counted and
// held to MaxString by its decoded length, as Decoder.Token measured it.
func (s *scanner) str() (string, *Error) {
	start := s.pos
	s.pos++
	plain := true // no escape and no byte past ASCII: the bytes are the string
	for {
		if s.pos >= len(s.raw) {
			return "", invalid()
		}
		c := s.raw[s.pos]
		switch {
		case c == '"':
			s.pos++
			return s.decoded(s.raw[start:s.pos], plain)
		case c < 0x20:
			return "", invalid()
		case c == '\\':
			plain = false
			if !s.escape() {
				return "", invalid()
			}
			continue
		case c >= utf8.RuneSelf:
			plain = false
		}
		s.pos++
	}
}

// escape reads one escape sequence at pos.
func (s *scanner) escape() bool {
	if s.pos+1 >= len(s.raw) {
		return false
	}
	switch s.raw[s.pos+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.pos += 2
		return true
	case 'u':
		if s.pos+6 > len(s.raw) {
			return false
		}
		for _, h := range s.raw[s.pos+2 : s.pos+6] {
			if !isHex(h) {
				return false
			}
		}
		s.pos += 6
		return true
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// decoded turns a whole string token into its value (encoding/json's
// reading where it is not plain ASCII), then counts and bounds it.
func (s *scanner) decoded(tok []byte, plain bool) (string, *Error) {
	var v string
	if plain {
		v = string(tok[1 : len(tok)-1])
	} else if json.Unmarshal(tok, &v) != nil {
		return "", invalid()
	}
	if err := s.count(); err != nil {
		return "", err
	}
	if len(v) > s.b.MaxString {
		return "", refuse(CodeTooLong, "a string of the body is longer than %d bytes", s.b.MaxString)
	}
	return v, nil
}

// scalar reads a number, true, false or null at pos.
func (s *scanner) scalar() bool {
	rest := s.raw[s.pos:]
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(rest) >= len(lit) && string(rest[:len(lit)]) == lit {
			s.pos += len(lit)
			return true
		}
	}
	// A scalar ends where its grammar does, as encoding/json reads it:
	// "truex" is true then a malformed token, "00" two numbers.
	return s.number()
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? at pos.
func (s *scanner) number() bool {
	s.accept('-')
	switch {
	case s.accept('0'):
	case s.digits() == 0:
		return false
	}
	if s.accept('.') && s.digits() == 0 {
		return false
	}
	if s.accept('e') || s.accept('E') {
		if !s.accept('+') {
			s.accept('-')
		}
		if s.digits() == 0 {
			return false
		}
	}
	return true
}

func (s *scanner) accept(c byte) bool {
	if s.pos < len(s.raw) && s.raw[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

func (s *scanner) digits() int {
	n := 0
	for s.pos < len(s.raw) && '0' <= s.raw[s.pos] && s.raw[s.pos] <= '9' {
		s.pos++
		n++
	}
	return n
}
