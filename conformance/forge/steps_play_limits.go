package forge

import (
	"context"
	"net/http"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	rforge "github.com/agentgames/conformance/reference/forge"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

// playLimitsSteps registers the steps of features/forge/play.feature (its rules on limits).
func (w *world) playLimitsSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent spends the whole query budget and probes once more$`), w.spendBudget)
	sc.Step(pattern(`^the extra probe is refused$`), w.extraRefused)
	sc.Step(pattern(`^the session's lifetime passes$`), w.expire)
	sc.Step(pattern(`^a probe and a submission are refused$`), w.expiredJudged)
	sc.Step(pattern(`^the agent reads its progress (\d+) times as fast as it can$`), w.burst)
	sc.Step(pattern(`^any 429 answer carries Retry-After$`), w.burstJudged)
}

func (w *world) spendBudget(ctx context.Context) error {
	if w.sess.QueryBudget <= 0 || w.sess.QueryBudget > 1000 {
		return verdict.Skipf("the session states no usable queryBudget (%d)", w.sess.QueryBudget)
	}
	for i := 0; i <= w.sess.QueryBudget; i++ {
		resp, err := w.query(ctx, w.me, w.sess, w.distinctProbe())
		if err != nil {
			return err
		}
		w.Last = resp
		if i < w.sess.QueryBudget && resp.Status != http.StatusOK {
			return verdict.Failf("FORGE-QUERY-BUDGET", "queries within the budget answered", resp.Status, "query %d of %d", i+1, w.sess.QueryBudget)
		}
	}
	return nil
}

func (w *world) extraRefused() error {
	if w.Last.Status/100 != 4 {
		return verdict.Failf("FORGE-QUERY-BUDGET", "the query past the budget refused", w.Last.Status, "budget %d", w.sess.QueryBudget)
	}
	return nil
}

func (w *world) expire() error {
	if w.env.Clock == nil {
		return verdict.Skipf("needs the embedded reference's clock")
	}
	w.env.Clock.Advance(rforge.SessionTTL + time.Minute) // the reference's lifetime; a live target is never asked
	return nil
}

func (w *world) expiredJudged(ctx context.Context) error {
	q, err := w.query(ctx, w.me, w.sess, w.distinctProbe())
	if err != nil {
		return err
	}
	s, _, err := w.submit(ctx, w.me, w.sess, make([]dsl.Value, len(w.sess.ChallengeInputs)))
	if err != nil {
		return err
	}
	if q.Status/100 != 4 || s.Status/100 != 4 {
		return verdict.Failf("FORGE-EXPIRY", "a probe and a submission refused", []int{q.Status, s.Status}, "after the session's lifetime")
	}
	return nil
}

func (w *world) burst(ctx context.Context, n int) error {
	for range n {
		resp, err := w.do(ctx, w.me, driver.Request{Method: http.MethodGet, Path: "/api/progress", Allow: []int{429}})
		if err != nil {
			return err
		}
		if resp.Status == http.StatusTooManyRequests {
			w.Last = resp
			return nil
		}
	}
	return nil
}

func (w *world) burstJudged() error {
	if w.Last == nil {
		return verdict.Skipf("no rate limit was met within the burst")
	}
	if w.Last.Header.Get("Retry-After") == "" {
		return verdict.Failf("FORGE-RATE-LIMIT", "429 with Retry-After", "no Retry-After", "a rate-limited answer")
	}
	return nil
}
