package pyyol

import (
	"errors"
	"fmt"
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/mafia"
)

// errReferenceOnly marks a pushed Mafia move that only the kit's
// reference rules refuse.
var errReferenceOnly = errors.New("refused by the kit's reference rules only")

// mafiaRefusal judges a pushed Mafia move the engine refused (why) by
// what the contract fixes (PYYOL-MAFIA-MOVE): an action from legal and,
// for the targeted actions, a seat of the table. Anything else the
// engine refuses (a dead seat, one's own seat, a fellow Mafia, a long
// message) is a reference choice: errReferenceOnly.
func mafiaRefusal(v mafia.View, mv mafia.Move, body []byte, why error) error {
	seats := len(v.Alive)
	switch {
	case !slices.Contains(v.Legal, mv.Action):
		return verdict.Failf("PYYOL-MAFIA-MOVE", fmt.Sprintf("one of legal %v", v.Legal), string(body), "the agent's move is illegal: %v", why)
	case mv.Action != mafia.ActMessage && (mv.Target == nil || *mv.Target < 0 || *mv.Target >= seats):
		return verdict.Failf("PYYOL-MAFIA-MOVE", fmt.Sprintf("a target seat 0..%d", seats-1), string(body), "the agent's move is illegal: %v", why)
	}
	return errReferenceOnly
}

// mafiaReferenceRule is the reference choice a legal-shaped move broke.
func mafiaReferenceRule(mv mafia.Move) string {
	if mv.Action == mafia.ActMessage {
		return "PYYOL-MAFIA-REF-TEXT"
	}
	return "PYYOL-MAFIA-REF-TARGETS"
}
