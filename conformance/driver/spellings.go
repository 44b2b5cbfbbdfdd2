package driver

import (
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A secret can reach a transcript in other spellings than the one it was
// learned in: a target may JSON-escape it (`\/`, or `\u0061` for any
// character, in either case of hex), a URL may percent-encode it (`%2F`,
// `%2f`, `+` for a space), and HTTP Basic carries it in base64 after
// `user:`. Redaction therefore searches a decoded view of the text in which
// every escape is undone, and hides the original bytes each match came
// from; base64Fragments gives the base64 text any `prefix + secret +
// suffix` must contain.

// decoded is text with its escapes undone: plain[i] came from the original
// bytes from[i] to to[i].
type decoded struct {
	plain    []byte
	from, to []int
}

// mayBeEscaped reports whether text holds anything decodeEscapes would
// change.
func mayBeEscaped(text string) bool { return strings.ContainsAny(text, `\%`) }

// decodeEscapes undoes JSON string escapes (\uXXXX with surrogate pairs,
// \/, \", \\) and percent-encoding (%XX) wherever they appear, keeping for
// every decoded byte the span of the original it came from.
func decodeEscapes(text string) decoded {
	d := decoded{plain: make([]byte, 0, len(text)), from: make([]int, 0, len(text)), to: make([]int, 0, len(text))}
	for i := 0; i < len(text); {
		if c := text[i]; c != '%' && c != '\\' {
			d.plain, d.from, d.to = append(d.plain, c), append(d.from, i), append(d.to, i+1)
			i++
			continue
		}
		b, n := unescapeAt(text, i)
		for _, c := range b {
			d.plain, d.from, d.to = append(d.plain, c), append(d.from, i), append(d.to, i+n)
		}
		i += n
	}
	return d
}

// unescapeAt decodes the one unit starting at text[i]: an escape, or else
// the byte itself. It returns the decoded bytes and the unit's length.
func unescapeAt(text string, i int) ([]byte, int) {
	switch text[i] {
	case '%':
		if v, ok := hexAt(text, i+1, 2); ok {
			return []byte{byte(v)}, 3
		}
	case '\\':
		if i+1 < len(text) {
			switch text[i+1] {
			case '/', '"', '\\':
				return []byte{text[i+1]}, 2
			case 'u':
				return unicodeEscapeAt(text, i)
			}
		}
	}
	return []byte{text[i]}, 1
}

// unicodeEscapeAt decodes \uXXXX at text[i], joining a surrogate pair.
func unicodeEscapeAt(text string, i int) ([]byte, int) {
	v, ok := hexAt(text, i+2, 4)
	if !ok {
		return []byte{text[i]}, 1
	}
	r, n := rune(v), 6
	if utf16.IsSurrogate(r) && strings.HasPrefix(text[i+6:], `\u`) {
		if lo, ok := hexAt(text, i+8, 4); ok {
			r, n = utf16.DecodeRune(r, rune(lo)), 12
		}
	}
	return utf8.AppendRune(nil, r), n
}

// hexAt parses n hex digits (either case) at text[i].
func hexAt(text string, i, n int) (uint64, bool) {
	if i+n > len(text) {
		return 0, false
	}
	v, err := strconv.ParseUint(text[i:i+n], 16, 32)
	return v, err == nil
}

// spans returns the original byte ranges where any of needles occurs in
// d's decoded view, merged and in order.
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
			out[n-1][1] = d.to[i]
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

// formSpellings returns v with its spaces written as `+`, as form
// encoding does, when v has any.
func formSpellings(v string) []string {
	if !strings.Contains(v, " ") {
		return nil
	}
	return []string{strings.ReplaceAll(v, " ", "+")}
}

// base64Fragments returns, for each of the three alignments a secret can
// have after an unknown prefix (such as `user:` in HTTP Basic), the base64
// characters that depend on the secret's bytes alone, in the standard and
// the URL alphabet. Any base64 text of prefix+secret+suffix holds one of
// them.
func base64Fragments(secret string) []string {
	var out []string
	for k := 0; k < 3; k++ {
		enc := base64.RawStdEncoding.EncodeToString(append(make([]byte, k), secret...))
		start := (k*8 + 5) / 6           // characters touched by the prefix
		end := (k + len(secret)) * 8 / 6 // characters made only of known bits
		if end-start < 8 {
			continue
		}
		frag := enc[start:end]
		out = append(out, frag)
		if url := strings.NewReplacer("+", "-", "/", "_").Replace(frag); url != frag {
			out = append(out, url)
		}
	}
	return out
}
