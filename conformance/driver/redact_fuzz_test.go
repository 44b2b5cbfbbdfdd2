package driver_test

import (
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/driver"
)

// FuzzRedact: no text makes redaction panic, and a registered key placed in
// any text never survives it in its learned spelling.
func FuzzRedact(f *testing.F) {
	f.Add("aa_0123456789abcdef", `{"api_key":"`, `"}`)
	f.Add("aa/live+key 1", `\u0061a\/`, `%2F%2f+`)
	f.Add("k\u00e9y_123456", `\ud83d\ude00`, `%`)
	f.Fuzz(func(t *testing.T, key, before, after string) {
		if len(key) < 6 || strings.ContainsAny(key, "[]") || strings.Contains(driver.Redacted, key) {
			return // a key that spells part of the marker would be "found" in the marker itself
		}
		s := &driver.Secrets{}
		s.Add(key)
		if got := s.Redact(before + key + after); strings.Contains(got, key) {
			t.Fatalf("key %q survived in %q", key, got)
		}
	})
}
