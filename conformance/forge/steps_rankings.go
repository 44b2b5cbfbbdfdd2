package forge

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// rankingsSteps registers the steps of features/forge/rankings.feature.
func (w *world) rankingsSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^both clear their first level, one with more queries than the other$`), w.bothClear)
	sc.Step(pattern(`^the leaderboard ranks solvers by chain progress with shared ranks$`), w.ranksJudged)
	sc.Step(pattern(`^the two agents share a rank$`), w.shareRank)
	sc.Step(pattern(`^the agent clears its first level$`), w.solveOne)
	sc.Step(pattern(`^every activity entry has a position and no levelId, title, author, rules or examples$`), w.activityJudged)
}

// bothClear has the first-registered agent spend 4 extra probes: a board
// that breaks ties by registration favours it, one that breaks them by
// query efficiency favours the other, so the two failures stay apart. A
// third agent that plays nothing gives the board a lower progress to rank.
//
// The board is read once before the clears, so that a board cached then
// is seen stale after them (ranksJudged).
func (w *world) bothClear(ctx context.Context) error {
	if _, err := w.register(ctx, "idle"); err != nil {
		return err
	}
	if _, err := w.boards(ctx); err != nil {
		return err
	}
	if _, _, err := w.clear(ctx, w.me, 4); err != nil {
		return err
	}
	_, _, err := w.clear(ctx, w.other, 0)
	return err
}

// ranksJudged checks, from the most to the least telling: more chain
// progress never ranks worse (FORGE-RANK-PROGRESS); the agent with fewer
// queries does not outrank its peer (FORGE-RANK-QUERY-EFFICIENCY); equal
// progress is one rank (FORGE-RANK-TIES, all the contract's "shared-rank"
// fixes). Only then is the numbering after a tie compared with the
// reference's 1 + the number of solvers ahead (FORGE-REF-RANK-NUMBERING).
func (w *world) ranksJudged(ctx context.Context) error {
	b, err := w.boards(ctx)
	if err != nil {
		return err
	}
	if err := w.ownProgressShown(ctx, b); err != nil {
		return err
	}
	for _, s := range b.Solvers {
		for _, o := range b.Solvers {
			if s.ChainProgress > o.ChainProgress && s.Rank > o.Rank {
				return verdict.Failf("FORGE-RANK-PROGRESS", "more chain progress ranks better", []int{s.Rank, o.Rank},
					"%q (progress %d) ranks below %q (progress %d)", s.Name, s.ChainProgress, o.Name, o.ChainProgress)
			}
		}
	}
	if err := w.efficiencyRanked(b); err != nil {
		return err
	}
	if err := tiesShared(b); err != nil {
		return err
	}
	w.rankNumbering(b)
	return nil
}

// ownProgressShown fails FORGE-RANK-PROGRESS when a row of the two
// agents who cleared shows another chain progress than their own progress
// read after it: a board ranking by a stale progress (a cache filled
// before the clears) ranks by no valid progress. A row missing is left to
// shareRank.
func (w *world) ownProgressShown(ctx context.Context, b boards) error {
	for _, a := range []*agent{w.me, w.other} {
		p, err := w.progress(ctx, a)
		if err != nil {
			return err
		}
		for _, s := range b.Solvers {
			if s.Name == a.Name && s.ChainProgress != p.progress() {
				return verdict.Failf("FORGE-RANK-PROGRESS", p.progress(), s.ChainProgress,
					"solver %q's row, against its own GET /api/progress after its clear", s.Name)
			}
		}
	}
	return nil
}

// tiesShared fails FORGE-RANK-TIES when two solvers of equal chain
// progress hold different ranks.
func tiesShared(b boards) error {
	first := map[int]int{} // chain progress -> index of the first solver with it
	for i, s := range b.Solvers {
		j, seen := first[s.ChainProgress]
		if !seen {
			first[s.ChainProgress] = i
			continue
		}
		if o := b.Solvers[j]; o.Rank != s.Rank {
			return verdict.Failf("FORGE-RANK-TIES", "one shared rank", []int{o.Rank, s.Rank},
				"%q and %q both have chain progress %d", o.Name, s.Name, s.ChainProgress)
		}
	}
	return nil
}

// rankNumbering notes a rank other than the reference's 1 + the number of
// solvers with more progress (FORGE-REF-RANK-NUMBERING): dense numbering
// shares ranks just as well.
func (w *world) rankNumbering(b boards) {
	for _, s := range b.Solvers {
		ahead := 0
		for _, o := range b.Solvers {
			if o.ChainProgress > s.ChainProgress {
				ahead++
			}
		}
		if s.Rank != ahead+1 {
			w.note("FORGE-REF-RANK-NUMBERING", ahead+1, s.Rank, "solver %q with chain progress %d", s.Name, s.ChainProgress)
			return
		}
	}
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
// A position identifies a stage only when it is one: an integer of the
// chain, firstPosition 1 to its length, and the agent's own solve, where
// its row names it, at the position it just cleared (positionOf). A
// stage numbered from 0, an array's index, identifies the wrong stage.
func (w *world) activityJudged(ctx context.Context) error {
	b, err := w.boards(ctx)
	if err != nil {
		return err
	}
	length, err := w.chainLength(ctx)
	if err != nil {
		return err
	}
	forbidden := []string{"levelId", "title", "author", "rules", "examples"}
	for name, arr := range map[string][]map[string]any{"levels": b.Levels, "firstSolves": b.FirstSolves, "recentSolves": b.RecentSolves} {
		for _, e := range arr {
			if _, ok := e["position"]; !ok {
				return verdict.Failf("FORGE-ACTIVITY-POSITION-ONLY", "a position", e, "an entry of %s", name)
			}
			if err := w.positionOf(name, e, length); err != nil {
				return err
			}
			var doc any
			raw, _ := json.Marshal(e)
			_ = json.Unmarshal(raw, &doc)
			if k := findKey(doc, forbidden); k != "" {
				return verdict.Failf("FORGE-ACTIVITY-FORBIDDEN-FIELDS", "position and statistics only", "field "+k, "an entry of %s", name)
			}
			if k, what := w.playedContent(doc); k != "" {
				return verdict.Failf("FORGE-ACTIVITY-FORBIDDEN-FIELDS", "position and statistics only", "the played level's "+what+" under "+k, "an entry of %s", name)
			}
		}
	}
	if len(b.RecentSolves) == 0 && len(b.FirstSolves) == 0 {
		w.note("FORGE-REF-LEADERBOARD-SHAPE", "the solve just made in the activity", "no activity", "GET /api/leaderboards")
	}
	return nil
}

// playedContent finds, by value, the levelId, title or rules of the level
// the agent's session played anywhere in doc, and returns the key holding
// it and what it is: a forbidden field under another name ("label",
// "name", "slug") is the field all the same (FORGE-ACTIVITY-FORBIDDEN-FIELDS;
// docs/detection.md, forge round 6). Values a session left empty are
// never searched.
func (w *world) playedContent(doc any) (string, string) {
	if w.sess == nil || w.sess.Level == nil {
		return "", ""
	}
	l := w.sess.Level
	for _, c := range [][2]string{{l.LevelID, "levelId"}, {l.Title, "title"}, {l.Rules, "rules"}} {
		if c[0] == "" {
			continue
		}
		if k := keyHolding(doc, c[0]); k != "" {
			return k, c[1]
		}
	}
	return "", ""
}

// keyHolding returns the key of the first string equal to s anywhere in a
// JSON document ("[]" for an array's element), "" when none is.
func keyHolding(v any, s string) string {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if str, ok := x[k].(string); ok && str == s {
				return k
			}
			if found := keyHolding(x[k], s); found != "" {
				return found
			}
		}
	case []any:
		for _, c := range x {
			if str, ok := c.(string); ok && str == s {
				return "[]"
			}
			if found := keyHolding(c, s); found != "" {
				return found
			}
		}
	}
	return ""
}

// positionOf fails FORGE-ACTIVITY-POSITION-ONLY when an activity entry's
// position is no stage of the chain (not an integer from 1, the seed's
// firstPosition, to length), or when a solve entry naming the agent,
// which cleared one level in this scenario, shows another position than
// the one its session cleared. A name the entry leaves out is unchecked.
func (w *world) positionOf(array string, e map[string]any, length int) error {
	p, ok := e["position"].(float64)
	if !ok || p != float64(int(p)) || p < 1 || (length > 0 && int(p) > length) {
		return verdict.Failf("FORGE-ACTIVITY-POSITION-ONLY", fmt.Sprintf("a position from 1 to %d", length), e["position"],
			"an entry of %s names no stage of the chain", array)
	}
	if name, _ := e["name"].(string); array != "levels" && name == w.me.Name && w.sess != nil && w.sess.Position >= 1 && int(p) != w.sess.Position {
		return verdict.Failf("FORGE-ACTIVITY-POSITION-ONLY", w.sess.Position, int(p),
			"the %s entry of the agent's own solve, against the position its session cleared", array)
	}
	return nil
}
