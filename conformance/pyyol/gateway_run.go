package pyyol

import (
	"encoding/json"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

var round0 = map[string]string{
	"answering every turn":                            "answer",
	manyRoundsFewPoints:                               "answer",
	"leaving round 0 unanswered":                      "silent",
	"answering round 0 with an illegal card":          "illegal",
	"answering round 0 with a handler error":          "error",
	"answering round 0 only after it resolved":        "late",
	"answering round 0 under another turn's id":       "other-id",
	"answering round 0 for another round":             "wrong-round",
	"dropping the socket in round 0 and reconnecting": "drop",
}

// result decodes game_end's result.
func (g *gwRun) result() (goofspiel.Result, error) {
	var res goofspiel.Result
	if g.end == nil {
		return res, verdict.Failf("PYYOL-WS-GAME-END", "a game_end frame", "none", "the match")
	}
	if err := json.Unmarshal(g.end.Result, &res); err != nil {
		return res, verdict.Failf("PYYOL-WS-GAME-END", "a result object", string(g.end.Result), "%v", err)
	}
	return res, nil
}

// payload finds the first event of a type.
func (g *gwRun) payload(typ string) (map[string]any, bool) {
	for _, e := range g.events {
		if e.Type == typ {
			var p map[string]any
			json.Unmarshal(e.Payload, &p)
			return p, true
		}
	}
	return nil, false
}
