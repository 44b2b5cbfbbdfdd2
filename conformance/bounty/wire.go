package bounty

import (
	"github.com/agentgames/conformance/reference/bounty"
)

// entryWire is one board entry as GET peers shows it (and as the vectors
// spell it): working_on is null or a share index.
type entryWire struct {
	AgentID    string  `json:"agent_id"`
	SharesHeld []int   `json:"shares_held"`
	WorkingOn  *int    `json:"working_on"`
	ExpiresInS float64 `json:"expires_in_s"`
	Contact    string  `json:"contact"`
}

// boardWire is the part of a board the advisory signals are computed from.
type boardWire struct {
	Round          int         `json:"round"`
	K              int         `json:"k"`
	N              int         `json:"n"`
	CombinableForS float64     `json:"combinable_for_s"`
	StalledForS    float64     `json:"stalled_for_s"`
	Entries        []entryWire `json:"entries"`
}

func (b boardWire) board() bounty.Board {
	out := bounty.Board{Round: b.Round, K: b.K, N: b.N, CombinableForS: b.CombinableForS, StalledForS: b.StalledForS}
	for _, e := range b.Entries {
		out.Entries = append(out.Entries, e.entry())
	}
	return out
}

func (e entryWire) entry() bounty.Entry {
	w := 0
	if e.WorkingOn != nil {
		w = *e.WorkingOn
	}
	return bounty.Entry{AgentID: e.AgentID, SharesHeld: e.SharesHeld, WorkingOn: w, ExpiresInS: e.ExpiresInS}
}

// moveView is the comparable part of a move: every field the policy fixes.
type moveView struct {
	Move       string        `json:"move"`
	ShareIndex int           `json:"share_index"`
	Roster     []bounty.Pair `json:"roster"`
	Broker     string        `json:"broker"`
	FirstMover bool          `json:"first_mover"`
	Join       bool          `json:"join"`
	Refresh    bool          `json:"refresh"`
}

func viewOf(m bounty.Move) moveView {
	v := moveView{Move: m.Move, ShareIndex: m.ShareIndex, Roster: m.Roster, Broker: m.Broker,
		FirstMover: m.FirstMover, Join: m.Join, Refresh: m.Refresh}
	if v.Roster == nil {
		v.Roster = []bounty.Pair{}
	}
	return v
}
