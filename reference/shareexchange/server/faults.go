package server

import (
	"net/http"

	bountyserver "github.com/agentgames/conformance/reference/bounty/server"
	"github.com/agentgames/conformance/reference/faults"
)

// Faults are the failures the convention documents, which reference/faults
// injects on demand. Of its refusals only one can befall a well-behaved
// peer through no fault of its own: stale_round, 409, "challenge_id is not
// the live round", when the round rotates between the peer's read of the
// board and its pull or offer. It acts through the server: the house
// coalition wins the platform's live round (bounty.Engine.HouseWin) and
// the responder, reading the rotated board, answers 409 stale_round
// (SX-STALE for a pull, SX-OFFER-STALE for an offer). The convention
// documents no rate limit or outage answer, so none is injected.
func Faults() []faults.Fault {
	return []faults.Fault{{
		Name: bountyserver.RoundRotated, Rule: "SX-STALE", Status: http.StatusConflict, Through: true,
		Doc:     "stale_round: the round rotates between the board read and the pull or offer",
		Applies: func(method, path string, _ []byte) bool { return method == http.MethodPost && path == "/" },
	}}
}
