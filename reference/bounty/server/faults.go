package server

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/agentgames/conformance/reference/faults"
)

// RoundRotated names the fault that rotates the round in the middle of
// play; the server brings it about (faults.Injected) before routing.
const RoundRotated = "round_rotated"

// Faults are the failures the contract documents, which reference/faults
// injects on demand. The contract documents one: a round that closes while
// an agent plays it ("Winning closes the round and opens the next one
// immediately"; "If your challenge_id answers 410, the round you were
// reading closed"). It acts through the server: the house coalition wins
// the live round (Engine.HouseWin), so the registry names the next round
// and the request, on a round-bound endpoint, meets the real 410
// round_closed (BOUNTY-STALE-410). The contract documents no rate limit,
// quota or outage answer, so none is injected.
func Faults() []faults.Fault {
	return []faults.Fault{{
		Name: RoundRotated, Rule: "BOUNTY-STALE-410", Status: http.StatusGone, Through: true,
		Doc:     "a rotation in the middle of play: the round closes (another coalition won), its challenge_id answers 410",
		Applies: roundBound,
	}}
}

// roundBound reports whether a request goes to an endpoint a closed round
// answers 410 on: manifest, puzzle, solve, combine and peers of a
// challenge, over HTTP or as the MCP tool standing for it. Its status and metrics stay readable (BOUNTY-CLOSED-READABLE)
// and its next_move answers done with the live challenge (BOUNTY-NEXT-SPREAD).
func roundBound(method, path string, body []byte) bool {
	if method == http.MethodPost && path == "/mcp" {
		return roundBoundTool(body)
	}
	rest, ok := strings.CutPrefix(path, "/challenge/")
	if !ok {
		return false
	}
	_, tail, _ := strings.Cut(rest, "/")
	switch tail {
	case "", "status", "metrics", "next_move":
		return false
	}
	return true
}

// roundBoundTool reports whether an MCP request calls a tool that stands
// for a round-bound endpoint (the rotation reaches MCP agents too: one
// engine behind both surfaces).
func roundBoundTool(body []byte) bool {
	var call struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &call) != nil || call.Method != "tools/call" {
		return false
	}
	switch call.Params.Name {
	case "bounty_manifest", "bounty_puzzle", "bounty_solve", "bounty_combine", "bounty_peers", "bounty_list":
		return true
	}
	return false
}
