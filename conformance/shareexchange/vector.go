package shareexchange

import (
	"encoding/json"
	"fmt"

	"github.com/agentgames/conformance/reference/bounty"
	rsx "github.com/agentgames/conformance/reference/shareexchange"
)

// boardInput is a vector's board: the live challenge and its listings
// with their contacts.
type boardInput struct {
	ChallengeID    string  `json:"challenge_id"`
	Round          int     `json:"round"`
	K              int     `json:"k"`
	N              int     `json:"n"`
	CombinableForS float64 `json:"combinable_for_s"`
	Entries        []struct {
		AgentID    string `json:"agent_id"`
		SharesHeld []int  `json:"shares_held"`
		Contact    string `json:"contact"`
	} `json:"entries"`
}

func (b boardInput) snapshot() bounty.Snapshot {
	board := bounty.Board{Round: b.Round, K: b.K, N: b.N, CombinableForS: b.CombinableForS}
	contacts := map[string]string{}
	for _, e := range b.Entries {
		board.Entries = append(board.Entries, bounty.Entry{AgentID: e.AgentID, SharesHeld: e.SharesHeld, ExpiresInS: bounty.TTLSeconds})
		contacts[e.AgentID] = e.Contact
	}
	return bounty.Snapshot{ChallengeID: b.ChallengeID, Round: b.Round, Board: board, Proximity: bounty.ComputeProximity(board), Contacts: contacts}
}

// Vector recomputes a share-exchange vector: "release" decides a PULL for
// the holder's board holdings, "offer_target" picks whom a holder offers to.
func Vector(kind string, input json.RawMessage) (any, error) {
	var in struct {
		Board  boardInput `json:"board"`
		Pull   rsx.Pull   `json:"pull"`
		Holder string     `json:"holder"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	s := in.Board.snapshot()
	switch kind {
	case "release":
		var held []int
		for _, e := range s.Board.Entries {
			if e.AgentID == in.Pull.AgentID {
				held = e.SharesHeld
			}
		}
		a := rsx.Release(s, held, in.Pull)
		return map[string]any{"status": a.Status, "code": a.Code}, nil
	case "offer_target":
		target, ok := rsx.OfferTarget(s, in.Holder)
		return map[string]any{"target": target, "ok": ok}, nil
	}
	return nil, fmt.Errorf("share-exchange: unknown vector kind %q", kind)
}
