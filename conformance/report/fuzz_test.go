package report

import (
	"bytes"
	"testing"
)

// FuzzReadJSON: no document given to `conformance merge` makes ReadJSON
// panic, and a report it reads can be written again in every format.
func FuzzReadJSON(f *testing.F) {
	var sample bytes.Buffer
	if err := WriteJSON(&sample, sampleReport()); err != nil {
		f.Fatal(err)
	}
	f.Add(sample.Bytes())
	for _, seed := range []string{`{}`, `{"tool":"conformance","summary":{}}`, `{"tool":"x","summary":{"p":{}},"results":[{"protocol":"p","status":"fail"}]}`,
		`{"tool":"x","summary":{"p":{"counts":{"pass":1}}},"rules":{"R":{"protocol":"p","level":"MUST"}}}`, `null`, `[1]`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		rep, err := ReadJSON(bytes.NewReader(raw))
		if err != nil {
			return
		}
		var out bytes.Buffer
		for _, write := range []func(*bytes.Buffer) error{
			func(b *bytes.Buffer) error { return WriteJSON(b, rep) },
			func(b *bytes.Buffer) error { return WriteJUnit(b, rep) },
			func(b *bytes.Buffer) error { return WriteHTML(b, rep) },
		} {
			out.Reset()
			if err := write(&out); err != nil {
				t.Fatalf("a report ReadJSON accepted cannot be written: %v", err)
			}
		}
		out.Reset()
		Summary(&out, rep)
	})
}
