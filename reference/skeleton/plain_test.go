package skeleton

import (
	"encoding/json"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestPlainObjectReadsAsEncodingJSON: every body PlainObject reads passes
// the input policy's checks and encoding/json reads the same members from
// it (names, strings, true, false, null); whatever the spacing, escapes,
// repeats, numbers, nesting or bytes it is given.
func TestPlainObjectReadsAsEncodingJSON(t *testing.T) {
	part := rapid.SampledFrom([]string{`{`, `}`, `,`, `:`, ` `, "\n\t", `"a"`, `"b"`, `"action"`, `"A"`, `"look"`, `"校閲"`, `""`,
		`"a\"b"`, `"\u0061"`, "\"\x01\"", "\"\xff\"", `true`, `false`, `null`, `nul`, `tru`, `1`, `[]`, `{}`, `"`, `truex`})
	rapid.Check(t, func(t *rapid.T) {
		raw := []byte(strings.Join(rapid.SliceOfN(part, 1, 14).Draw(t, "parts"), ""))
		if rapid.Bool().Draw(t, "shaped") {
			raw = []byte(rapid.SampledFrom([]string{`{"action":"look"}`, ` { "a" : true , "b" : "校閲" } `, `{"a":null,"b":false}`, `{}`,
				`{"a":"x","a":"y"}`, `{"a":"x","A":"y"}`, `{"a":"x"}{}`, `{"a":"x",}`, `{"a":truefalse}`, `{"a":"\u00e9"}`}).Draw(t, "body"))
		}
		ms, ok := PlainObject(raw)
		if !ok {
			return
		}
		if err := CheckJSON(raw); err != nil {
			t.Fatalf("%q: read as plain, refused by the policy: %v", raw, err)
		}
		var want map[string]any
		if err := json.Unmarshal(raw, &want); err != nil || len(want) != len(ms) {
			t.Fatalf("%q: read as %v, encoding/json reads %v (%v)", raw, ms, want, err)
		}
		for _, m := range ms {
			got := map[PlainKind]any{PlainString: m.Str, PlainTrue: true, PlainFalse: false, PlainNull: nil}[m.Kind]
			if w, has := want[m.Name]; !has || w != got {
				t.Fatalf("%q: member %q read as %v, encoding/json reads %v", raw, m.Name, got, w)
			}
		}
	})
}
