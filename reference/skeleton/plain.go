package skeleton

import (
	"bytes"
	"unicode/utf8"
)

// Most request bodies are one flat object of plain strings and booleans
// ({"action":"look"}, {"ready_to_act":true,...}). PlainObject reads such a
// body with a direct scan, so a server can skip its reflecting decoder
// for it and keep DecodeStrict for every other body: a body PlainObject
// reads is valid JSON, one object, no key repeated, and every value is
// what encoding/json reads (TestPlainObjectReadsAsEncodingJSON).

// PlainKind is the kind of a plain member's value.
type PlainKind int

// The plain values.
const (
	PlainString PlainKind = iota
	PlainTrue
	PlainFalse
	PlainNull
)

// PlainMember is one member of a plain object: its name, its kind and,
// for a string, the string.
type PlainMember struct {
	Name string
	Kind PlainKind
	Str  string
}

// PlainObject reads raw as one JSON object whose names and strings hold
// no escape, no control character and only valid UTF-8, whose values are
// such strings, true, false or null, and in which no name repeats; ok is
// false for any other body (the caller decodes it the full way).
func PlainObject(raw []byte) (ms []PlainMember, ok bool) {
	p := plainScan{raw: raw}
	if !p.byte('{') {
		return nil, false
	}
	ms = make([]PlainMember, 0, 4)
	for n := 0; !p.byte('}'); n++ {
		if n > 0 && !p.byte(',') {
			return nil, false
		}
		name, ok := p.str()
		if !ok || !p.byte(':') || repeated(ms, name) {
			return nil, false
		}
		m, ok := p.value(name)
		if !ok {
			return nil, false
		}
		ms = append(ms, m)
	}
	p.space()
	return ms, p.pos == len(raw)
}

// repeated reports whether ms already holds a member named name.
func repeated(ms []PlainMember, name string) bool {
	for _, m := range ms {
		if m.Name == name {
			return true
		}
	}
	return false
}

// plainScan reads the few tokens PlainObject accepts.
type plainScan struct {
	raw []byte
	pos int
}

// space skips JSON whitespace.
func (p *plainScan) space() {
	for p.pos < len(p.raw) && (p.raw[p.pos] == ' ' || p.raw[p.pos] == '\t' || p.raw[p.pos] == '\n' || p.raw[p.pos] == '\r') {
		p.pos++
	}
}

// byte reads c after whitespace.
func (p *plainScan) byte(c byte) bool {
	p.space()
	if p.pos < len(p.raw) && p.raw[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// value reads a plain value for the member named name.
func (p *plainScan) value(name string) (PlainMember, bool) {
	p.space()
	for _, lit := range []struct {
		text string
		kind PlainKind
	}{{"true", PlainTrue}, {"false", PlainFalse}, {"null", PlainNull}} {
		if bytes.HasPrefix(p.raw[p.pos:], []byte(lit.text)) {
			p.pos += len(lit.text)
			return PlainMember{Name: name, Kind: lit.kind}, true
		}
	}
	s, ok := p.str()
	return PlainMember{Name: name, Kind: PlainString, Str: s}, ok
}

// str reads a string with no escape and no control character, of valid
// UTF-8: its bytes are the string.
func (p *plainScan) str() (string, bool) {
	if !p.byte('"') {
		return "", false
	}
	start := p.pos
	for ; p.pos < len(p.raw); p.pos++ {
		switch c := p.raw[p.pos]; {
		case c == '"':
			s := p.raw[start:p.pos]
			p.pos++
			return string(s), utf8.Valid(s)
		case c < 0x20 || c == '\\':
			return "", false
		}
	}
	return "", false
}
