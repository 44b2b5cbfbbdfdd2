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

// TestReplaceLiteralsEqualsThePlainLoop: with the literal index on (many
// literals, short and long texts), including literals that overlap, nest, sit
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
		for range minIndexedLiterals + rng.IntN(20) {
			lits = insertLongestFirst(lits, word(1+rng.IntN(24)))
		}
		text := word(rng.IntN(600))
		for range rng.IntN(4) {
			lit := lits[rng.IntN(len(lits))]
			at := rng.IntN(len(text) + 1)
			text = text[:at] + lit + text[at:]
		}
		idx := &literalIndex{}
		for _, l := range lits {
			idx.add(l)
		}
		if got, want := replaceLiterals(text, lits, idx), plainReplace(text, lits); got != want {
			t.Fatalf("literals %q in %q:\ngot  %q\nwant %q", lits, text, got, want)
		}
	}
}
