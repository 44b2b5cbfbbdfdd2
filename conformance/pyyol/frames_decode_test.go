package pyyol

import (
	"encoding/json"
	"testing"
)

// TestDecodeJSONAcceptsWhatEncodingJSONAccepts: the one decode a frame
// gets refuses exactly what json.Unmarshal into an any refuses, a number
// beyond float64 included.
func TestDecodeJSONAcceptsWhatEncodingJSONAccepts(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		`{"t":"hello"}`, `[1,2]`, `1e308`, `1e400`, `{"a":[{"b":-1e999}]}`, `1e-400`, `{"a":1} x`,
		`{"a":1}  `, ``, `{`, `"\ud800"`, `{"a":1,"a":2}`, `12345678901234567890123`,
	} {
		var v any
		want := json.Unmarshal([]byte(raw), &v) == nil
		_, err := decodeJSON([]byte(raw))
		if got := err == nil; got != want {
			t.Errorf("%q: decodeJSON accepts %v, json.Unmarshal %v (%v)", raw, got, want, err)
		}
	}
}
