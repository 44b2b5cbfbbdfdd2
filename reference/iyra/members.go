package iyra

import (
	"encoding/json"
	"strconv"
)

// An action request is decoded by walking the bytes CheckStrictJSON has
// already validated, instead of decoding the body into maps of raw
// messages twice through reflection: a write's decoding was a fifth of
// its cost. The readings are encoding/json's: member names and strings
// are unquoted as it unquotes them (it does so itself for any escape or
// byte past ASCII), and numbers are parsed as it parses a float64.

// member is one name and raw value of a JSON object.
type member struct {
	name string
	raw  []byte
}

// members lists the members of raw, one JSON value that CheckStrictJSON
// accepted, in their order; ok is false when raw is not an object.
func members(raw []byte) (out []member, ok bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	out = make([]member, 0, 4)
	for i = skipSpace(raw, i+1); raw[i] != '}'; i = skipSpace(raw, i+1) {
		end := skipValue(raw, i)
		name, _ := unquote(raw[i:end])
		i = skipSpace(raw, skipSpace(raw, end)+1) // past the colon
		end = skipValue(raw, i)
		out = append(out, member{name: name, raw: raw[i:end]})
		if i = skipSpace(raw, end); raw[i] == '}' {
			break
		}
	}
	return out, true
}

// lookup is the raw value of the member named name.
func lookup(ms []member, name string) ([]byte, bool) {
	for _, m := range ms {
		if m.name == name {
			return m.raw, true
		}
	}
	return nil, false
}

// skipSpace is the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	return i
}

// skipValue is the index just past the valid JSON value starting at i.
func skipValue(raw []byte, i int) int {
	switch raw[i] {
	case '"':
		return skipString(raw, i)
	case '{', '[':
		depth := 0
		for ; ; i++ {
			switch raw[i] {
			case '"':
				i = skipString(raw, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
	}
	for i < len(raw) && !delimiter(raw[i]) {
		i++
	}
	return i
}

// skipString is the index just past the string token starting at i.
func skipString(raw []byte, i int) int {
	for i++; raw[i] != '"'; i++ {
		if raw[i] == '\\' {
			i++
		}
	}
	return i + 1
}

// delimiter reports whether c ends a number or a literal.
func delimiter(c byte) bool {
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// unquote reads a raw JSON value as a string the way json.Unmarshal into
// a string does: null is "", anything but a string is not ok.
func unquote(raw []byte) (string, bool) {
	if n := len(raw); n >= 2 && raw[0] == '"' && plainASCII(raw[1:n-1]) {
		return string(raw[1 : n-1]), true
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// plainASCII reports whether b holds only printable ASCII and no
// backslash: such string bytes are the string itself.
func plainASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= 0x80 || c == '\\' {
			return false
		}
	}
	return true
}

// number parses a raw JSON value as json.Unmarshal into a float64 does;
// a value that is not a number is not ok (null never reaches it).
func number(raw []byte) (float64, bool) {
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return f, err == nil
}
