package pyyol

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// This file is the one place the gateway side reads frames off the wire:
// "normalize, then judge". decodeFrame reads every layout the docs leave
// open into the runner's model (frame) and records which reading the
// target used; the checks see only the model. The docs fix the frame
// types and what each carries ("seat, role, players", "a public game
// event ... ordered by seq", "Final result (+ full replay record)") but
// not where in the envelope: the platform (backend/internal/agentgw) and
// its Python SDK (runtime.py) put a body in payload and an event's type
// in kind; the kit's earlier layout used view, result and type and put
// initialize's fields at the top level. Both are read.

// envelope is a gateway frame as it comes, every field of either layout.
type envelope struct {
	T       string          `json:"t"`
	ID      string          `json:"id"`
	AgentID string          `json:"agent_id"`
	Version string          `json:"version"`
	Error   string          `json:"error"`
	MatchID string          `json:"match_id"`
	Game    json.RawMessage `json:"game"`
	Seat    *int            `json:"seat"`
	Seq     int             `json:"seq"`
	Kind    string          `json:"kind"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
	View    json.RawMessage `json:"view"`
	Result  json.RawMessage `json:"result"`
}

// bodyFields are the match fields a body (a view, an initialize payload,
// a result) may carry itself rather than the envelope.
type bodyFields struct {
	MatchID string          `json:"match_id"`
	Game    json.RawMessage `json:"game"`
	Seat    *int            `json:"seat"`
}

// Readings of a frame: where its parts were found. The reference's
// readings (the platform's and the SDK's) are listed in refReadings.
const (
	readPayload  = "payload"
	readView     = "view"
	readResult   = "result"
	readKind     = "kind"
	readType     = "type"
	readTopLevel = "top level"
	readNoGame   = "no game in the view"
	// readSeatCards: a Goofspiel history round with only the seat's own
	// your_card and opp_card (remoteplay's RoundView), no cards by seat.
	readSeatCards = "your_card and opp_card only"
)

// refReadings is where the reference (PYYOL-REF-FRAMES, after agentgw's
// frame.go and runtime.py) puts each part; any other reading is at most a
// REFERENCE warning.
var refReadings = map[string]string{
	"turn view":         readPayload,
	"turn view's game":  "",
	"initialize fields": readPayload,
	"game_end result":   readPayload,
	"event type":        readKind,
	"game_end history":  "",
}

// decodeFrame reads raw into the model. A frame that is no JSON object
// with a t fails PYYOL-WS-ENVELOPE; anything else decodes, and the
// readings other than the reference's come back for a warning.
func decodeFrame(raw json.RawMessage) (frame, []string, error) {
	var e envelope
	if err := json.Unmarshal(raw, &e); err != nil || e.T == "" {
		return frame{}, nil, verdict.Failf("PYYOL-WS-ENVELOPE", `a JSON object {"t": ...}`, string(raw), "a frame from the gateway")
	}
	f := frame{T: e.T, ID: e.ID, AgentID: e.AgentID, Version: e.Version, Error: e.Error,
		MatchID: e.MatchID, Game: e.Game, Seat: e.Seat, Seq: e.Seq, wire: raw, decoded: &decodedPayload{}}
	var read map[string]string
	switch e.T {
	case "turn":
		read = f.readTurn(e)
	case "initialize":
		read = f.readInitialize(e, raw)
	case "game_end":
		f.Result, read = pick(e.Payload, e.Result, readPayload, readResult, "game_end result")
		f.Body = f.Result
		f.fillFromBody()
		if f.seatCards() {
			read["game_end history"] = readSeatCards
		}
	case "event":
		f.Type, f.Payload, read = e.Kind, e.Payload, map[string]string{"event type": readKind}
		if e.Kind == "" && e.Type != "" {
			f.Type, read["event type"] = e.Type, readType
		}
	}
	f.fillFromBody()
	return f, offReference(read), nil
}

// readTurn finds a turn's view in payload or view.
func (f *frame) readTurn(e envelope) map[string]string {
	var read map[string]string
	f.Body, read = pick(e.Payload, e.View, readPayload, readView, "turn view")
	if !isObject(f.Body) {
		return read
	}
	var b bodyFields
	json.Unmarshal(f.Body, &b)
	f.applyBody(b) // the body is read once: fillFromBody finds them filled
	if !isString(b.Game) {
		// The SDK hands a turn to its handler by payload.game: a view
		// naming no game plays the fallback there.
		read["turn view's game"] = readNoGame
	}
	// The Goofspiel reading of the view, unless the frame or the view
	// names another game (a Monopoly view is large; its checks read Body).
	var game string
	if json.Unmarshal(e.Game, &game) != nil || game == "" {
		json.Unmarshal(b.Game, &game)
	}
	if game != "mafia" && game != "monopoly" {
		var v goofspiel.View
		if json.Unmarshal(f.Body, &v) == nil {
			f.View = &v
		}
	}
	return read
}

// readInitialize finds initialize's fields in payload or at the top
// level of the frame.
func (f *frame) readInitialize(e envelope, raw json.RawMessage) map[string]string {
	if isObject(e.Payload) {
		f.Body = e.Payload
		return map[string]string{"initialize fields": readPayload}
	}
	f.Body = raw
	return map[string]string{"initialize fields": readTopLevel}
}

// fillFromBody takes match_id, game and seat from the body where the
// envelope lacks them.
func (f *frame) fillFromBody() {
	if !isObject(f.Body) || (f.MatchID != "" && len(f.Game) > 0 && f.Seat != nil) {
		return
	}
	var b bodyFields
	json.Unmarshal(f.Body, &b)
	f.applyBody(b)
}

// applyBody fills the match fields the envelope lacks from its body's.
func (f *frame) applyBody(b bodyFields) {
	if f.MatchID == "" {
		f.MatchID = b.MatchID
	}
	if len(f.Game) == 0 {
		f.Game = b.Game
	}
	if f.Seat == nil {
		f.Seat = b.Seat
	}
}

// pick returns the first of two places that holds an object (else the
// first that holds anything), with the reading that found it.
func pick(first, second json.RawMessage, firstName, secondName, part string) (json.RawMessage, map[string]string) {
	switch {
	case isObject(first) || (len(first) > 0 && len(second) == 0):
		return first, map[string]string{part: firstName}
	case len(second) > 0:
		return second, map[string]string{part: secondName}
	}
	return nil, map[string]string{}
}

// offReference lists the readings that differ from the reference's, in a
// stable order, each as one sentence.
func offReference(read map[string]string) []string {
	var out []string
	for _, part := range []string{"turn view", "turn view's game", "initialize fields", "game_end result", "game_end history", "event type"} {
		got, ok := read[part]
		if ok && got != refReadings[part] {
			out = append(out, fmt.Sprintf("%s: %s (the platform's agentgw and the SDK's runtime.py: %s)", part, got, refWord(part)))
		}
	}
	return out
}

// refWord names the reference's reading of part for a finding.
func refWord(part string) string {
	switch part {
	case "turn view's game":
		return "the view names its game, which the SDK dispatches on"
	case "game_end history":
		return "cards by absolute seat beside your_card and opp_card"
	}
	return refReadings[part]
}

// seatCards fills, in a Goofspiel result whose history rounds give only
// the seat's your_card and opp_card, the cards by absolute seat the
// checks replay, from the result's seat; true when it did.
func (f *frame) seatCards() bool {
	var res map[string]json.RawMessage
	var rounds []map[string]json.RawMessage
	if f.Seat == nil || (*f.Seat != 0 && *f.Seat != 1) || json.Unmarshal(f.Result, &res) != nil || json.Unmarshal(res["history"], &rounds) != nil {
		return false
	}
	filled := false
	for _, r := range rounds {
		var mine, theirs *int
		if _, ok := r["cards"]; ok || json.Unmarshal(r["your_card"], &mine) != nil || json.Unmarshal(r["opp_card"], &theirs) != nil || mine == nil || theirs == nil {
			continue
		}
		cards := [2]int{}
		cards[*f.Seat], cards[1-*f.Seat] = *mine, *theirs
		r["cards"], _ = json.Marshal(cards)
		filled = true
	}
	if filled {
		res["history"], _ = json.Marshal(rounds)
		f.Result, _ = json.Marshal(res)
		f.Body = f.Result
	}
	return filled
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	return bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{"))
}

// isString reports whether raw is a JSON string.
func isString(raw json.RawMessage) bool {
	return bytes.HasPrefix(bytes.TrimSpace(raw), []byte(`"`))
}

