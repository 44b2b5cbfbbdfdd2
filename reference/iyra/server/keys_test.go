package server

import (
	"regexp"
	"testing"

	"pgregory.net/rapid"
)

// TestValidKeyIsTheContractFormat: validKey accepts exactly the keys the
// contract's pattern ^[A-Za-z0-9._:-]{8,128}$ matches (IYRA-SESSION-KEY-REQUIRED),
// around the length bounds and for any byte.
func TestValidKeyIsTheContractFormat(t *testing.T) {
	format := regexp.MustCompile(`^[A-Za-z0-9._:-]{8,128}$`)
	rapid.Check(t, func(t *rapid.T) {
		key := rapid.OneOf(rapid.StringMatching(`[A-Za-z0-9._:-]{6,130}`), rapid.StringMatching(`[A-Za-z0-9._:/ \x00é-]{6,12}`), rapid.String()).Draw(t, "key")
		if validKey(key) != format.MatchString(key) {
			t.Fatalf("validKey(%q) = %v, the pattern says %v", key, validKey(key), format.MatchString(key))
		}
	})
}
