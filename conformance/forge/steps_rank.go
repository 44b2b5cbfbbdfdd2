package forge

import (
	"context"
	"encoding/json"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
)

// boards is GET /api/leaderboards as the runner reads it.
type boards struct {
	Solvers []struct {
		Rank          int    `json:"rank"`
		Name          string `json:"name"`
		ChainProgress int    `json:"chainProgress"`
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

func (w *world) rankingSteps(sc *godog.ScenarioContext) {
	sc.Step(`^both clear their first level, one with more queries than the other$`, w.bothClear)
	sc.Step(`^the leaderboard ranks solvers by chain progress with shared ranks$`, w.ranksJudged)
	sc.Step(`^the two agents share a rank$`, w.shareRank)
	sc.Step(`^the agent clears its first level$`, w.solveOne)
	sc.Step(`^every activity entry has a position and no levelId, title, author, rules or examples$`, w.activityJudged)
}

func (w *world) boards(ctx context.Context) (boards, error) {
	var b boards
	_, err := w.get(ctx, nil, "/api/leaderboards", "FORGE-LEADERBOARDS", &b)
	return b, err
}

func (w *world) bothClear(ctx context.Context) error {
	if _, _, err := w.clear(ctx, w.me, 0); err != nil {
		return err
	}
	_, _, err := w.clear(ctx, w.other, 4)
	return err
}

// ranksJudged: rank = 1 + the number of solvers with strictly more chain
// progress (FORGE-RANK-PROGRESS, FORGE-RANK-TIES).
func (w *world) ranksJudged(ctx context.Context) error {
	b, err := w.boards(ctx)
	if err != nil {
		return err
	}
	for i, s := range b.Solvers {
		ahead := 0
		for _, o := range b.Solvers {
			if o.ChainProgress > s.ChainProgress {
				ahead++
			}
		}
		if s.Rank != ahead+1 {
			rule := "FORGE-RANK-PROGRESS"
			if i > 0 && b.Solvers[i-1].ChainProgress == s.ChainProgress {
				rule = "FORGE-RANK-TIES"
			}
			return verdict.Failf(rule, ahead+1, s.Rank, "solver %q with chain progress %d", s.Name, s.ChainProgress)
		}
	}
	return nil
}

func (w *world) shareRank(ctx context.Context) error {
	b, err := w.boards(ctx)
	if err != nil {
		return err
	}
	ranks := map[string]int{}
	for _, s := range b.Solvers {
		ranks[s.Name] = s.Rank
	}
	r1, ok1 := ranks[w.me.Name]
	r2, ok2 := ranks[w.other.Name]
	switch {
	case !ok1 || !ok2:
		return verdict.Failf("FORGE-RANK-PROGRESS", "both solvers ranked", ranks, "agents who cleared a level")
	case r1 != r2:
		return verdict.Failf("FORGE-RANK-QUERY-EFFICIENCY", "one shared rank", []int{r1, r2}, "equal progress, unequal queries")
	}
	return nil
}

// activityJudged (FORGE-ACTIVITY-POSITION-ONLY, FORGE-ACTIVITY-FORBIDDEN-FIELDS).
func (w *world) activityJudged(ctx context.Context) error {
	b, err := w.boards(ctx)
	if err != nil {
		return err
	}
	forbidden := []string{"levelId", "title", "author", "rules", "examples"}
	for name, arr := range map[string][]map[string]any{"levels": b.Levels, "firstSolves": b.FirstSolves, "recentSolves": b.RecentSolves} {
		for _, e := range arr {
			if _, ok := e["position"]; !ok {
				return verdict.Failf("FORGE-ACTIVITY-POSITION-ONLY", "a position", e, "an entry of %s", name)
			}
			var doc any
			raw, _ := json.Marshal(e)
			_ = json.Unmarshal(raw, &doc)
			if k := findKey(doc, forbidden); k != "" {
				return verdict.Failf("FORGE-ACTIVITY-FORBIDDEN-FIELDS", "position and statistics only", "field "+k, "an entry of %s", name)
			}
		}
	}
	if len(b.RecentSolves) == 0 && len(b.FirstSolves) == 0 {
		w.note("FORGE-REF-LEADERBOARD-SHAPE", "the solve just made in the activity", "no activity", "GET /api/leaderboards")
	}
	return nil
}
