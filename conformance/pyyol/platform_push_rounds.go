package pyyol

import (
	"fmt"
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
)

// Rounds recomputed from what the run saw: a Goofspiel seat plays each
// card of its hand once (games.md), and a view and a result tell the
// rounds resolved before them. These checks read only the view's or the
// result's own parts and the /turn rounds the platform pushed, so they
// hold whichever base (0 or 1) the platform numbers rounds from.

// judgeViewRounds: a /turn view is the current one (PYYOL-PLAT-TURN-BODY,
// "a redacted view"): no card its own history shows the seat played is
// still among its legal actions, and its history ends with the round just
// before the view's round. A view whose history carries no round numbers,
// or has none yet, is not judged on the second point.
func judgeViewRounds(v turnView) error {
	for _, h := range v.history {
		if h.card >= 0 && slices.Contains(v.hand, h.card) {
			return verdict.Failf("PYYOL-PLAT-TURN-BODY", fmt.Sprintf("legal actions without card %d, played in round %d", h.card, h.round),
				fmt.Sprintf("legal actions %v", v.hand), "the platform's /turn view")
		}
	}
	if len(v.history) == 0 || v.round < 0 {
		return nil
	}
	if last := v.history[len(v.history)-1].round; last >= 0 && last != v.round-1 {
		return verdict.Failf("PYYOL-PLAT-TURN-BODY", fmt.Sprintf("a history ending with round %d, the one before round %d", v.round-1, v.round),
			fmt.Sprintf("its last round %d", last), "the platform's /turn view")
	}
	return nil
}

// judgeResultCoversTurns: a final result's history holds a row for every
// round the platform pushed a /turn for (PYYOL-PLAT-GAME-END-BODY, "the
// final result"): a result whose history is shorter was built before the
// match ended. Rows are counted, not their round numbers compared, so a
// result numbered from another base than the views is read alike.
func judgeResultCoversTurns(res map[string]any, turnRounds int) error {
	h := list(res["history"])
	if len(h) == 0 || len(h) >= turnRounds {
		return nil
	}
	return verdict.Failf("PYYOL-PLAT-GAME-END-BODY", fmt.Sprintf("a history of %d rounds, one for each round the platform pushed a /turn for", turnRounds),
		fmt.Sprintf("%d rounds", len(h)), "the platform's /game-end result")
}

// turnRounds counts the distinct rounds of the /turn views pushed for
// match (every /turn when match is empty or a body names none); a retried
// /turn counts its round once.
func (s *platSession) turnRounds(match string) int {
	seen := map[int]bool{}
	for _, t := range s.routeRequests("/turn") {
		if id, _ := decodeObject(t.body)["match_id"].(string); match != "" && id != "" && id != match {
			continue
		}
		if r := readTurnView(t.body).round; r >= 0 {
			seen[r] = true
		}
	}
	return len(seen)
}
