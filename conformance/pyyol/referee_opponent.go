package pyyol

import (
	"slices"

	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// Opponent is the seat the kit plays against a pushed agent in Goofspiel
// (PYYOL-REF-BASELINE is the gateway's bot; this one is the push
// referee's): for a prize of 7 or more, one above the prize card when it
// holds that card; otherwise its lowest card. The reference agent bids
// the prize card itself, so an opponent that did the same tied every
// round and every simulated match ended 0:0; this one contests the big
// prizes and concedes the small ones, so a match shows both sides score.
func Opponent(v goofspiel.View) goofspiel.Move {
	if v.CurrentPrize >= 7 && slices.Contains(v.LegalActions, v.CurrentPrize+1) {
		return goofspiel.Move{Round: v.Round, Card: v.CurrentPrize + 1}
	}
	return goofspiel.Move{Round: v.Round, Card: slices.Min(v.LegalActions)}
}
