package iyra_test

import (
	"encoding/json"
	"testing"

	"github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/vectors"
)

// FuzzDecodeSubmission: no action body makes the decoder panic, and every
// body is either refused with a coded rejection or decoded to an action.
// Seeds: the actions of the sequence vectors, as request bodies.
func FuzzDecodeSubmission(f *testing.F) {
	files, err := vectors.Load("iyra")
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		if file.Kind != "sequence" {
			continue
		}
		for _, v := range file.Vectors {
			var in struct {
				Actions []json.RawMessage `json:"actions"`
			}
			if json.Unmarshal(v.Input, &in) != nil {
				continue
			}
			for i, a := range in.Actions {
				f.Add([]byte(`{"revision":` + itoa(i) + `,"action":` + string(a) + `}`))
			}
		}
	}
	f.Add([]byte(`{"revision":0,"revision":1,"action":{"type":"broadcast"}}`))
	f.Add([]byte(`{"revision":1e0,"action":{"type":"investigate","site":"archive","revision":0}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		sub, rej := iyra.DecodeSubmission(body)
		if rej != nil {
			if rej.Code == "" {
				t.Fatalf("a rejection without a code for %q", body)
			}
			return
		}
		if sub.Invalid == nil && sub.Action.Type == "" {
			t.Fatalf("an accepted submission without a type for %q", body)
		}
	})
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
