package baseline_test

import (
	"testing"

	"github.com/agentgames/conformance/conformance/baseline"
	"github.com/agentgames/conformance/conformance/verdict"
)

// FuzzParse: no baseline document makes Parse panic, and one it accepts
// applies to a report without panicking and lists each entry once.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`{"known_failures":[{"rule":"IYRA-KEY-ONCE","reason":"TICKET-1"}]}`,
		`{"known_failures":[{"protocol":"iyra","check":"identity proof › x","reason":"r"}]}`,
		`{"known_failures":[]}`, `{}`, `[]`, `{"known_failures":[{"rule":"A","reason":"r"},{"rule":"A","reason":"r"}]}`,
		`{"known_failures":[{"rule":"A"}]}`, `{"extra":1}`, "\xff", `{"known_failures":[{"rule":"A","check":"B","reason":"r"}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		file, err := baseline.Parse(raw)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, e := range file.KnownFailures {
			if seen[e.Key()] || e.Reason == "" {
				t.Fatalf("accepted a duplicate or reasonless entry %+v", e)
			}
			seen[e.Key()] = true
		}
		rep := &verdict.Report{Results: []verdict.Result{
			{Protocol: "iyra", Feature: "identity proof", Name: "x", Rules: []string{"IYRA-KEY-ONCE"}, Status: verdict.Fail, FailedRule: "IYRA-KEY-ONCE"},
			{Protocol: "iyra", Feature: "f", Name: "y", Rules: []string{"A"}, Status: verdict.Pass},
		}}
		file.Apply(rep)
	})
}
