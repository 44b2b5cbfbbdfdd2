package driver

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// A secret can reach a transcript in other spellings than the one it was
// learned in: a target may JSON-escape it (`\/`, or `\u0061` for any
// character, in either case of hex), split it with an escape that decodes
// to a line break (`\n`), a URL may percent-encode it (`%2F`, `%2f`, `+`
// for a space), HTTP Basic carries it in base64 after `user:`, and a
// digest prints it in hex. Redaction therefore searches a decoded view of
// the text (decoded_view.go) in which every escape is undone and every
// invisible character dropped, and hides the original bytes each match
// came from; base64Fragments gives the base64 text any `prefix + secret +
// suffix` must contain, hexSpellings its hex.

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

// hexSpellings returns v in lower- and upper-case hex, the spelling a
// target that prints bytes (a debug dump, a digest field) would choose.
func hexSpellings(v string) []string {
	lower := hex.EncodeToString([]byte(v))
	return []string{lower, strings.ToUpper(lower)}
}
