package server

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/agentgames/conformance/reference/skeleton"
)

// TestPlainActionBodyReadsAsTheDecoder: every body the direct scan reads,
// the input policy's decoder reads alike (the same action and arg, null
// and absent alike), and every body the decoder refuses the scan leaves
// to it, whatever the spacing, names, repeats, escapes, types or bytes.
func TestPlainActionBodyReadsAsTheDecoder(t *testing.T) {
	part := rapid.SampledFrom([]string{`{`, `}`, `,`, `:`, ` `, "\n", `"action"`, `"arg"`, `"Action"`, `"ARG"`, `"x"`, `"look"`,
		`"read d1"`, `"校閲"`, `""`, `"a\"b"`, `"\u0061"`, "\"\x01\"", "\"\xff\"", `null`, `nul`, `1`, `true`, `[]`, `{}`, `"`})
	rapid.Check(t, func(t *rapid.T) {
		raw := []byte(strings.Join(rapid.SliceOfN(part, 1, 14).Draw(t, "parts"), ""))
		if rapid.Bool().Draw(t, "shaped") {
			raw = []byte(rapid.SampledFrom([]string{`{"action":"look"}`, `{"action":"read","arg":"d1"}`, `{ "arg" : "w1 t1" , "action" : "interview" }`,
				`{"action":"look","action":"read"}`, `{"action":null}`, `{"arg":"x"}`, `{}`, `{"action":"look"} `, `{"action":"look"}x`, `{"action":"look",}`}).Draw(t, "body"))
		}
		var want actionBody
		werr := skeleton.DecodeStrict(raw, &want)
		got, ok := plainActionBody(raw)
		switch {
		case ok && werr != nil:
			t.Fatalf("%q: the scan read %+v, the decoder refused it: %v", raw, got, werr)
		case ok && (!samePtr(got.Action, want.Action) || !samePtr(got.Arg, want.Arg)):
			t.Fatalf("%q: the scan read %v/%v, the decoder %v/%v", raw, deref(got.Action), deref(got.Arg), deref(want.Action), deref(want.Arg))
		}
	})
}

// samePtr reports whether two optional strings are both absent or equal.
func samePtr(a, b *string) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// deref shows an optional string.
func deref(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}
