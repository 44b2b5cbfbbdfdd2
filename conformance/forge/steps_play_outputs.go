package forge

import (
	"encoding/json"
	"fmt"

	"github.com/agentgames/conformance/conformance/verdict"
)

// expectedOutputsHidden searches the answers of every level clear
// cleared, from its session's opening to just before its submission, for
// the level's expected challenge outputs, found by value as one list under
// any key: the seed keeps "expected challenge outputs" server-side
// (FORGE-PRIVATE-SERVER-ONLY). An oracle's own answer (a body whose
// output is that list) is the probe's answer, not a leak, and a level of
// fewer than two challenge inputs says nothing.
func (w *world) expectedOutputsHidden() error {
	if len(w.solved) == 0 {
		return verdict.Errorf("no level was cleared")
	}
	for _, l := range w.solved {
		if len(l.outputs) < 2 {
			continue
		}
		s := &secrets{}
		s.addValue(fmt.Sprintf("level %d's expected challenge outputs", l.position), l.outputs)
		for _, b := range w.bodies[l.from:l.to] {
			if answersWith(b, s) {
				continue
			}
			if what := s.find(b); what != "" {
				return verdict.Failf("FORGE-PRIVATE-SERVER-ONLY", "no expected output in any answer", what,
					"an answer before the submission carries %s, found by value: %s", what, w.env.HTTP.Secrets().Clip(b))
			}
		}
	}
	return nil
}

// answersWith reports a probe's answer whose output is itself the secret.
func answersWith(body []byte, s *secrets) bool {
	var a struct {
		Output json.RawMessage `json:"output"`
	}
	if json.Unmarshal(body, &a) != nil || a.Output == nil {
		return false
	}
	var v any
	return json.Unmarshal(a.Output, &v) == nil && s.sameValue(v) != ""
}
