package suite_test

import (
	"encoding/json"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/vectors"
)

// FuzzParseCase: no case file makes the loader panic, and a case it
// accepts names its protocol and a known kind. Seeds: property cases made
// of the Iyra sequence vectors' actions, and a scenario case.
func FuzzParseCase(f *testing.F) {
	f.Add([]byte(`{"version":1,"protocol":"iyra","kind":"scenario","name":"n","scenario":"features/iyra/actions.feature:12","seed":7}`))
	if files, err := vectors.Load("iyra"); err == nil {
		for _, file := range files {
			for _, v := range file.Vectors {
				var in struct{ Actions []json.RawMessage }
				if file.Kind != "sequence" || json.Unmarshal(v.Input, &in) != nil {
					continue
				}
				c := suite.Case{Version: 1, Protocol: "iyra", Kind: "property", Name: v.ID, Property: "engine", Seed: 1}
				for _, a := range in.Actions {
					c.Sequence = append(c.Sequence, suite.Action(a))
				}
				raw, _ := json.Marshal(c)
				f.Add(raw)
			}
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		c, err := suite.ParseCase("fuzz.json", raw)
		if err != nil {
			return
		}
		if c.Protocol == "" || (c.Kind != "scenario" && c.Kind != "property") {
			t.Fatalf("accepted %q as %+v", raw, c)
		}
	})
}
