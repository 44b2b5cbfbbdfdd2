package pyyol

import (
	"encoding/json"
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// prizesRevealed: prize_revealed reveals "the prize card for the new
// round" (PYYOL-GOOF-EVENTS, the events table), so a prize_revealed that
// names a prize names the prize of the round it opens, the one that
// round's round_revealed (or game_end's history) names. The round is the
// event's own round when it carries one, else the round the next
// round_revealed in seq order resolves, when no other prize_revealed
// comes between. An event without a numeric prize, or a round the agent
// never saw resolve, decides nothing.
func (g *gwRun) prizesRevealed() error {
	events := slices.Clone(g.events)
	slices.SortStableFunc(events, func(a, b frame) int { return a.Seq - b.Seq })
	for i, e := range events {
		var p struct {
			Round *int `json:"round"`
			Prize *int `json:"prize"`
		}
		if e.Type != goofspiel.PrizeRevealed || json.Unmarshal(e.Payload, &p) != nil || p.Prize == nil {
			continue
		}
		r, ok := g.revealedRound(events[i+1:], p.Round)
		if ok && r.Prize != *p.Prize {
			return verdict.Failf("PYYOL-GOOF-EVENTS", r.Prize, *p.Prize, "prize_revealed seq %d, opening round %d", e.Seq, r.Round)
		}
	}
	return nil
}

// revealedRound is the round a prize_revealed opens, as it resolved: the
// named round, or the first round_revealed of later (seq-ordered) events
// before any other prize_revealed.
func (g *gwRun) revealedRound(later []frame, round *int) (goofspiel.Round, bool) {
	if round != nil {
		return g.roundOf(*round)
	}
	for _, e := range later {
		switch e.Type {
		case goofspiel.PrizeRevealed:
			return goofspiel.Round{}, false
		case goofspiel.RoundRevealed:
			var r goofspiel.Round
			return r, json.Unmarshal(e.Payload, &r) == nil
		}
	}
	return goofspiel.Round{}, false
}
