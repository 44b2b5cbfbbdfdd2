package driver

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf16"
)

// A secret can reach a transcript in other spellings than the one it was
// learned in: a target may JSON-escape it (`\/`, or `\u0061` for any
// character, in either case of hex), a URL may percent-encode it (`%2F`,
// `%2f`, `+` for a space), and HTTP Basic carries it in base64 after
// `user:`. spellingPattern matches every mix of these spellings of one
// secret; base64Fragments gives the base64 text any `prefix + secret +
// suffix` must contain.

// spellingPattern returns a regular expression source matching secret in
// every JSON-escaped and percent-encoded spelling, character by character.
func spellingPattern(secret string) string {
	var b strings.Builder
	for _, r := range secret {
		b.WriteString("(?:")
		b.WriteString(strings.Join(runeSpellings(r), "|"))
		b.WriteString(")")
	}
	return b.String()
}

// runeSpellings lists the regular expressions of the ways one character can
// be written in a JSON string or a URL.
func runeSpellings(r rune) []string {
	alts := []string{regexp.QuoteMeta(string(r)), jsonEscape(r)}
	switch r {
	case '/':
		alts = append(alts, `\\/`)
	case '"':
		alts = append(alts, `\\"`)
	case '\\':
		alts = append(alts, `\\\\`)
	case ' ':
		alts = append(alts, `\+`)
	}
	var pct strings.Builder
	for _, c := range []byte(string(r)) {
		pct.WriteString("%" + anyCaseHex(fmt.Sprintf("%02x", c)))
	}
	return append(alts, pct.String())
}

// jsonEscape matches the \uXXXX escape of r (a surrogate pair above the
// basic plane), in upper or lower case hex.
func jsonEscape(r rune) string {
	units := []rune{r}
	if r > 0xFFFF {
		hi, lo := utf16.EncodeRune(r)
		units = []rune{hi, lo}
	}
	var b strings.Builder
	for _, u := range units {
		b.WriteString(`\\u` + anyCaseHex(fmt.Sprintf("%04x", u)))
	}
	return b.String()
}

// anyCaseHex turns lower-case hex digits into a pattern accepting both cases.
func anyCaseHex(hex string) string {
	var b strings.Builder
	for _, c := range hex {
		if c >= 'a' && c <= 'f' {
			fmt.Fprintf(&b, "[%c%c]", c, c-'a'+'A')
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
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
