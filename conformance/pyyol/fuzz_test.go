package pyyol

import (
	"encoding/json"
	"testing"
)

// FuzzCheckFrame: any bytes a gateway sends are judged (a verdict, never a
// panic), and only a JSON object can pass a schema.
func FuzzCheckFrame(f *testing.F) {
	f.Add([]byte(`{"t":"hello","version":"1.0"}`), "hello")
	f.Add([]byte(`{"t":"turn","id":"1","view":{"legal_actions":[1]}}`), "turn")
	f.Add([]byte(`[1,2]`), "event")
	f.Add([]byte(`{"t":"event","seq":1e400}`), "event")
	f.Fuzz(func(t *testing.T, raw []byte, typ string) {
		err := checkFrame(raw, typ)
		var obj map[string]any
		if err == nil && json.Unmarshal(raw, &obj) != nil {
			t.Fatalf("a non-object passed the %q schema: %q", typ, raw)
		}
		var fr frame
		_ = json.Unmarshal(raw, &fr)
	})
}
