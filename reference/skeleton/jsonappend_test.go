package skeleton

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"
)

// TestAppendJSONStringIsEncodingJSON: for any string (quotes, control
// characters, HTML, multi-byte text, invalid UTF-8, U+2028 and U+2029,
// truncated sequences) AppendJSONString writes the bytes encoding/json
// writes with HTML characters not escaped.
func TestAppendJSONStringIsEncodingJSON(t *testing.T) {
	parts := rapid.SampledFrom([]string{"a", "Z", " ", "<", "&", ">", `"`, `\`, "\x00", "\x1f", "\x7f", "\n", "\t", "\b", "\f",
		"é", "校閲", "\u2028", "\u2029", "\u2027", "\xe2\x80", "\xe2", "\xff", "\xc3", "\U0001F600", "\xed\xa0\x80"})
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(rapid.String(), rapid.Map(rapid.SliceOf(parts), func(ps []string) string {
			var b bytes.Buffer
			for _, p := range ps {
				b.WriteString(p)
			}
			return b.String()
		})).Draw(t, "s")
		want := EncodeJSON(200, s).Body
		want = want[:len(want)-1] // the encoder's newline
		if got := AppendJSONString([]byte("x"), s); !bytes.Equal(got[1:], want) {
			t.Fatalf("%q: got %s, want %s", s, got[1:], want)
		}
	})
}
