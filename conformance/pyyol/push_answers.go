package pyyol

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
)

// Normalize, then judge: an agent's /turn answer is read here into the
// move the checks see, whatever reading of the open points the agent took.
// The docs fix the move's fields ("Return the move", games.md "Your move");
// they leave open whether the move stands alone or is wrapped in
// {"move": ...}, and what a field the action takes none of holds (the
// official SDK's move dataclasses always send target -1, tone "" and text
// "" for Mafia, property 0 and amount 0 for Monopoly:
// sdk/python/pyyol/models.py). So the reader unwraps, drops what the
// action does not take, and records each reading other than the
// reference's (the move itself, nothing extra); the record is at most a
// PYYOL-REF-PUSH-BODIES warning, never a failure.

// answerReader reads the /turn answers of one match and keeps the
// readings it met.
type answerReader struct {
	readings map[string]bool
}

// moveKey is the field a game's move always has, which tells a bare move
// from a wrapped one.
var moveKey = map[string]string{"goofspiel": "card", "mafia": "action", "monopoly": "action"}

// takes lists, per game and field, the actions that take the field; a
// field absent from the table is taken by every action.
var takes = map[string]map[string][]string{
	"mafia": {
		"target": {"vote", "night_kill", "investigate", "protect", "profile"},
		"tone":   {"message"}, "text": {"message"},
	},
	"monopoly": {
		"property": {"build", "mortgage", "unmortgage", "sell_house"},
		"amount":   {"bid"},
		"trade":    {"propose_trade", "counter_trade"},
	},
}

// read returns body as the bare move of game, unwrapped and without the
// fields its action does not take. What is no JSON object is returned as
// it stands, for the move's schema to judge.
func (a *answerReader) read(game string, body []byte) []byte {
	v, err := decodeJSON(body)
	obj, ok := v.(map[string]any)
	if err != nil || !ok {
		return body
	}
	if inner, wrapped := obj["move"].(map[string]any); wrapped && obj[moveKey[game]] == nil {
		a.saw(`the move wrapped in {"move": ...}`)
		obj = inner
	}
	action, _ := obj["action"].(string)
	for field, actions := range takes[game] {
		if value, present := obj[field]; present && !slices.Contains(actions, action) {
			if !noneValue(value) {
				a.saw(fmt.Sprintf("%s %v sent with %s, which takes none", field, value, action))
			}
			delete(obj, field)
		}
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return body
	}
	return out
}

// noneValue reports whether v is what the official SDK sends for "no
// value" (-1, 0, "" or null), which is no reading of its own.
func noneValue(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case json.Number:
		return v == "0" || v == "-1"
	}
	return false
}

// saw records one reading.
func (a *answerReader) saw(reading string) {
	if a.readings == nil {
		a.readings = map[string]bool{}
	}
	a.readings[reading] = true
}

// finding is the one warning a match's readings make, or nil when the
// agent answered as the reference does.
func (a *answerReader) finding() error {
	if len(a.readings) == 0 {
		return nil
	}
	seen := make([]string, 0, len(a.readings))
	for r := range a.readings {
		seen = append(seen, r)
	}
	sort.Strings(seen)
	return verdict.Failf("PYYOL-REF-PUSH-BODIES", "the move itself, only the fields its action takes", strings.Join(seen, "; "),
		"the agent's answers took readings the docs leave open; the kit read them and judged the moves they hold")
}
