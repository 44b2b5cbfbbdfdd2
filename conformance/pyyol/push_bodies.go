package pyyol

import (
	"bytes"
	"encoding/json"
)

// The bodies the kit pushes as the platform (PYYOL-REF-PUSH-BODIES). Their
// layout is the real platform's (Abik1221/Agentic_World
// backend/internal/agentclient/lifecycle.go, remoteplay/goofspiel.go) and
// what the official SDK reads (sdk/python/pyyol/server.py, models.py): the
// turn view at the top level of the /turn body, beside match_id and game,
// which the SDK dispatches on. Where the docs fix more than the platform
// sends, the docs win: every body carries "protocol": "1.0"
// (PYYOL-PUSH-PROTOCOL-FIELD; Referee.send adds it), the bare /turn view
// too.

// kitPlatform names the kit in the handshake's platform field.
const kitPlatform = "agentgames-conformance"

// handshakeBody is the capability check's body: {platform, protocol}.
func handshakeBody() map[string]any { return map[string]any{"platform": kitPlatform} }

// turnBody is a /turn body: the view's own fields at the top level, with
// match_id and game. A view that does not encode as a JSON object (never
// one of the kit's) is sent under "view" so nothing is lost.
func turnBody(matchID, game string, view any) map[string]any {
	body := map[string]any{}
	raw, err := json.Marshal(view)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err != nil || dec.Decode(&body) != nil || body == nil {
		body = map[string]any{"view": view}
	}
	body["match_id"], body["game"] = matchID, game
	return body
}

// initializeBody is the match start: {match_id, game, seat, role?,
// players, config}; role only for a game that deals one (Mafia).
func initializeBody(matchID, game string, seat int, role string, players int, config any) map[string]any {
	body := map[string]any{"match_id": matchID, "game": game, "seat": seat, "players": players, "config": config}
	if role != "" {
		body["role"] = role
	}
	return body
}

// eventBody is one public event: {match_id, game, seq, type, payload}.
func eventBody(matchID, game string, seq int, typ string, payload any) map[string]any {
	return map[string]any{"match_id": matchID, "game": game, "seq": seq, "type": typ, "payload": payload}
}

// gameEndBody is the final result: {match_id, game, result}.
func gameEndBody(matchID, game string, result any) map[string]any {
	return map[string]any{"match_id": matchID, "game": game, "result": result}
}
