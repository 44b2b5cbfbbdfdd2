package driver

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// plainReplace is the per-literal loop replaceLiterals must equal.
func plainReplace(text string, literals []string) string {
	for _, v := range literals {
		if strings.Contains(text, v) {
			text = strings.ReplaceAll(text, v, Redacted)
		}
	}
	return text
}

// TestReplaceLiteralsEqualsThePlainLoop: with the gram filter on (many
// literals, long texts), including literals that overlap, nest, sit
// across each other or spell part of the marker, the result is the plain
// loop's.
func TestReplaceLiteralsEqualsThePlainLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := "abcREDACT[]_x"
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 2000 {
		var lits []string
		for range minFilteredLiterals + rng.IntN(20) {
			lits = insertLongestFirst(lits, word(1+rng.IntN(9)))
		}
		text := word(minFilteredText + rng.IntN(400))
		for range rng.IntN(4) {
			lit := lits[rng.IntN(len(lits))]
			at := rng.IntN(len(text))
			text = text[:at] + lit + text[at:]
		}
		if got, want := replaceLiterals(text, lits), plainReplace(text, lits); got != want {
			t.Fatalf("literals %q in %q:\ngot  %q\nwant %q", lits, text, got, want)
		}
	}
}
