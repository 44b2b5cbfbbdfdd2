package server

import (
	"encoding/json"
	"strconv"

	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// Frame is every frame's envelope, both ways: {"t": type, ...}
// (PYYOL-WS-ENVELOPE). Its fields are the platform's own envelope
// (PYYOL-REF-FRAMES follows backend/internal/agentgw/frame.go and the
// Python SDK's runtime.py): the lifecycle frames carry their body in
// payload, an event its type in kind. Move, Usage, Practice and Matches
// are what the kit's gateway also reads from an agent: a move sent as
// move rather than payload (the kit's earlier layout), a usage record
// beside it, and the practice options of register.
type Frame struct {
	T           string          `json:"t"`
	ID          string          `json:"id,omitempty"`
	AgentID     string          `json:"agent_id,omitempty"`
	Token       string          `json:"token,omitempty"`
	AgentName   string          `json:"agent_name,omitempty"`
	Version     string          `json:"version,omitempty"`
	Games       []string        `json:"games,omitempty"`
	SDKVersion  string          `json:"sdk_version,omitempty"`
	SDKLanguage string          `json:"sdk_language,omitempty"`
	LatestSDK   string          `json:"latest_sdk,omitempty"`
	MinSDK      string          `json:"min_sdk,omitempty"`
	MatchID     string          `json:"match_id,omitempty"`
	Game        string          `json:"game,omitempty"`
	Seq         int             `json:"seq,omitempty"`
	Kind        string          `json:"kind,omitempty"`
	Payload     json.RawMessage `json:"payload,omitempty"`
	Error       string          `json:"error,omitempty"`
	Reason      string          `json:"reason,omitempty"`
	Move        json.RawMessage `json:"move,omitempty"`
	Usage       json.RawMessage `json:"usage,omitempty"`
	Practice    *Practice       `json:"practice,omitempty"`
	Matches     int             `json:"matches,omitempty"`
	// game is the game of a turn the gateway sends (for the faults it
	// may inject), never on the wire.
	game string
	// encoded marks a Payload that encoding/json wrote (the frame
	// constructors'), which encodeFrame writes as it stands.
	encoded bool
}

// move is the move a response carries: in payload, as the SDK sends it
// (runtime.py: {"t":"response","id":…,"payload":move}), else in move.
func (f Frame) move() json.RawMessage {
	if len(f.Payload) > 0 && string(f.Payload) != "null" {
		return f.Payload
	}
	return f.Move
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

// stamped encodes body as a JSON object with the match's game and
// match_id added (and seat, when seat >= 0): the platform's views and
// results name their match themselves, and the SDK dispatches a turn to
// its handler on payload.game (runtime.py _handle_turn), so a view
// without it never reaches the agent's code.
func stamped(body any, game, matchID string, seat int) json.RawMessage {
	// Only the top level is decoded: the nested values keep their bytes,
	// so a frame costs one encode of the view, not three (issue 19).
	m := map[string]json.RawMessage{}
	if data, err := json.Marshal(body); err == nil {
		json.Unmarshal(data, &m)
	}
	m["game"], m["match_id"] = quoted(game), quoted(matchID)
	if seat >= 0 {
		m["seat"] = json.RawMessage(strconv.Itoa(seat))
	}
	return stampedObject(m)
}

// quoted is s as a JSON string.
func quoted(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// initializeFrame opens a match (PYYOL-WS-INITIALIZE): {t, id, payload:
// {match_id, game, seat, players, rules, ...}}, as agentgw's Initialize
// sends it.
func initializeFrame(id, game, matchID string, body map[string]any) Frame {
	return Frame{T: "initialize", ID: id, Payload: stamped(body, game, matchID, -1), game: game, encoded: true}
}

// turnFrame asks for a move (PYYOL-WS-TURN): {t, id, payload: view}, the
// view carrying its game and match_id.
func turnFrame(id, game, matchID string, view any) Frame {
	return Frame{T: "turn", ID: id, Payload: stamped(view, game, matchID, -1), game: game, encoded: true}
}

// eventFrame is one public event (PYYOL-WS-EVENT-SEQ): {t, game,
// match_id, seq, kind, payload}, as agentgw's Event sends it.
func eventFrame(game, matchID string, seq int, kind string, payload any) Frame {
	data, _ := json.Marshal(payload)
	return Frame{T: "event", Game: game, MatchID: matchID, Seq: seq, Kind: kind, Payload: data, game: game, encoded: true}
}

// gameEndFrame closes a match (PYYOL-WS-GAME-END): {t, game, match_id,
// payload: result}, the result naming its game, match and seat as
// remoteplay's GoofspielResult does.
func gameEndFrame(game, matchID string, seat int, result any) Frame {
	return Frame{T: "game_end", Game: game, MatchID: matchID, Payload: stamped(result, game, matchID, seat), game: game, encoded: true}
}

// endResult is the final result and the full record (PYYOL-WS-CONTEXT:
// "game_end repeats the complete history").
type endResult struct {
	goofspiel.Result
	// Rounds is the number of rounds played (remoteplay's GoofspielResult).
	Rounds int           `json:"rounds"`
	Usage  []usageRecord `json:"usage"`
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

// endRound is one round of game_end's history in both readings: the
// kit's cards by absolute seat (PYYOL-REF-FRAMES) and the seat's own
// your_card and opp_card, as remoteplay's RoundView gives them.
type endRound struct {
	goofspiel.Round
	YourCard int `json:"your_card"`
	OppCard  int `json:"opp_card"`
}

// seatResult is endResult with its history read for one seat too.
type seatResult struct {
	endResult
	History []endRound `json:"history"`
}

// withSeatCards adds the seat's own and the opponent's card to every
// round of res's history.
func withSeatCards(res endResult, seat int) seatResult {
	out := seatResult{endResult: res, History: make([]endRound, 0, len(res.History))}
	for _, r := range res.History {
		out.History = append(out.History, endRound{Round: r, YourCard: r.Cards[seat], OppCard: r.Cards[1-seat]})
	}
	return out
}
