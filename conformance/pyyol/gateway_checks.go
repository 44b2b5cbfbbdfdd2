package pyyol

import (
	"fmt"
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// views checks every turn view against what the agent saw resolve: the
// hand is 1..13 without the agent's own bids, legal_actions equals it, the
// history is every resolved round seen from the agent's seat, scores are
// by absolute seat (PYYOL-GOOF-VIEW and the rules beside it).
func (g *gwRun) views() error {
	if len(g.turns) == 0 {
		return verdict.Failf("PYYOL-WS-TURN", "turn frames", "none", "the match")
	}
	for _, t := range g.turns {
		v := t.View
		if v.Seat != g.seat {
			return verdict.Failf("PYYOL-GOOF-VIEW", g.seat, v.Seat, "the view's seat in round %d", v.Round)
		}
		hand := g.expectedHand(v.Round)
		if !slices.Equal(sorted(v.YourHand), hand) {
			return verdict.Failf("PYYOL-GOOF-HANDS", hand, v.YourHand, "your_hand in round %d: 1..13 without the seat's earlier bids", v.Round)
		}
		if !slices.Equal(sorted(v.LegalActions), sorted(v.YourHand)) {
			return verdict.Failf("PYYOL-GOOF-LEGAL-ACTIONS", v.YourHand, v.LegalActions, "legal_actions in round %d", v.Round)
		}
		if err := g.historyMatches(v); err != nil {
			return err
		}
	}
	return nil
}

func sorted(xs []int) []int { return slices.Sorted(slices.Values(xs)) }

// expectedHand is 1..13 without the agent's bids before round n.
func (g *gwRun) expectedHand(n int) []int {
	var hand []int
	for c := 1; c <= goofspiel.StandardCards; c++ {
		hand = append(hand, c)
	}
	for i := 0; i < n; i++ {
		if r, ok := g.roundOf(i); ok {
			hand = slices.DeleteFunc(hand, func(c int) bool { return c == r.Cards[g.seat] })
		}
	}
	return hand
}

// historyMatches compares a view's history with the resolved rounds.
func (g *gwRun) historyMatches(v *goofspiel.View) error {
	if len(v.History) != v.Round {
		return verdict.Failf("PYYOL-GOOF-HISTORY", v.Round, len(v.History), "history entries in round %d's view", v.Round)
	}
	for _, h := range v.History {
		r, ok := g.roundOf(h.Round)
		if !ok {
			continue
		}
		want := goofspiel.SeatHistory([]goofspiel.Round{r}, g.seat)[0]
		if h != want {
			return verdict.Failf("PYYOL-GOOF-HISTORY", want, h, "history entry %d in round %d's view", h.Round, v.Round)
		}
		if r.Round == v.Round-1 && v.Scores != r.Scores {
			return verdict.Failf("PYYOL-GOOF-SCORES-ABSOLUTE", r.Scores, v.Scores, "scores by seat in round %d", v.Round)
		}
	}
	return nil
}

// rules is the rule set the match announced.
func (g *gwRun) rules() goofspiel.Rules {
	created, _ := g.payload(goofspiel.MatchCreated)
	r := goofspiel.Standard()
	if s, ok := created["tie_rule"].(string); ok {
		r.TieRule = s
	}
	if s, ok := created["fairness_mode"].(string); ok {
		r.FairnessMode = s
	}
	return r
}

// rounds replays every resolved round: the higher card takes the pool,
// ties carry or split, the pool is the prize plus what was carried.
func (g *gwRun) rounds() error {
	rules := g.rules()
	carried, scores := 0, [2]int{}
	for n := 0; n < goofspiel.StandardCards; n++ {
		r, ok := g.roundOf(n)
		if !ok {
			return verdict.Failf("PYYOL-GOOF-ROUNDS", "round_revealed for round "+fmt.Sprint(n), "none", "13 rounds")
		}
		if r.PrizePool != r.Prize+carried {
			return verdict.Failf(tieRule(rules), r.Prize+carried, r.PrizePool, "prize_pool of round %d (prize %d, %d carried)", n, r.Prize, carried)
		}
		winner := -1
		switch {
		case r.Cards[0] > r.Cards[1]:
			winner = 0
		case r.Cards[1] > r.Cards[0]:
			winner = 1
		}
		carried = 0
		switch {
		case winner >= 0:
			scores[winner] += r.PrizePool
		case rules.TieRule == goofspiel.Split:
			scores[0] += r.PrizePool / 2
			scores[1] += r.PrizePool / 2
			carried = r.PrizePool % 2
		default:
			carried = r.PrizePool
		}
		if r.Winner != winner || r.Scores != scores {
			rule := "PYYOL-GOOF-RESOLVE"
			if winner < 0 {
				rule = tieRule(rules)
			}
			return verdict.Failf(rule, fmt.Sprintf("winner %d, scores %v", winner, scores),
				fmt.Sprintf("winner %d, scores %v", r.Winner, r.Scores), "round %d with cards %v", n, r.Cards)
		}
	}
	return nil
}

func tieRule(r goofspiel.Rules) string {
	if r.TieRule == goofspiel.Split {
		return "PYYOL-GOOF-TIE-SPLIT"
	}
	return "PYYOL-GOOF-TIE-CARRY"
}

// sealed checks that card_sealed carries no card and no view shows the
// opponent's bid of the round being bid.
func (g *gwRun) sealed() error {
	for _, e := range g.events {
		if e.Type != goofspiel.CardSealed {
			continue
		}
		p := map[string]any{}
		_ = jsonInto(e.Payload, &p)
		for _, k := range []string{"card", "cards", "bid"} {
			if _, ok := p[k]; ok {
				return verdict.Failf("PYYOL-GOOF-SEALED", "no card value", describe(p), "card_sealed payload")
			}
		}
	}
	return nil
}

func (g *gwRun) winner() error {
	res, err := g.result()
	if err != nil {
		return err
	}
	want := -1
	switch {
	case res.Scores[0] > res.Scores[1]:
		want = 0
	case res.Scores[1] > res.Scores[0]:
		want = 1
	}
	if res.Winner != want {
		return verdict.Failf("PYYOL-GOOF-WINNER", want, res.Winner, "winner for scores %v", res.Scores)
	}
	return nil
}

func (g *gwRun) openOrder() error {
	if g.rules().FairnessMode != goofspiel.Open {
		return verdict.Skipf("the target did not honour the practice request for open prizes (PYYOL-REF-PRACTICE-RULES)")
	}
	for n := 0; n < goofspiel.StandardCards; n++ {
		if r, ok := g.roundOf(n); ok && r.Prize != n+1 {
			return verdict.Failf("PYYOL-GOOF-OPEN", n+1, r.Prize, "the prize of round %d in open mode", n)
		}
	}
	return nil
}
