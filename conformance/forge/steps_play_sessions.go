package forge

import (
	"context"

	"github.com/agentgames/conformance/conformance/verdict"
)

// The play steps about whose session a request plays and how much of it
// a submission answers (docs/detection.md, forge round 5).

// probeOthersSession has the first agent clear its level and open a
// session on the next, then the second agent, still on its first level,
// probe that session by its id with its own key: a session found by its
// id alone, its agent never compared with the caller's, would serve the
// second agent a level it has not unlocked.
func (w *world) probeOthersSession(ctx context.Context) error {
	if _, _, err := w.clear(ctx, w.me, 0); err != nil {
		return err
	}
	s, err := w.mustOpen(ctx, w.me)
	if err != nil {
		return err
	}
	w.sess = s
	resp, err := w.query(ctx, w.other, s, w.distinctProbe())
	w.Last = resp
	return err
}

// othersSessionRefused fails FORGE-NO-LEVEL-SELECTION when another
// agent's session answered the second agent's probe: it played a level
// that is not its current one. Any refusal passes; the seed fixes none.
func (w *world) othersSessionRefused() error {
	if err := w.NeedLast(); err != nil {
		return err
	}
	if w.Last.Status/100 == 2 {
		return verdict.Failf("FORGE-NO-LEVEL-SELECTION", "the probe refused", w.Last.Status,
			"an agent on its first level probed another agent's session on position %d", w.sess.Position)
	}
	return nil
}

// shortSubmission opens a session on the same level and submits its right
// outputs all but the last: a submission judged on the outputs it holds,
// a loop over them rather than over the challenge inputs, takes it for
// correct. The progress after it is kept in w.short (orderJudged).
func (w *world) shortSubmission(ctx context.Context) error {
	s, err := w.mustOpen(ctx, w.me)
	if err != nil {
		return err
	}
	outs, _, err := w.infer(ctx, w.me, s, 0)
	if err != nil {
		return err
	}
	if _, _, err := w.submit(ctx, w.me, s, outs[:len(outs)-1]); err != nil {
		return err
	}
	p, err := w.progress(ctx, w.me)
	w.short = &p
	return err
}
