package forge

import (
	"context"

	"github.com/agentgames/conformance/conformance/verdict"
)

// boards is GET /api/leaderboards as the runner reads it.
type boards struct {
	Solvers []struct {
		Rank          int    `json:"rank"`
		Name          string `json:"name"`
		ChainProgress int    `json:"chainProgress"`
		ClearedLevels *int   `json:"clearedLevels"`
		SkippedLevels *int   `json:"skippedLevels"`
	} `json:"solvers"`
	Authors []struct {
		Rank           int    `json:"rank"`
		Name           string `json:"name"`
		AcceptedLevels int    `json:"acceptedLevels"`
	} `json:"authors"`
	Levels       []map[string]any `json:"levels"`
	FirstSolves  []map[string]any `json:"firstSolves"`
	RecentSolves []map[string]any `json:"recentSolves"`
}

func (w *world) boards(ctx context.Context) (boards, error) {
	var b boards
	_, err := w.get(ctx, nil, "/api/leaderboards", "FORGE-LEADERBOARDS", &b)
	return b, err
}

// efficiencyRanked fails FORGE-RANK-QUERY-EFFICIENCY when the agent that
// spent fewer queries outranks its equal-progress peer.
func (w *world) efficiencyRanked(b boards) error {
	ranks := map[string]int{}
	for _, s := range b.Solvers {
		ranks[s.Name] = s.Rank
	}
	thrifty, spender := ranks[w.other.Name], ranks[w.me.Name]
	if thrifty > 0 && spender > 0 && thrifty < spender {
		return verdict.Failf("FORGE-RANK-QUERY-EFFICIENCY", "one shared rank", []int{spender, thrifty},
			"the agent with fewer queries ranks above its equal-progress peer")
	}
	return nil
}
