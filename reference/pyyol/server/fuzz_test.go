package server

import (
	"encoding/json"
	"testing"

	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// FuzzResponseFrame: whatever an agent sends as a response, the gateway's
// decoding and the engine's check either seal a legal move or change
// nothing; they never panic.
func FuzzResponseFrame(f *testing.F) {
	f.Add([]byte(`{"t":"response","id":"turn_x_0","move":{"round":0,"card":5}}`))
	f.Add([]byte(`{"t":"response","id":"turn_x_0","move":{"round":0,"card":99},"usage":{"model":1}}`))
	f.Add([]byte(`{"t":"response","move":"13"}`))
	f.Add([]byte(`{"t":`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var fr Frame
		if json.Unmarshal(raw, &fr) != nil {
			return
		}
		m, _ := goofspiel.New(goofspiel.Standard(), []byte("fuzz"))
		before := m.View(0)
		var mv goofspiel.Move
		if json.Unmarshal(fr.Move, &mv) != nil || m.Bid(0, mv) != nil {
			if len(m.View(0).YourHand) != len(before.YourHand) || m.Sealed(0) {
				t.Fatalf("a refused move changed the match: %q", raw)
			}
			return
		}
		if !m.Sealed(0) {
			t.Fatalf("a legal move was not sealed: %q", raw)
		}
		run := &matchRun{m: m}
		run.record(0, fr)
	})
}
