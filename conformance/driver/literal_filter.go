package driver

import "strings"

// gramBits sizes gramFilter's bit set: 2^16 bits, 8 KiB.
const gramBits = 16

// minFiltered are the counts below which gramFilter costs more than it
// saves: with few literals or a short text a plain strings.Contains per
// literal is cheaper than indexing the text first.
const (
	minFilteredLiterals = 16
	minFilteredText     = 256
)

// gramFilter is a bit set of the 4-byte windows of a text, hashed, so a
// literal whose first four bytes are no window of the text is known absent
// without scanning the text for it. A set bit only says "maybe"; a clear
// bit is certain, so the filter never hides a literal that is there.
type gramFilter struct{ bits [1 << gramBits / 64]uint64 }

// gramHash maps four bytes to a bit of the set.
func gramHash(s string) uint32 {
	x := uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
	return (x * 2654435761) >> (32 - gramBits)
}

// newGramFilter indexes every 4-byte window of text.
func newGramFilter(text string) *gramFilter {
	f := &gramFilter{}
	for i := 0; i+4 <= len(text); i++ {
		h := gramHash(text[i : i+4])
		f.bits[h/64] |= 1 << (h % 64)
	}
	return f
}

// mayContain is false only when lit cannot occur in the indexed text.
func (f *gramFilter) mayContain(lit string) bool {
	if len(lit) < 4 {
		return true
	}
	h := gramHash(lit)
	return f.bits[h/64]&(1<<(h%64)) != 0
}

// replaceLiterals replaces every literal in text, longest first, as a
// strings.ReplaceAll per literal would. A text long enough, checked against
// many literals, is indexed once (gramFilter) so most literals are ruled
// out without a scan; once a replacement changed the text the index is
// stale and the remaining literals are scanned for plainly.
func replaceLiterals(text string, literals []string) string {
	var filter *gramFilter
	if len(literals) >= minFilteredLiterals && len(text) >= minFilteredText {
		filter = newGramFilter(text)
	}
	for _, v := range literals {
		if filter != nil && !filter.mayContain(v) {
			continue
		}
		if strings.Contains(text, v) {
			text = strings.ReplaceAll(text, v, Redacted)
			filter = nil
		}
	}
	return text
}
