package pow

import (
	"testing"

	"pgregory.net/rapid"
)

func TestLeadingZeroBits(t *testing.T) {
	cases := []struct {
		sum  []byte
		want int
		why  string
	}{
		{[]byte{0x80, 0}, 0, "top bit set"},
		{[]byte{0x01, 0xff}, 7, "seven zero bits then a one"},
		{[]byte{0x00, 0x10}, 11, "a whole zero byte counts eight"},
		{[]byte{0, 0}, 16, "all zero"},
		{nil, 0, "empty digest"},
	}
	for _, c := range cases {
		if got := LeadingZeroBits(c.sum); got != c.want {
			t.Errorf("%s: LeadingZeroBits(%x) = %d, want %d", c.why, c.sum, got, c.want)
		}
	}
}

func TestHasLeadingZeroBitsAgreesWithCount(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sum := rapid.SliceOfN(rapid.Byte(), 1, 8).Draw(t, "sum")
		n := rapid.IntRange(-2, 70).Draw(t, "n")
		want := n <= 0 || (n <= 8*len(sum) && LeadingZeroBits(sum) >= n)
		if got := HasLeadingZeroBits(sum, n); got != want {
			t.Fatalf("HasLeadingZeroBits(%x, %d) = %v, want %v", sum, n, got, want)
		}
	})
}

func TestLeadingZeroNibbles(t *testing.T) {
	cases := []struct {
		sum  []byte
		n    int
		want bool
		why  string
	}{
		{[]byte{0x00, 0x0f}, 3, true, "three zero hex digits"},
		{[]byte{0x00, 0x0f}, 4, false, "the fourth digit is f"},
		{[]byte{0x0f}, 1, true, "high nibble zero"},
		{[]byte{0xf0}, 1, false, "high nibble set"},
		{[]byte{0x00}, 3, false, "more digits than the digest has"},
		{[]byte{0x00}, -1, false, "negative difficulty"},
	}
	for _, c := range cases {
		if got := LeadingZeroNibbles(c.sum, c.n); got != c.want {
			t.Errorf("%s: LeadingZeroNibbles(%x, %d) = %v, want %v", c.why, c.sum, c.n, got, c.want)
		}
	}
}
