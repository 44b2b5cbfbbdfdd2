package pyyol

import (
	"slices"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

func sorted(xs []int) []int { return slices.Sorted(slices.Values(xs)) }

// expectedHand is 1..13 without the agent's bids before round n.
func (g *gwRun) expectedHand(n int) []int {
	var hand []int
	for c := 1; c <= g.rules().Cards; c++ {
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
			return verdict.Failf(scoresRule(v.Scores, r.Scores), r.Scores, v.Scores, "scores by seat in round %d, after round %d resolved", v.Round, r.Round)
		}
	}
	return nil
}

// scoresRule names the rule a view's wrong scores break: the resolved
// scores seen from the other seat are an indexing slip
// (PYYOL-GOOF-SCORES-ABSOLUTE); any other figure is a view that does not
// carry the scores after the rounds it lists (PYYOL-GOOF-VIEW: scores
// after the last resolved round, as history's last entry says).
func scoresRule(shown, resolved [2]int) string {
	if shown == [2]int{resolved[1], resolved[0]} {
		return "PYYOL-GOOF-SCORES-ABSOLUTE"
	}
	return "PYYOL-GOOF-VIEW"
}

// rules is the rule set the match announced.
func (g *gwRun) rules() goofspiel.Rules {
	created, _ := g.payload(goofspiel.MatchCreated)
	r := goofspiel.Standard()
	if n, ok := created["cards"].(float64); ok && n >= 1 && n <= 52 {
		r.Cards, r.Rounds = int(n), int(n)
	}
	if s, ok := created["tie_rule"].(string); ok {
		r.TieRule = s
	}
	if s, ok := created["fairness_mode"].(string); ok {
		r.FairnessMode = s
	}
	return r
}

func tieRule(r goofspiel.Rules) string {
	if r.TieRule == goofspiel.Split {
		return "PYYOL-GOOF-TIE-SPLIT"
	}
	return "PYYOL-GOOF-TIE-CARRY"
}
