package engine_test

import (
	"encoding/json"
	"testing"

	"github.com/agentgames/conformance/reference/phantompress/engine"
	"github.com/agentgames/conformance/vectors"
)

// FuzzParseAnswer: no answer argument makes the grammar panic, and every
// parsed answer names a question. Seeds: the answer-parse vectors.
func FuzzParseAnswer(f *testing.F) {
	files, err := vectors.Load("phantom-press")
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		if file.Kind != "answer-parse" {
			continue
		}
		for _, v := range file.Vectors {
			var in struct{ Arg string }
			if json.Unmarshal(v.Input, &in) == nil {
				f.Add(in.Arg)
			}
		}
	}
	f.Fuzz(func(t *testing.T, arg string) {
		a, err := engine.ParseAnswer(arg)
		if err == nil && a.Question == "" {
			t.Fatalf("%q parsed to an answer without a question: %+v", arg, a)
		}
	})
}
