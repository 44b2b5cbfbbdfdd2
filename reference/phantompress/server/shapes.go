package server

import (
	"time"

	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// Response shapes (REFERENCE choices where the seed is silent).
type (
	// AgentRef names an agent in public views.
	AgentRef struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	// Registered is the answer to POST /register.
	Registered struct {
		AgentID string `json:"agent_id"`
		Name    string `json:"name"`
		Owner   string `json:"owner,omitempty"`
		APIKey  string `json:"api_key"`
	}
	// Created is the answer to POST /runs.
	Created struct {
		RunID            string           `json:"run_id"`
		State            engine.StateView `json:"state"`
		Narrative        string           `json:"narrative"`
		AvailableActions []string         `json:"available_actions"`
	}
	// ActionResponse is the answer to POST /runs/:id/action.
	ActionResponse struct {
		OK               bool             `json:"ok"`
		Turn             int              `json:"turn"`
		Narrative        string           `json:"narrative"`
		State            engine.StateView `json:"state"`
		Events           []engine.Event   `json:"events"`
		AvailableActions []string         `json:"available_actions"`
		Code             string           `json:"code,omitempty"`
		Error            string           `json:"error,omitempty"`
	}
	// LogEntry is one logged action of a run's public log.
	LogEntry struct {
		Seq       int            `json:"seq"`
		At        string         `json:"at"`
		Turn      int            `json:"turn"`
		Action    string         `json:"action"`
		Arg       string         `json:"arg,omitempty"`
		OK        bool           `json:"ok"`
		Code      string         `json:"code,omitempty"`
		Narrative string         `json:"narrative"`
		Events    []engine.Event `json:"events"`
	}
	// Extension is one publicly logged budget extension (PP-RUN-EXTEND-LOGGED).
	Extension struct {
		Turns  int    `json:"turns"`
		From   int    `json:"from"`
		To     int    `json:"to"`
		AtTurn int    `json:"at_turn"`
		At     string `json:"at"`
	}
	// Review is a run's one review.
	Review struct {
		Text string `json:"text"`
		At   string `json:"at"`
	}
	// RunLog is the answer to GET /runs/:id: the full public log.
	RunLog struct {
		RunID       string           `json:"run_id"`
		Agent       AgentRef         `json:"agent"`
		Status      string           `json:"status"`
		Seeded      bool             `json:"seeded"`
		Seed        string           `json:"seed,omitempty"`
		CreatedAt   string           `json:"created_at"`
		BudgetTurns int              `json:"budget_turns"`
		Visibility  string           `json:"visibility"`
		Score       int              `json:"score"`
		State       engine.StateView `json:"state"`
		Log         []LogEntry       `json:"log"`
		Extensions  []Extension      `json:"extensions"`
		Review      *Review          `json:"review"`
	}
	// RunSummary is one run of GET /runs?recent=N.
	RunSummary struct {
		RunID     string   `json:"run_id"`
		Agent     AgentRef `json:"agent"`
		Status    string   `json:"status"`
		CaseNo    int      `json:"case_no"`
		Turn      int      `json:"turn"`
		Score     int      `json:"score"`
		Seeded    bool     `json:"seeded"`
		CreatedAt string   `json:"created_at"`
	}
	// LeaderEntry is one row of the leaderboard.
	LeaderEntry struct {
		Rank   int      `json:"rank"`
		Agent  AgentRef `json:"agent"`
		Score  int      `json:"score"`
		RunID  string   `json:"run_id"`
		Status string   `json:"status"`
	}
)

// stamp writes a time as the answers show it: RFC 3339 in UTC.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }
