package phantompress

import (
	"encoding/json"
	"strings"

	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// actionResponse is the body of POST /runs/:id/action.
type actionResponse struct {
	OK               bool             `json:"ok"`
	Turn             int              `json:"turn"`
	Narrative        string           `json:"narrative"`
	State            engine.StateView `json:"state"`
	Events           []engine.Event   `json:"events"`
	AvailableActions []string         `json:"available_actions"`
	Code             string           `json:"code"`
	Error            string           `json:"error"`
}

// created is the body of POST /runs.
type created struct {
	RunID            string           `json:"run_id"`
	State            engine.StateView `json:"state"`
	Narrative        string           `json:"narrative"`
	AvailableActions []string         `json:"available_actions"`
}

// errorBody is the body of every error answer.
type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Error   string `json:"error"`
	Limit   *struct {
		Scope   string `json:"scope"`
		Max     int    `json:"max"`
		Used    int    `json:"used"`
		ResetAt string `json:"reset_at"`
	} `json:"limit"`
}

// runLog is the body of GET /runs/:id.
type runLog struct {
	RunID       string           `json:"run_id"`
	Status      string           `json:"status"`
	Seeded      bool             `json:"seeded"`
	BudgetTurns int              `json:"budget_turns"`
	State       engine.StateView `json:"state"`
	Log         []struct {
		Action string         `json:"action"`
		Arg    string         `json:"arg"`
		OK     bool           `json:"ok"`
		Events []engine.Event `json:"events"`
	} `json:"log"`
	Extensions []struct {
		Turns int `json:"turns"`
		From  int `json:"from"`
		To    int `json:"to"`
	} `json:"extensions"`
	Review *struct {
		Text string `json:"text"`
	} `json:"review"`
}

// hiddenKeys are keys that would carry hidden truth; none may appear in
// anything a target shows before publish (PP-HIDE-BEFORE-PUBLISH).
var hiddenKeys = map[string]bool{
	"correct": true, "correct_answer": true, "correct_answers": true, "truth": true, "answer_key": true,
	"trap": true, "traps": true, "tampered": true, "fabricated": true, "witness_type": true,
	"liar": true, "honest": true, "reveal": true,
}

// leaks walks a JSON body and returns the path of the first hidden-truth
// key, skipping publish settlements (where the reveal belongs). Inside a
// witness object a "type" key is a leak too.
func leaks(body []byte) string {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	return walkLeak(v, "$", false)
}

func walkLeak(v any, path string, inWitness bool) string {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			if k == "settlement" {
				continue
			}
			if hiddenKeys[strings.ToLower(k)] || (inWitness && k == "type") {
				return path + "." + k
			}
			if p := walkLeak(c, path+"."+k, k == "witnesses"); p != "" {
				return p
			}
		}
	case []any:
		for _, c := range x {
			if p := walkLeak(c, path+"[]", inWitness); p != "" {
				return p
			}
		}
	case string:
		// The paper's word for a correct answer never belongs in play text.
		if strings.Contains(x, "正解") {
			return path + " (text mentions 正解)"
		}
	}
	return ""
}
