package phantompress

import (
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
	// has lists the keys of the target's state object.
	has map[string]bool
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
