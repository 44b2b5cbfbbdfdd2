package server

import (
	"encoding/json"

	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// Frame is every frame's envelope: {"t": type, ...} (PYYOL-WS-ENVELOPE).
// The fields are those of PYYOL-REF-FRAMES; one struct reads them all.
type Frame struct {
	T          string          `json:"t"`
	ID         string          `json:"id,omitempty"`
	Version    string          `json:"version,omitempty"`
	AgentID    string          `json:"agent_id,omitempty"`
	Token      string          `json:"token,omitempty"`
	AgentName  string          `json:"agent_name,omitempty"`
	Games      []string        `json:"games,omitempty"`
	SDKVersion string          `json:"sdk_version,omitempty"`
	Error      string          `json:"error,omitempty"`
	Move       json.RawMessage `json:"move,omitempty"`
	Usage      json.RawMessage `json:"usage,omitempty"`
	Practice   *Practice       `json:"practice,omitempty"`
	Matches    int             `json:"matches,omitempty"`
}

// Practice asks for a practice match's rules (PYYOL-REF-PRACTICE-RULES).
type Practice struct {
	FairnessMode string `json:"fairness_mode,omitempty"`
	TieRule      string `json:"tie_rule,omitempty"`
	Seat         *int   `json:"seat,omitempty"`
	// Role asks for a Mafia seat's role (PYYOL-MAFIA-REF-PRACTICE).
	Role string `json:"role,omitempty"`
	// Monopoly's practice options (PYYOL-MONO-REF-PRACTICE, monopoly.go).
	Players         int   `json:"players,omitempty"`
	TurnCap         int   `json:"turn_cap,omitempty"`
	Auctions        *bool `json:"auctions,omitempty"`
	FreeParkingPool *bool `json:"free_parking_pool,omitempty"`
	// StartingCash and Bots ("dealing") are Monopoly's further practice
	// options (PYYOL-MONO-REF-PRACTICE-DEALS).
	StartingCash int    `json:"starting_cash,omitempty"`
	Bots         string `json:"bots,omitempty"`
}

// initializeFrame opens a match (PYYOL-WS-INITIALIZE).
type initializeFrame struct {
	T       string          `json:"t"`
	ID      string          `json:"id"`
	MatchID string          `json:"match_id"`
	Game    string          `json:"game"`
	Seat    int             `json:"seat"`
	Players int             `json:"players"`
	Rules   goofspiel.Rules `json:"rules"`
}

// turnFrame asks for a move (PYYOL-WS-TURN).
type turnFrame struct {
	T       string         `json:"t"`
	ID      string         `json:"id"`
	MatchID string         `json:"match_id"`
	Game    string         `json:"game"`
	View    goofspiel.View `json:"view"`
}

// eventFrame is one public event (PYYOL-WS-EVENT-SEQ).
type eventFrame struct {
	T       string `json:"t"`
	MatchID string `json:"match_id"`
	Seq     int    `json:"seq"`
	Type    string `json:"type"`
	Payload any    `json:"payload"`
}

// gameEndFrame closes a match (PYYOL-WS-GAME-END).
type gameEndFrame struct {
	T       string    `json:"t"`
	MatchID string    `json:"match_id"`
	Game    string    `json:"game"`
	Seat    int       `json:"seat"`
	Result  endResult `json:"result"`
}

// endResult is the final result and the full record (PYYOL-WS-CONTEXT:
// "game_end repeats the complete history").
type endResult struct {
	goofspiel.Result
	Usage []usageRecord `json:"usage"`
	// Stake is a ranked match's stake and settlement (PYYOL-REF-QUEUE).
	Stake *ranked `json:"stake,omitempty"`
}

// usageRecord is a move's self-reported usage (PYYOL-REF-USAGE).
type usageRecord struct {
	Round       int            `json:"round"`
	Seat        int            `json:"seat"`
	Usage       map[string]any `json:"usage"`
	MeterSource string         `json:"meter_source"`
}
