package skeleton_test

import (
	"encoding/json"
	"testing"

	"github.com/agentgames/conformance/reference/skeleton"
)

// FuzzDecodeStrict: no body makes the shared decoder panic; whatever it
// accepts is one JSON object that encoding/json reads too, and whatever it
// refuses carries a code.
func FuzzDecodeStrict(f *testing.F) {
	for _, s := range []string{`{"turns":3}`, `{"turns":1,"turns":2}`, `{"note":"\u00e9"}`, `[]`, `{"turns":1e400}`, "{\"note\":\"\xff\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var v struct {
			Turns *int            `json:"turns"`
			Note  *string         `json:"note"`
			Any   json.RawMessage `json:"any"`
		}
		if err := skeleton.DecodeStrict(body, &v); err != nil {
			if err.Code == "" || err.Message == "" {
				t.Fatalf("%q: refusal without a code", body)
			}
			return
		}
		var m map[string]any
		if json.Unmarshal(body, &m) != nil || m == nil {
			t.Fatalf("%q accepted but is not a JSON object", body)
		}
	})
}
