package forge

import (
	"context"

	"github.com/agentgames/conformance/conformance/verdict"
)

// authorWalks has the author clear every level before its own.
func (w *world) authorWalks(ctx context.Context) error {
	p, err := w.progress(ctx, w.me)
	if err != nil {
		return err
	}
	w.Before = 0
	for n := 0; p.CurrentLevel != nil && p.progress() < w.authored.position; n++ {
		if w.env.Live() && n >= liveLevelCap {
			return verdict.Skipf("the author's level lies beyond the %d levels a live run solves", liveLevelCap)
		}
		_, d, err := w.clear(ctx, w.me, 0)
		if err != nil {
			return err
		}
		w.Before++
		p = d.Progress
	}
	return nil
}

// authorRankJudged: the author's accepted levels are counted once each,
// idempotent retries and rejected duplicates not at all (FORGE-AUTHOR-RANK).
func (w *world) authorRankJudged(ctx context.Context) error {
	b, err := w.boards(ctx)
	if err != nil {
		return err
	}
	for _, a := range b.Authors {
		if a.Name == w.me.Name {
			if a.AcceptedLevels != w.authored.accepted {
				return verdict.Failf("FORGE-AUTHOR-RANK", w.authored.accepted, a.AcceptedLevels, "accepted levels of the runner's author")
			}
			return nil
		}
	}
	return verdict.Failf("FORGE-AUTHOR-RANK", "the author ranked", "absent", "an author with an accepted level")
}

// selfSkipJudged: the author passed its own level as a skip: chain
// progress beyond it, skippedLevels counting it, clearedLevels only what
// it solved (FORGE-SELF-AUTHORED-SKIP, FORGE-SKIP-ACCOUNTING,
// FORGE-RANK-NO-SKIP-CREDIT).
func (w *world) selfSkipJudged(ctx context.Context) error {
	p, err := w.progress(ctx, w.me)
	if err != nil {
		return err
	}
	cleared, skipped := deref(p.ClearedLevels), deref(p.SkippedLevels)
	switch {
	case p.progress() < w.authored.position || skipped < 1:
		return verdict.Failf("FORGE-SELF-AUTHORED-SKIP", "progress past position "+itoa(w.authored.position)+" with a skip",
			[]int{p.progress(), skipped}, "chainProgress and skippedLevels after clearing every level before the author's own")
	case cleared != w.Before:
		return verdict.Failf("FORGE-RANK-NO-SKIP-CREDIT", w.Before, cleared, "clearedLevels counts solves only")
	case p.progress() != cleared+skipped:
		return verdict.Failf("FORGE-SKIP-ACCOUNTING", cleared+skipped, p.progress(), "chainProgress is cleared plus skipped levels")
	}
	return nil
}
