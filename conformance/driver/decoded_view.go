package driver

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// decoded is the view of a text redaction searches: every escape undone
// (JSON's `\uXXXX` with surrogate pairs, `\/`, `\"`, `\\`, `\b`, `\f`,
// `\n`, `\r`, `\t`; Go's `\xHH`; percent-encoding; HTML character
// references), up to maxDecodeRounds times so a doubly escaped key is
// found too, and then every invisible character dropped (whitespace,
// control and format characters), so a key a target splits with `\n`, a
// space or a zero-width space inside a JSON string is still the key.
// plain[i] came from the original bytes from[i] to to[i] (when tracked).
type decoded struct {
	plain    []byte
	from, to []int
}

// maxDecodeRounds bounds how many layers of escaping are undone.
const maxDecodeRounds = 3

// needsView reports whether the view of text can differ from text: it
// holds an escape or an invisible character. Without one, the literal
// replacement on the text itself already found everything.
func needsView(text string) bool {
	for i := 0; i < len(text); {
		c := text[i]
		if c > ' ' && c < 0x7f {
			if c == '\\' || c == '%' || c == '&' {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if invisible(r) {
			return true
		}
		i += n
	}
	return false
}

// invisible reports whether r is dropped from the view: it separates the
// parts of a split key without being part of it.
func invisible(r rune) bool {
	return r < 0x20 || r == 0x7f || unicode.IsSpace(r) || unicode.Is(unicode.Cf, r)
}

// decodeView returns the view of text; track records where each byte of
// it came from (needed only to replace what was found).
func decodeView(text string, track bool) decoded {
	d := decodeRound(text, nil, nil, track)
	for round := 1; round < maxDecodeRounds && needsDecode(d.plain); round++ {
		d = decodeRound(string(d.plain), d.from, d.to, track)
	}
	return squeeze(d, track)
}

// needsDecode reports whether b may hold one more layer of escapes.
func needsDecode(b []byte) bool {
	for _, c := range b {
		if c == '\\' || c == '%' || c == '&' {
			return true
		}
	}
	return false
}

// decodeRound undoes one layer of escapes in text, whose bytes came from
// the original spans from/to (nil: text is the original).
func decodeRound(text string, from, to []int, track bool) decoded {
	d := decoded{plain: make([]byte, 0, len(text))}
	if track {
		d.from, d.to = make([]int, 0, len(text)), make([]int, 0, len(text))
	}
	for i := 0; i < len(text); {
		before := len(d.plain)
		var n int
		d.plain, n = appendUnescaped(d.plain, text, i)
		if track {
			start, end := i, i+n
			if from != nil {
				start, end = from[i], to[i+n-1]
			}
			for range len(d.plain) - before {
				d.from, d.to = append(d.from, start), append(d.to, end)
			}
		}
		i += n
	}
	return d
}

// squeeze drops the invisible characters of d's view.
func squeeze(d decoded, track bool) decoded {
	out := decoded{plain: make([]byte, 0, len(d.plain))}
	if track {
		out.from, out.to = make([]int, 0, len(d.plain)), make([]int, 0, len(d.plain))
	}
	kept := 0 // d.plain[kept:i] is visible and not yet copied
	flush := func(i int) {
		out.plain = append(out.plain, d.plain[kept:i]...)
		if track {
			out.from, out.to = append(out.from, d.from[kept:i]...), append(out.to, d.to[kept:i]...)
		}
	}
	for i := 0; i < len(d.plain); {
		if c := d.plain[i]; c > ' ' && c < 0x7f {
			i++ // printable ASCII is never invisible: no rune decoding
			continue
		}
		r, n := utf8.DecodeRune(d.plain[i:])
		if invisible(r) {
			flush(i)
			kept = i + n
		}
		i += n
	}
	flush(len(d.plain))
	return out
}

// squeezeString drops the invisible characters of s, as the view does.
func squeezeString(s string) string {
	return strings.Map(func(r rune) rune {
		if invisible(r) {
			return -1
		}
		return r
	}, s)
}

// appendUnescaped appends the decoding of the one unit starting at
// text[i] (an escape, or else the byte itself) and returns the unit's
// length.
func appendUnescaped(dst []byte, text string, i int) ([]byte, int) {
	switch text[i] {
	case '%':
		if v, ok := hexAt(text, i+1, 2); ok {
			return append(dst, byte(v)), 3
		}
	case '\\':
		if out, n := appendBackslash(dst, text, i); n > 0 {
			return out, n
		}
	case '&':
		if out, n := appendReference(dst, text, i); n > 0 {
			return out, n
		}
	}
	return append(dst, text[i]), 1
}

// backslashEscapes are the one-letter escapes of JSON (and Go) strings.
var backslashEscapes = map[byte]byte{'/': '/', '"': '"', '\\': '\\', '\'': '\'',
	'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// appendBackslash decodes a backslash escape at text[i]; n is 0 when
// there is none.
func appendBackslash(dst []byte, text string, i int) ([]byte, int) {
	if i+1 >= len(text) {
		return dst, 0
	}
	if c, ok := backslashEscapes[text[i+1]]; ok {
		return append(dst, c), 2
	}
	switch text[i+1] {
	case 'u':
		return appendUnicodeEscape(dst, text, i)
	case 'x':
		if v, ok := hexAt(text, i+2, 2); ok {
			return append(dst, byte(v)), 4
		}
	}
	return dst, 0
}

// appendUnicodeEscape decodes \uXXXX at text[i], joining a surrogate pair.
func appendUnicodeEscape(dst []byte, text string, i int) ([]byte, int) {
	v, ok := hexAt(text, i+2, 4)
	if !ok {
		return dst, 0
	}
	r, n := rune(v), 6
	if utf16.IsSurrogate(r) && strings.HasPrefix(text[i+6:], `\u`) {
		if lo, ok := hexAt(text, i+8, 4); ok {
			r, n = utf16.DecodeRune(r, rune(lo)), 12
		}
	}
	return utf8.AppendRune(dst, r), n
}

// namedReferences are the HTML character references an encoder of JSON
// or HTML writes for the characters it escapes.
var namedReferences = map[string]rune{"amp": '&', "lt": '<', "gt": '>', "quot": '"', "apos": '\'', "sol": '/', "plus": '+', "nbsp": 0xa0}

// appendReference decodes an HTML character reference (`&#97;`,
// `&#x61;`, `&amp;`) at text[i]; n is 0 when there is none.
func appendReference(dst []byte, text string, i int) ([]byte, int) {
	end := strings.IndexByte(text[i:min(len(text), i+12)], ';')
	if end < 2 {
		return dst, 0
	}
	name := text[i+1 : i+end]
	if r, ok := namedReferences[name]; ok {
		return utf8.AppendRune(dst, r), end + 1
	}
	if name[0] != '#' || len(name) < 2 {
		return dst, 0
	}
	base, digits := 10, name[1:]
	if digits[0] == 'x' || digits[0] == 'X' {
		base, digits = 16, digits[1:]
	}
	v, err := strconv.ParseUint(digits, base, 32)
	if err != nil || v > unicode.MaxRune {
		return dst, 0
	}
	return utf8.AppendRune(dst, rune(v)), end + 1
}

// hexAt parses n hex digits (either case) at text[i].
func hexAt(text string, i, n int) (uint64, bool) {
	if i+n > len(text) {
		return 0, false
	}
	for _, c := range []byte(text[i : i+n]) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return 0, false
		}
	}
	v, err := strconv.ParseUint(text[i:i+n], 16, 32)
	return v, err == nil
}

// spans returns the original byte ranges where any of needles occurs in
// d's view, merged and in order.
func (d decoded) spans(needles []string) [][2]int {
	hidden := make([]bool, len(d.plain)+1)
	plain := string(d.plain)
	for _, n := range needles {
		for at := 0; ; {
			k := strings.Index(plain[at:], n)
			if k < 0 {
				break
			}
			for j := at + k; j < at+k+len(n); j++ {
				hidden[j] = true
			}
			at += k + 1
		}
	}
	var out [][2]int
	for i := 0; i < len(d.plain); i++ {
		if !hidden[i] {
			continue
		}
		start := d.from[i]
		for i+1 < len(d.plain) && hidden[i+1] {
			i++
		}
		if n := len(out); n > 0 && out[n-1][1] >= start {
			out[n-1][1] = max(out[n-1][1], d.to[i])
			continue
		}
		out = append(out, [2]int{start, d.to[i]})
	}
	return out
}

// replaceSpans replaces each span of text with repl.
func replaceSpans(text string, spans [][2]int, repl string) string {
	var b strings.Builder
	last := 0
	for _, s := range spans {
		b.WriteString(text[last:s[0]])
		b.WriteString(repl)
		last = s[1]
	}
	b.WriteString(text[last:])
	return b.String()
}
