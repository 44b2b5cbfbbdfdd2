package pyyol

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentgames/conformance/conformance/verdict"
)

// TestAnswerReaderNormalizes: each reading the docs leave open comes out as
// the bare move with only the fields its action takes; a reading other
// than the reference's is recorded, the SDK's unused-field defaults are not.
func TestAnswerReaderNormalizes(t *testing.T) {
	cases := []struct {
		game, in, out string
		reads         bool
	}{
		{"goofspiel", `{"round":1,"card":5}`, `{"round":1,"card":5}`, false},
		{"goofspiel", `{"move":{"round":1,"card":5}}`, `{"round":1,"card":5}`, true},
		// A move that has its own key is not unwrapped, whatever else it holds.
		{"goofspiel", `{"round":1,"card":5,"move":{"card":6}}`, `{"card":5,"move":{"card":6},"round":1}`, false},
		{"mafia", `{"action":"message","target":-1,"tone":"info","text":"hi"}`, `{"action":"message","text":"hi","tone":"info"}`, false},
		{"mafia", `{"action":"vote","target":3,"tone":"","text":""}`, `{"action":"vote","target":3}`, false},
		{"mafia", `{"action":"vote","target":3,"text":"because"}`, `{"action":"vote","target":3}`, true},
		// A targeted action keeps its target, -1 too, for the MUST check to judge.
		{"mafia", `{"action":"vote","target":-1}`, `{"action":"vote","target":-1}`, false},
		{"monopoly", `{"action":"roll","property":0,"amount":0}`, `{"action":"roll"}`, false},
		{"monopoly", `{"action":"bid","property":0,"amount":0}`, `{"action":"bid","amount":0}`, false},
		{"monopoly", `{"move":{"action":"build","property":6,"amount":0}}`, `{"action":"build","property":6}`, true},
		// What is no JSON object is left for the move's schema to refuse.
		{"goofspiel", `[5]`, `[5]`, false},
		{"goofspiel", `not json`, `not json`, false},
	}
	for _, c := range cases {
		var r answerReader
		got := r.read(c.game, []byte(c.in))
		if c.out[0] == '{' {
			assert.JSONEq(t, c.out, string(got), c.in)
		} else {
			assert.Equal(t, c.out, string(got), c.in)
		}
		err := r.finding()
		assert.Equal(t, c.reads, err != nil, "%s: reading recorded: %v", c.in, err)
		var f *verdict.Failure
		if err != nil && assert.True(t, errors.As(err, &f)) {
			assert.Equal(t, "PYYOL-REF-PUSH-BODIES", f.RuleID)
		}
	}
}
