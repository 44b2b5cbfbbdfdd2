package pow

import (
	"context"
	"crypto/sha256"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// sequential is the definition SearchDecimal must agree with: try 0, 1,
// 2, ... and return the first that meets bits.
func sequential(prefix string, bits int, from uint64) uint64 {
	for n := from; ; n++ {
		sum := sha256.Sum256([]byte(prefix + strconv.FormatUint(n, 10)))
		if HasLeadingZeroBits(sum[:], bits) {
			return n
		}
	}
}

func TestSearchDecimalFindsTheSmallestProofOnAnyWorkerCount(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		prefix := rapid.StringN(0, 80, -1).Draw(t, "prefix")
		bits := rapid.IntRange(0, 14).Draw(t, "bits")
		workers := rapid.IntRange(1, 4).Draw(t, "workers")
		got, err := SearchDecimal(context.Background(), prefix, bits, workers)
		if err != nil {
			t.Fatal(err)
		}
		if want := sequential(prefix, bits, 0); got != want {
			t.Fatalf("SearchDecimal(%q, %d bits, %d workers) = %d, the first proof is %d", prefix, bits, workers, got, want)
		}
	})
}

func TestScanDecimalStaysInItsRange(t *testing.T) {
	want := sequential("range-", 12, 5000)
	if n, ok := ScanDecimal("range-", 12, 5000, want-5000+1, 2); !ok || n != want {
		t.Fatalf("ScanDecimal = %d %v, want %d", n, ok, want)
	}
	if _, ok := ScanDecimal("range-", 12, 5000, want-5000, 2); ok {
		t.Fatal("a range ending just before the first proof found one")
	}
	if _, ok := ScanDecimal("range-", 0, 7, 0, 2); ok {
		t.Fatal("an empty range found a proof")
	}
}

func TestSearchDecimalStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := SearchDecimal(ctx, "c", 256, 2); err == nil {
		t.Fatal("a cancelled search of an impossible target returned")
	}
}

func TestIncrementCarriesAndGrows(t *testing.T) {
	for _, fast := range []bool{true, false} {
		h := newHasher("p")
		h.fast = fast
		for _, start := range []uint64{0, 8, 9, 99, 1299, 999999} {
			h.set(start)
			h.increment(start + 1)
			want := sha256.Sum256([]byte("p" + strconv.FormatUint(start+1, 10)))
			if got := h.try(); string(got[:32]) != string(want[:]) {
				t.Errorf("fast=%v after %d: digest %x, want %x", fast, start, got[:32], want)
			}
		}
	}
}

// TestFastDigestMatchesSum256AtEveryLayout covers prefixes with no whole
// block, with a midstate, and tails that need a second padded block.
func TestFastDigestMatchesSum256AtEveryLayout(t *testing.T) {
	for size := 0; size <= 200; size++ {
		prefix := strings.Repeat("x", size)
		h := newHasher(prefix)
		if !h.fast {
			t.Fatalf("prefix of %d bytes: the fast path refused itself (crypto/sha256's state layout changed?)", size)
		}
		for _, n := range []uint64{0, 7, 4242, 18446744073709551615} {
			h.set(n)
			want := sha256.Sum256([]byte(prefix + strconv.FormatUint(n, 10)))
			if got := h.try(); string(got[:32]) != string(want[:]) {
				t.Fatalf("prefix %d bytes, nonce %d: %x, want %x", size, n, got[:32], want)
			}
		}
	}
}

func TestMeetsAgreesWithHasLeadingZeroBits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var sum [sha256.Size]byte
		copy(sum[:], rapid.SliceOfN(rapid.Byte(), 32, 32).Draw(t, "sum"))
		for i := range rapid.IntRange(0, 31).Draw(t, "zeros") {
			sum[i] = 0
		}
		bits := rapid.IntRange(-1, 257).Draw(t, "bits")
		if got, want := meets(sum[:], bits), HasLeadingZeroBits(sum[:], bits); got != want {
			t.Fatalf("meets(%x, %d) = %v, want %v", sum, bits, got, want)
		}
	})
}
