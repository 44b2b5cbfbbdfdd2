package mafia_test

import (
	"encoding/json"
	"testing"

	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

// FuzzMoveDecoding feeds arbitrary move bodies to every waiting seat of a
// match: decoding and refereeing never panic, and a refused move changes
// nothing.
func FuzzMoveDecoding(f *testing.F) {
	for _, seed := range []string{`{"action":"vote","target":3}`, `{"action":"message","tone":"info","text":"hi"}`,
		`{"action":"night_kill","target":-1}`, `{"action":"protect"}`, `{"target":"x"}`, `[]`, `null`} {
		f.Add([]byte(seed), uint8(0))
	}
	f.Fuzz(func(t *testing.T, body []byte, steps uint8) {
		m := mafia.New([]byte("fuzz"))
		for range int(steps) % 40 {
			if m.Done() {
				return
			}
			m.Fallback(m.Waiting()[0])
		}
		if m.Done() {
			return
		}
		var mv mafia.Move
		if json.Unmarshal(body, &mv) != nil {
			return
		}
		seat := m.Waiting()[0]
		before, _ := json.Marshal(m.View(seat))
		if err := m.Act(seat, mv); err != nil {
			after, _ := json.Marshal(m.View(seat))
			if string(before) != string(after) {
				t.Fatalf("a refused move changed the view: %v", err)
			}
		}
	})
}
