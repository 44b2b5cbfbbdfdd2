package driver

import "strings"

// minIndexedLiterals is the count below which the literal index is not
// worth consulting: against a few literals a plain strings.Contains each is
// as cheap.
const minIndexedLiterals = 8

// literalIndex finds which of many literals occur in a text in one pass
// over the text, whatever their number. A run registers every key it meets
// with every spelling it can take, thousands of literals by the end of an
// embedded run of every protocol, and redacts every transcript line: one
// strings.Contains per literal per line was a fifth of the run's CPU.
//
// Literals are filed by their last four bytes, the random end of a key (its
// first bytes are often a prefix every key of a platform shares), and a bit
// set of those windows, hashed, rules out almost every position of a text
// at the cost of one load. A clear bit is certain, so no literal that
// occurs is missed; a candidate is confirmed by comparing it whole.
type literalIndex struct {
	bits  [1 << 16 / 64]uint64
	byEnd map[uint32][]string
	short []string // literals under four bytes, checked plainly
}

// window reads four bytes as one number.
func window(s string) uint32 {
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// windowBit hashes a window to a bit of the set.
func windowBit(w uint32) uint32 { return (w * 2654435761) >> 16 }

// add files lit.
func (x *literalIndex) add(lit string) {
	if len(lit) < 4 {
		x.short = append(x.short, lit)
		return
	}
	w := window(lit[len(lit)-4:])
	if x.byEnd == nil {
		x.byEnd = map[uint32][]string{}
	}
	x.byEnd[w] = append(x.byEnd[w], lit)
	b := windowBit(w)
	x.bits[b/64] |= 1 << (b % 64)
}

// present returns the filed literals that occur in text, or nil.
func (x *literalIndex) present(text string) map[string]bool {
	var found map[string]bool
	mark := func(lit string) {
		if found == nil {
			found = map[string]bool{}
		}
		found[lit] = true
	}
	for _, lit := range x.short {
		if strings.Contains(text, lit) {
			mark(lit)
		}
	}
	for end := 4; end <= len(text); end++ {
		w := window(text[end-4 : end])
		if b := windowBit(w); x.bits[b/64]&(1<<(b%64)) == 0 {
			continue
		}
		for _, lit := range x.byEnd[w] {
			if len(lit) <= end && text[end-len(lit):end] == lit {
				mark(lit)
			}
		}
	}
	return found
}

// replaceLiterals replaces every literal in text, longest first, exactly as
// a strings.ReplaceAll per literal would. With many literals, the index
// (which must hold every one of them) tells which occur in the text as
// given, so only those are replaced; once a replacement changed the text,
// the remaining literals are checked plainly, as the plain loop would.
func replaceLiterals(text string, literals []string, idx *literalIndex) string {
	var present map[string]bool
	indexed := idx != nil && len(literals) >= minIndexedLiterals
	if indexed {
		if present = idx.present(text); present == nil {
			return text
		}
	}
	changed := false
	for _, v := range literals {
		if indexed && !changed && !present[v] {
			continue
		}
		if strings.Contains(text, v) {
			text = strings.ReplaceAll(text, v, Redacted)
			changed = true
		}
	}
	return text
}

// presentLiterals narrows literals to those that occur in text, for a
// search whose order does not matter (the spans of an escaped text).
func presentLiterals(text string, literals []string, idx *literalIndex) []string {
	if idx == nil || len(literals) < minIndexedLiterals {
		var out []string
		for _, v := range literals {
			if strings.Contains(text, v) {
				out = append(out, v)
			}
		}
		return out
	}
	present := idx.present(text)
	out := make([]string, 0, len(present))
	for _, v := range literals {
		if present[v] {
			out = append(out, v)
		}
	}
	return out
}
