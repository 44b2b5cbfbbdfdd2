package spec

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ContainsToken reports whether quote stands in s on token boundaries: a
// quote that begins (ends) with a letter or digit must not continue a
// word or number of s there. So "40" stands in "within 40 s" but not in
// "409", and "key" not in "keys"; a quote that begins or ends with
// punctuation or space is matched as it is. An empty quote stands
// anywhere.
func ContainsToken(s, quote string) bool {
	if quote == "" {
		return true
	}
	for from := 0; from <= len(s)-len(quote); {
		i := strings.Index(s[from:], quote)
		if i < 0 {
			return false
		}
		at := from + i
		if boundaryBefore(s, at, quote) && boundaryAfter(s, at+len(quote), quote) {
			return true
		}
		_, size := utf8.DecodeRuneInString(s[at:])
		from = at + size
	}
	return false
}

// boundaryBefore reports whether the quote placed at s[at:] does not
// continue a token of s that ends just before it.
func boundaryBefore(s string, at int, quote string) bool {
	first, _ := utf8.DecodeRuneInString(quote)
	if !wordRune(first) || at == 0 {
		return true
	}
	prev, _ := utf8.DecodeLastRuneInString(s[:at])
	return !wordRune(prev)
}

// boundaryAfter reports whether the quote ending at s[:end] is not
// continued by a token of s that starts right after it.
func boundaryAfter(s string, end int, quote string) bool {
	last, _ := utf8.DecodeLastRuneInString(quote)
	if !wordRune(last) || end == len(s) {
		return true
	}
	next, _ := utf8.DecodeRuneInString(s[end:])
	return !wordRune(next)
}

// wordRune is a rune that makes up words and numbers. Han, kana and other
// scripts written without spaces are not word runes here: a Japanese
// quote stands inside a longer sentence, as its source writes it.
func wordRune(r rune) bool {
	if r == '_' {
		return true
	}
	if r < utf8.RuneSelf {
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) {
		return false
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}
