package forge

import (
	"context"

	"github.com/agentgames/conformance/conformance/verdict"
)

// The authoring scenarios' ranking judges: the authors' board and the
// author's skip of its own level (features/forge/authoring.feature).

// authorRankJudged: the author's accepted levels are counted once each,
// idempotent retries and rejected duplicates not at all (FORGE-AUTHOR-RANK).
func (w *world) authorRankJudged(ctx context.Context) error {
	replayed, err := w.replayOnce(ctx)
	if err != nil {
		return err
	}
	b, err := w.boards(ctx)
	if err != nil {
		return err
	}
	if err := authorsRanked(b); err != nil {
		return err
	}
	for _, a := range b.Authors {
		if a.Name == w.me.Name {
			if !replayed {
				return verdict.Skipf("the retry under the level's key was no replay; the author's count is unchecked")
			}
			if a.AcceptedLevels != w.authored.accepted {
				return verdict.Failf("FORGE-AUTHOR-RANK", w.authored.accepted, a.AcceptedLevels, "accepted levels of the runner's author")
			}
			return nil
		}
	}
	return verdict.Failf("FORGE-AUTHOR-RANK", "the author ranked", "absent", "an author with an accepted level")
}

// replayOnce retries the authored level with its key and body before the
// authors' board is read, so the board is judged against a run that made
// an idempotent retry, which counts for nothing (authorRanking
// idempotentRetriesCountSeparately false; docs/detection.md, forge round
// 9). A retry that is no replay is FORGE-IDEMPOTENT-REPLAY's to judge, and
// leaves the author's count unchecked here (FORGE-AUTHOR-RANK).
func (w *world) replayOnce(ctx context.Context) (bool, error) {
	resp, err := w.publish(ctx, w.me, w.authored.key, w.authored.body)
	if err != nil {
		return false, err
	}
	return w.samePublication(resp), nil
}

// authorsRanked fails FORGE-AUTHOR-RANK when the authors' board ranks two
// authors against their accepted levels: more accepted levels ranking
// worse, or equal ones holding different ranks (the seed's authorRanking
// ties are "shared-rank", as the solvers' are). Every row is judged, the
// deployment's earlier authors too; a board without ranks is unchecked.
func authorsRanked(b boards) error {
	for _, x := range b.Authors {
		for _, y := range b.Authors {
			switch {
			case x.Rank == 0 || y.Rank == 0:
			case x.AcceptedLevels > y.AcceptedLevels && x.Rank > y.Rank:
				return verdict.Failf("FORGE-AUTHOR-RANK", "more accepted levels rank better", []int{x.Rank, y.Rank},
					"%q (%d accepted) ranks below %q (%d accepted)", x.Name, x.AcceptedLevels, y.Name, y.AcceptedLevels)
			case x.AcceptedLevels == y.AcceptedLevels && x.Rank != y.Rank:
				return verdict.Failf("FORGE-AUTHOR-RANK", "one shared rank", []int{x.Rank, y.Rank},
					"authors %q and %q both have %d accepted levels", x.Name, y.Name, x.AcceptedLevels)
			}
		}
	}
	return nil
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
	case skipped < 1 && cleared > w.Before:
		// Past its level, no skip counted and one clear too many: the skip
		// was booked as a clear (FORGE-SKIP-ACCOUNTING; docs/detection.md,
		// forge round 3).
		return verdict.Failf("FORGE-SKIP-ACCOUNTING", []int{w.Before, 1}, []int{cleared, skipped},
			"clearedLevels and skippedLevels once the chain progress passed the author's own level")
	case p.progress() < w.authored.position || skipped < 1:
		return verdict.Failf("FORGE-SELF-AUTHORED-SKIP", "progress past position "+itoa(w.authored.position)+" with a skip",
			[]int{p.progress(), skipped}, "chainProgress and skippedLevels after clearing every level before the author's own")
	case cleared != w.Before:
		return verdict.Failf("FORGE-RANK-NO-SKIP-CREDIT", w.Before, cleared, "clearedLevels counts solves only")
	case p.progress() != cleared+skipped:
		return verdict.Failf("FORGE-SKIP-ACCOUNTING", cleared+skipped, p.progress(), "chainProgress is cleared plus skipped levels")
	}
	return w.boardSkipJudged(ctx, cleared, skipped)
}

// boardSkipJudged fails FORGE-RANK-NO-SKIP-CREDIT when the author's row
// on the solvers' board states clearedLevels or skippedLevels other than
// its progress does once it skipped its own level: the skip credited as a
// clear on the board alone (docs/detection.md, forge round 9). A count the
// row leaves out, or a board without the author, is unchecked.
func (w *world) boardSkipJudged(ctx context.Context, cleared, skipped int) error {
	b, err := w.boards(ctx)
	if err != nil {
		return err
	}
	for _, s := range b.Solvers {
		if s.Name != w.me.Name {
			continue
		}
		if (s.ClearedLevels != nil && *s.ClearedLevels != cleared) || (s.SkippedLevels != nil && *s.SkippedLevels != skipped) {
			return verdict.Failf("FORGE-RANK-NO-SKIP-CREDIT", []int{cleared, skipped}, []any{s.ClearedLevels, s.SkippedLevels},
				"the author's solver row, clearedLevels and skippedLevels, against its progress after skipping its own level")
		}
	}
	return nil
}
