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
		return s.str()
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
	var keys keySet
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
		key, err := s.key()
		if err != nil {
			return err
		}
		if !keys.add(key) {
			return refuse(CodeDuplicateKey, "key %q appears twice in one object", key)
		}
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

// keySet is the keys one object has shown: the first few in a fixed
// array compared one by one (a request object has a handful, and a map
// per object was most of a small body's allocations), the rest in a map.
type keySet struct {
	few  [8][]byte
	n    int
	more map[string]bool
}

// add records k and reports whether it is new.
func (ks *keySet) add(k []byte) bool {
	for _, seen := range ks.few[:ks.n] {
		if string(seen) == string(k) {
			return false
		}
	}
	if ks.n < len(ks.few) {
		ks.few[ks.n], ks.n = k, ks.n+1
		return true
	}
	if ks.more[string(k)] {
		return false
	}
	if ks.more == nil {
		ks.more = map[string]bool{}
	}
	ks.more[string(k)] = true
	return true
}

// end reads the closing delimiter of an array or object.
func (s *scanner) end(closer byte) *Error {
	if s.peek() != closer {
		return invalid()
	}
	s.pos++
	return nil
}

// token reads a string token at pos: its bytes, quotes included, and
// whether they are the string itself (no escape, no byte past ASCII).
func (s *scanner) token() ([]byte, bool, *Error) {
	start := s.pos
	s.pos++
	plain := true
	for {
		if s.pos >= len(s.raw) {
			return nil, false, invalid()
		}
		c := s.raw[s.pos]
		switch {
		case c == '"':
			s.pos++
			return s.raw[start:s.pos], plain, nil
		case c < 0x20:
			return nil, false, invalid()
		case c == '\\':
			plain = false
			if !s.escape() {
				return nil, false, invalid()
			}
			continue
		case c >= utf8.RuneSelf:
			plain = false
		}
		s.pos++
	}
}

// str reads a string value at pos, counted and held to MaxString by its
// decoded length, as Decoder.Token measured it. A plain string's length
// is its bytes': only a string with escapes or bytes past ASCII is
// decoded (a value is never kept, so a plain one costs no allocation).
func (s *scanner) str() *Error {
	tok, plain, err := s.token()
	if err != nil {
		return err
	}
	n := len(tok) - 2
	if !plain {
		var v string
		if json.Unmarshal(tok, &v) != nil {
			return invalid()
		}
		n = len(v)
	}
	return s.bound(n)
}

// key reads an object key at pos as str reads a value, and returns it
// decoded: a plain key is its own bytes, with no copy.
func (s *scanner) key() ([]byte, *Error) {
	tok, plain, err := s.token()
	if err != nil {
		return nil, err
	}
	k := tok[1 : len(tok)-1]
	if !plain {
		var v string
		if json.Unmarshal(tok, &v) != nil {
			return nil, invalid()
		}
		k = []byte(v)
	}
	return k, s.bound(len(k))
}

// bound counts one string of n decoded bytes and holds it to MaxString.
func (s *scanner) bound(n int) *Error {
	if err := s.count(); err != nil {
		return err
	}
	if n > s.b.MaxString {
		return refuse(CodeTooLong, "a string of the body is longer than %d bytes", s.b.MaxString)
	}
	return nil
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