// layoutNote keeps one PYYOL-REF-FRAMES warning per reading a target
// used that is not the reference's: a layout the docs leave open never
// fails a check.
func (g *gwRun) layoutNote(readings []string) {
	for _, r := range readings {
		if g.readings == nil {
			g.readings = map[string]bool{}
		}
		if g.readings[r] {
			continue
		}
		g.readings[r] = true
		g.env.HTTP.Recorder().Finding(verdict.Failf("PYYOL-REF-FRAMES", "the reference's layout", r, "a frame layout the docs leave open"))
	}
}

// moveResponse is the runner's answer to a turn, in a form every reading
// accepts: the move in payload (the SDK) and in move (the kit's earlier
// layout).
func moveResponse(id string, move any) map[string]any {
	return map[string]any{"t": "response", "id": id, "payload": move, "move": move}
}

// readyResponse acknowledges initialize in both readings: payload
// {ready, display_name} (runtime.py's ack) and ready at the top level.
func readyResponse(id string) map[string]any {
	return map[string]any{"t": "response", "id": id, "ready": true,
		"payload": map[string]any{"ready": true, "display_name": "conformance-kit"}}
}

// pongFor answers a gateway's ping, echoing its id as the SDK does.
func pongFor(ping frame) map[string]string {
	return map[string]string{"t": "pong", "id": ping.ID}
}

// document is the whole frame decoded as plain JSON values, for the
// checks that search a frame by value wherever a layout puts it (a
// secret leaked under any key); nil when it does not decode.
func (f frame) document() any {
	var doc any
	if json.Unmarshal(f.wire, &doc) != nil {
		return nil
	}
	return doc
}

// bodyTree is the decoded body of a turn whose tree was kept: the part of
// it pick chose as the body (payload when it holds an object or is the
// only one, else view); nil without a tree.
func (f *frame) bodyTree() any {
	m, ok := f.tree.(map[string]any)
	if !ok {
		return nil
	}
	p, hasPayload := m["payload"]
	v, hasView := m["view"]
	if _, obj := p.(map[string]any); obj || (hasPayload && !hasView) {
		return p
	}
	return v
}
