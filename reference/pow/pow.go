// Package pow holds the proof-of-work predicates the protocols share: Iyra
// counts leading zero hex digits of a SHA-256 digest, the bounty counts
// leading zero bits. One package keeps both definitions (and their
// vectors) in one place for the reference servers that verify and the
// runner that solves.
package pow

import "math/bits"

// LeadingZeroNibbles reports whether the first n hex digits of sum are '0',
// without formatting the digest, so a solver's inner loop stays cheap.
func LeadingZeroNibbles(sum []byte, n int) bool {
	if n < 0 || n > 2*len(sum) {
		return false
	}
	for i := 0; i < n; i++ {
		b := sum[i/2]
		if i%2 == 0 {
			b >>= 4
		}
		if b&0x0f != 0 {
			return false
		}
	}
	return true
}

// LeadingZeroBits counts the leading zero bits of sum, most significant
// bit of the first byte first.
func LeadingZeroBits(sum []byte) int {
	n := 0
	for _, b := range sum {
		if b != 0 {
			return n + bits.LeadingZeros8(b)
		}
		n += 8
	}
	return n
}

// HasLeadingZeroBits reports whether sum starts with at least n zero bits.
// n <= 0 always holds; n beyond the digest's length never does.
func HasLeadingZeroBits(sum []byte, n int) bool {
	if n <= 0 {
		return true
	}
	if n > 8*len(sum) {
		return false
	}
	full, rest := n/8, n%8
	for _, b := range sum[:full] {
		if b != 0 {
			return false
		}
	}
	return rest == 0 || sum[full]>>(8-rest) == 0
}
