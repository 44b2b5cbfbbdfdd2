package server

import (
	"bytes"
	"net/http"
	"unicode/utf8"

	"github.com/agentgames/conformance/reference/skeleton"
)

// actionBody is an action request: {action, arg}, both optional strings.
type actionBody struct {
	Action *string `json:"action"`
	Arg    *string `json:"arg"`
}

// readActionBody reads an action request under the input policy, as
// decodeBody does (PP-ERR-400, PP-INPUT-POLICY). The body every client
// sends, an object of plain strings named exactly action and arg, is read
// by a direct scan instead of a reflecting decoder (a seventh of a look's
// cost); any other body (escapes, other names or spellings, repeated
// keys, other types, malformed JSON) goes through decodeBody's own
// decoding, so every reading and refusal stays the policy's.
func readActionBody(r *http.Request) (actionBody, *skeleton.InputError) {
	raw, err := skeleton.ReadBody(r, maxBody)
	if err != nil {
		return actionBody{}, err
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}")
	}
	if body, ok := plainActionBody(raw); ok {
		return body, nil
	}
	var body actionBody
	return body, skeleton.DecodeStrict(raw, &body)
}

// plainActionBody reads raw when it is one object whose members are
// action and arg at most once each, with plain strings or null; ok is
// false for anything else.
func plainActionBody(raw []byte) (body actionBody, ok bool) {
	p := plainScan{raw: raw}
	if !p.byte('{') {
		return body, false
	}
	for n := 0; !p.byte('}'); n++ {
		if n > 0 && !p.byte(',') {
			return body, false
		}
		name, ok := p.str()
		if !ok || !p.byte(':') {
			return body, false
		}
		var field **string
		switch name {
		case "action":
			field = &body.Action
		case "arg":
			field = &body.Arg
		default:
			return body, false
		}
		if *field != nil || p.null() {
			return body, false // repeated, or null (left to the decoder)
		}
		v, ok := p.str()
		if !ok {
			return body, false
		}
		*field = &v
	}
	p.space()
	return body, p.pos == len(raw)
}

// plainScan reads the few tokens plainActionBody accepts.
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

// null reports whether null comes next (and does not read it).
func (p *plainScan) null() bool {
	p.space()
	return bytes.HasPrefix(p.raw[p.pos:], []byte("null"))
}

// str reads a string with no escape and no control character, of valid
// UTF-8: its bytes are the string.
func (p *plainScan) str() (string, bool) {
	if !p.byte('"') {
		return "", false
	}
	start := p.pos
	for p.pos < len(p.raw) {
		switch c := p.raw[p.pos]; {
		case c == '"':
			s := p.raw[start:p.pos]
			p.pos++
			return string(s), utf8.Valid(s)
		case c < 0x20 || c == '\\':
			return "", false
		}
		p.pos++
	}
	return "", false
}
