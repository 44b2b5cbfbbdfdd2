package iyra

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/agentgames/conformance/reference/iyra/proof"
)

// TestQualifyingSpellingsMeetTheHexReading checks the raw-byte search
// against the contract's reading of a digest (proof.Meets on its hex): the
// spelling found meets the difficulty, misses the bound below, and is the
// first n that does.
func TestQualifyingSpellingsMeetTheHexReading(t *testing.T) {
	const challenge, difficulty, below = "kit-challenge", 2, 3
	spell := spellings["leading-zero"]
	got, err := qualifying(context.Background(), challenge, difficulty, spell, below)
	if err != nil {
		t.Fatal(err)
	}
	meets := func(s string, d int) bool {
		sum := sha256.Sum256([]byte(challenge + s))
		return proof.Meets(hex.EncodeToString(sum[:]), d)
	}
	if !meets(got, difficulty) || meets(got, below) {
		t.Fatalf("%q: meets %d %v, meets %d %v", got, difficulty, meets(got, difficulty), below, meets(got, below))
	}
	for n := uint64(1); spell(n) != got; n++ {
		if s := spell(n); meets(s, difficulty) && !meets(s, below) {
			t.Fatalf("%q qualifies before %q", s, got)
		}
	}
}
