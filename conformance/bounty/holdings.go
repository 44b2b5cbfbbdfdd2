package bounty

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
)

// holdingsAsSolved compares, on every board the runner reads, the
// shares_held of each agent the runner itself listed or solved with in
// round cid with the solves of that round it saw accepted: "shares_held on
// the board is derived from accepted solves only" (BOUNTY-HOLDINGS). It
// runs before any check that derives from the board's holdings
// (proximity, roster, election), so a wrong holding is named as such and
// not as the wrong matching it leads to.
func (c *client) holdingsAsSolved(cid string, b *boardDoc) error {
	a := c.acts[cid]
	if a == nil {
		return nil
	}
	for _, e := range b.Peers {
		want, known := a.heldBy(e.AgentID)
		if !known {
			continue
		}
		got := slices.Clone(e.SharesHeld)
		slices.Sort(got)
		got = slices.Compact(got)
		if !slices.Equal(got, want) {
			return verdict.Failf("BOUNTY-HOLDINGS", fmt.Sprintf("shares_held %v (the accepted solves the runner made)", want), e.SharesHeld,
				"%s on the board of %s", e.AgentID, cid)
		}
	}
	return nil
}

// heldBy are the shares the runner saw accepted for agent in the round,
// sorted; known is false for an agent the runner neither listed nor
// solved with there (another player's, or one carried over).
func (a *roundActs) heldBy(agent string) ([]int, bool) {
	known := a.listed[agent]
	held := []int{}
	for key := range a.solved {
		id, share, _ := strings.Cut(key, "/")
		if id != agent {
			continue
		}
		known = true
		if n, err := strconv.Atoi(share); err == nil {
			held = append(held, n)
		}
	}
	slices.Sort(held)
	return held, known
}
