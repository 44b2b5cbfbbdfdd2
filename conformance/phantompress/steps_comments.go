package phantompress

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// review posts a review of n characters on the run.
func (w *world) review(ctx context.Context, n int) error {
	_, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/review", w.me.Key, map[string]string{"text": repeatRunes(n)}, nil)
	return err
}

// hedgedRun starts a run with the default budget and hedges it through to
// its end.
func (w *world) hedgedRun(ctx context.Context) error {
	if err := w.startRun(ctx, defaultBudget, nil); err != nil {
		return err
	}
	return w.hedgeThrough(ctx)
}

// logShowsReview checks that the kit's review body was taken
// (PP-WIRE-BODIES) and the public log shows the 2000-character review
// (PP-RUN-LOG).
func (w *world) logShowsReview(ctx context.Context) error {
	if err := w.wireBody("review"); err != nil {
		return err
	}
	if _, err := w.getLog(ctx); err != nil {
		return err
	}
	if !strings.Contains(string(w.Body()), repeatRunes(2000)) {
		return w.shapeGate("PP-RUN-LOG", "the 2000-character review in the run log", clip(w.Body()), "the kit shows the review in the public log")
	}
	return nil
}

// secondReviewRefused sends a second review of the run and checks that it
// is refused with a 4xx other than 401 and 404 (PP-REVIEW).
func (w *world) secondReviewRefused(ctx context.Context) error {
	if err := w.review(ctx, 10); err != nil {
		return err
	}
	if w.Status() < 400 || w.Status() >= 500 || w.Status() == http.StatusUnauthorized || w.Status() == http.StatusNotFound {
		return verdict.Failf("PP-REVIEW", "a refusal (400 or 409)", w.Status(), "a second review of one run: %s", clip(w.Body()))
	}
	return nil
}

// comment marks the run and comments the given text.
func (w *world) comment(ctx context.Context, text string) error {
	w.mark()
	return w.act(ctx, engine.ActComment, text)
}

// commentOfLength marks the run and comments a text of n characters.
// commentOfASCII comments n single-byte characters: as many bytes as
// characters, so either unit of <text max 500> reads it the same way
// (PP-COMMENT-LENGTH).
func (w *world) commentOfASCII(ctx context.Context, n int) error {
	w.mark()
	return w.act(ctx, engine.ActComment, strings.Repeat("a", n))
}

// commentOfLength comments n Japanese characters (3 bytes each in UTF-8).
func (w *world) commentOfLength(ctx context.Context, n int) error {
	w.mark()
	return w.act(ctx, engine.ActComment, repeatRunes(n))
}

// commentOutcome checks that the last comment was accepted or refused as
// the outline says (PP-COMMENT-LENGTH).
func (w *world) commentOutcome(outcome string) error {
	if outcome == "refused" && w.last == nil && w.Status() == http.StatusBadRequest {
		return nil // the seed gives ok:false no status: a 400 refusal is as faithful
	}
	if w.last == nil || w.last.OK != (outcome == "accepted") {
		return verdict.Failf("PP-COMMENT-LENGTH", outcome, w.last, "")
	}
	return nil
}

// writeMaxComments writes the run's maximum number of comments on the
// embedded reference, then marks the run.
func (w *world) writeMaxComments(ctx context.Context) error {
	if _, err := w.control(); err != nil {
		return err
	}
	for i := 0; i < engine.MaxComments; i++ {
		if err := w.act(ctx, engine.ActComment, "メモ"+strconv.Itoa(i)); err != nil {
			return err
		}
	}
	w.mark()
	return nil
}

// succeedsWithoutTurn checks that the last action answered ok:true at the
// marked turn (the scenario's rule).
func (w *world) succeedsWithoutTurn() error {
	if w.last == nil || !w.last.OK || w.last.State.Turn != w.Before.Turn {
		return verdict.Failf(w.rule(), fmt.Sprintf("ok:true at turn %d", w.Before.Turn), w.last, "")
	}
	return nil
}

// refusedWithoutTurn checks that the last action answered ok:false at the
// marked turn, or 400 where the expectation allows it for a missing
// argument (the scenario's rule).
func (w *world) refusedWithoutTurn() error {
	if w.last == nil && w.Status() == http.StatusBadRequest {
		// The seed gives ok:false no status: a 400 refusal is as faithful
		// (the run is checked unchanged where it matters, and a state the
		// body shows must still be at the same turn).
		var r actionResponse
		if json.Unmarshal(w.Body(), &r) == nil && stateKeys(w.Body())["turn"] && r.State.Turn != w.Before.Turn {
			return verdict.Failf(w.rule(), fmt.Sprintf("ok:false at turn %d", w.Before.Turn), fmt.Sprintf("turn %d", r.State.Turn), "a 400 refusal that spent a turn")
		}
		return nil
	}
	if w.last == nil || w.last.OK || w.last.State.Turn != w.Before.Turn {
		return verdict.Failf(w.rule(), fmt.Sprintf("ok:false at turn %d", w.Before.Turn), fmt.Sprintf("%d %s", w.Status(), clip(w.Body())), "")
	}
	return nil
}
