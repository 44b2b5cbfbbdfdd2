package phantompress

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// quotasSteps registers the steps of features/phantom-press/quotas.feature.
func quotasSteps(sc *suite.ScenarioContext, w *world) {
	sc.Step(pattern(`^the agent has made (\d+) writes today$`), w.madeWrites)
	sc.Step(pattern(`^all agents together have made (\d+) writes today$`), w.allMadeWrites)
	sc.Step(pattern(`^the agent has started (\d+) runs today$`), w.startedRuns)
	sc.Step(pattern(`^(\d+) agents have registered today$`), w.agentsRegistered)
	sc.Step(pattern(`^the quota store is unavailable$`), w.quotaUnavailable)
	sc.Step(pattern(`^the request is refused with status (\d+) and code "([^"]*)"$`), w.refusedWithCode)
	sc.Step(pattern(`^the quota answer carries Retry-After and limit.reset_at at the next 00:00 JST$`), w.quotaRetryAfter)
	sc.Step(pattern(`^the quota answer names no reset but the next 00:00 JST$`), w.quotaNamesJSTReset)
	sc.Step(pattern(`^the clock passes 00:00 JST$`), w.passMidnightJST)
	sc.Step(pattern(`^the agent can look at the case again$`), w.canLookAgain)
	sc.Step(pattern(`^the answer asks to retry after 60 seconds$`), w.retryAfter60)
}

// madeWrites starts a fresh quota day on the embedded reference and spends
// n of the agent's writes, then marks the run.
func (w *world) madeWrites(ctx context.Context, n int) error {
	if live, err := w.exhaustLive(); live || err != nil {
		if err == nil {
			err = boundaryBySpending(seedWritesPerAgent, n)
		}
		if err != nil {
			return err
		}
		if err := w.writesSpentAgent(ctx); err != nil {
			return err
		}
		w.quota = true
		w.mark()
		return nil
	}
	c, err := w.freshDay()
	if err != nil {
		return err
	}
	w.quota = true
	w.mark()
	return c.SpendWrites(w.me.Key, n)
}

// allMadeWrites starts a fresh quota day on the embedded reference and
// spends n writes across all agents, then marks the run.
func (w *world) allMadeWrites(n int) error {
	c, err := w.freshDay()
	if err != nil {
		return err
	}
	w.quota = true
	w.mark()
	c.SpendAllWrites(n)
	return nil
}

// startedRuns starts a fresh quota day and starts n one-turn runs, each of
// which must be created (PP-QUOTA-RUNS).
func (w *world) startedRuns(ctx context.Context, n int) error {
	if live, err := w.exhaustLive(); live || err != nil {
		if err == nil {
			err = boundaryBySpending(seedRunsPerKey, n)
		}
		if err == nil {
			err = w.runsSpentAgent(ctx)
		}
		w.quota = true
		return err
	}
	if _, err := w.freshDay(); err != nil {
		return err
	}
	for i := 1; i <= n; i++ {
		if _, err := w.do(ctx, http.MethodPost, "/runs", w.me.Key, map[string]int{"budget_turns": 1}, nil); err != nil {
			return err
		}
		w.me.runs++
		if !created2xx(w.Status()) {
			return verdict.Failf("PP-QUOTA-RUNS", "200 or 201", w.Status(), "run %d of the day", i)
		}
	}
	w.quota = true
	return nil
}

// agentsRegistered starts a fresh quota day on the embedded reference and
// spends n registrations.
func (w *world) agentsRegistered(n int) error {
	c, err := w.freshDay()
	if err != nil {
		return err
	}
	w.quota = true
	c.SpendRegistrations(n)
	return nil
}

// quotaUnavailable makes the embedded reference's quota store fail until
// the scenario ends, then marks the run.
func (w *world) quotaUnavailable() error {
	c, err := w.control()
	if err != nil {
		return err
	}
	c.SetQuotaUnavailable(true)
	w.Cleanup(func() { c.SetQuotaUnavailable(false) })
	w.quota = true
	w.mark()
	return nil
}

// refusedWithCode checks that the request was refused with the given status
// and error code (the scenario's rule).
func (w *world) refusedWithCode(code int, name string) error {
	if err := w.wantStatus(code); err != nil {
		return err
	}
	if e := w.errBody(); e.Code != name {
		return verdict.Failf(w.rule(), name, e.Code, "code of the %d answer", code)
	}
	return nil
}

// quotaRetryAfter checks that a 429 carries Retry-After seconds and
// limit.reset_at at the next 00:00 JST, the two agreeing (PP-QUOTA-429).
// The write limit covers every write route, so the spent agent then starts
// a run as well and its 429 is held to the same: a header written by one
// route's handler and forgotten by another's is seen.
func (w *world) quotaRetryAfter(ctx context.Context) error {
	if err := w.wantStatus(http.StatusTooManyRequests); err != nil {
		return err
	}
	if err := w.judgeQuota429("the write"); err != nil {
		return err
	}
	if w.me == nil {
		return nil
	}
	if _, err := w.do(ctx, http.MethodPost, "/runs", w.me.Key, map[string]int{"budget_turns": 1}, nil); err != nil {
		return err
	}
	if w.Status() != http.StatusTooManyRequests {
		return nil // another rule's (PP-QUOTA-WRITES-AGENT): this one judges 429s
	}
	return w.judgeQuota429("POST /runs once the writes are spent")
}

// judgeQuota429 holds the last answer, a 429, to PP-QUOTA-429: Retry-After
// seconds and limit.reset_at at the next 00:00 JST, the two agreeing.
func (w *world) judgeQuota429(what string) error {
	e := w.errBody()
	ra, err := strconv.Atoi(w.Header().Get("Retry-After"))
	if err != nil || ra < 1 || e.Limit == nil {
		return verdict.Failf("PP-QUOTA-429", "Retry-After seconds and limit.reset_at", fmt.Sprintf("%q %s", w.Header().Get("Retry-After"), clip(w.Body())), "%s", what)
	}
	at, err := time.Parse(time.RFC3339, e.Limit.ResetAt)
	if err != nil || at.In(time.FixedZone("JST", 9*3600)).Format("15:04:05") != "00:00:00" {
		return verdict.Failf("PP-QUOTA-429", "reset_at at 00:00 JST", e.Limit.ResetAt, "%s", what)
	}
	now := answeredAt(w.env.Clock, w.Header())
	if d := at.Sub(now); d <= 0 || d > 24*time.Hour || absDuration(d-time.Duration(ra)*time.Second) > 2*time.Second {
		return verdict.Failf("PP-QUOTA-429", "the next 00:00 JST, Retry-After seconds away", fmt.Sprintf("%s, Retry-After %d, now %s", at, ra, now), "%s", what)
	}
	return nil
}

// quotaNamesJSTReset holds a live 429 to the reset it announces: the seed
// resets the quotas at 00:00 JST, so a limit.reset_at at another hour, or
// a Retry-After ending before the next 00:00 JST (a day counted in UTC or
// the server's zone), announces a quota turning at another hour
// (PP-QUOTA-RESET). A missing or unreadable header or field is
// PP-QUOTA-429's, unchecked here. A Retry-After a little past the reset
// (jitter against a midnight stampede) is a reading the seed leaves open;
// one an hour or more past it announces a day turning in another zone
// (00:00 UTC is 09:00 JST), which fails whatever the time of day the run
// happens at.
func (w *world) quotaNamesJSTReset() error {
	if err := w.wantStatus(http.StatusTooManyRequests); err != nil {
		return err
	}
	now := answeredAt(w.env.Clock, w.Header())
	next := nextJSTMidnight(now)
	if e := w.errBody(); e.Limit != nil {
		if at, err := time.Parse(time.RFC3339, e.Limit.ResetAt); err == nil && absDuration(at.Sub(next)) > 2*time.Second {
			return verdict.Failf("PP-QUOTA-RESET", next.Format(time.RFC3339), e.Limit.ResetAt, "limit.reset_at of a 429 answered at %s", now.Format(time.RFC3339))
		}
	}
	if ra, err := strconv.Atoi(w.Header().Get("Retry-After")); err == nil && !retryAfterReachesJSTReset(now, ra) {
		return verdict.Failf("PP-QUOTA-RESET", fmt.Sprintf("Retry-After reaching %s", next.Format(time.RFC3339)), ra, "a 429 answered at %s", now.Format(time.RFC3339))
	}
	return nil
}

// otherZoneSlack is how far past the next 00:00 JST a Retry-After may end
// before it names a reset at another hour: zones differ by whole hours.
const otherZoneSlack = time.Hour

// retryAfterReachesJSTReset reports whether a Retry-After of ra seconds
// answered at now ends at the next 00:00 JST: not before it (2 s for the
// Date header's whole seconds), and less than otherZoneSlack after it
// (PP-QUOTA-RESET).
func retryAfterReachesJSTReset(now time.Time, ra int) bool {
	next := nextJSTMidnight(now)
	end := now.Add(time.Duration(ra) * time.Second)
	return !end.Before(next.Add(-2*time.Second)) && end.Before(next.Add(otherZoneSlack))
}

// nextJSTMidnight is the first 00:00 JST after t.
func nextJSTMidnight(t time.Time) time.Time {
	j := t.In(time.FixedZone("JST", 9*3600))
	return time.Date(j.Year(), j.Month(), j.Day()+1, 0, 0, 0, 0, j.Location())
}

// answeredAt is the target's time when it answered: the embedded
// reference's clock when the run holds it, else the answer's Date header,
// else the runner's clock. Retry-After counts from the answer, so neither
// how long the runner took to judge it nor its clock's skew from the
// target's moves the comparison (PP-QUOTA-429); the Date's whole seconds
// stay within the check's two seconds.
func answeredAt(clock *suite.Clock, h http.Header) time.Time {
	if clock != nil {
		return clock.Now()
	}
	if at, err := http.ParseTime(h.Get("Date")); err == nil {
		return at
	}
	return time.Now()
}

// passMidnightJST moves the embedded clock to 23:58 JST, checks that a
// write is still refused with 429 there (PP-QUOTA-RESET: a quota turning at
// another hour fails), then moves it past 00:00 JST.
func (w *world) passMidnightJST(ctx context.Context) error {
	if w.env.Clock == nil {
		return verdict.Skipf("needs the embedded clock")
	}
	// First to 23:58 JST of the same day: a quota that turns at another
	// hour (UTC midnight is 09:00 JST) has reset by now, wrongly.
	jst := time.FixedZone("JST", 9*3600)
	now := w.env.Clock.Now().In(jst)
	w.env.Clock.Advance(time.Date(now.Year(), now.Month(), now.Day(), 23, 58, 0, 0, jst).Sub(now))
	w.quota = true
	if _, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/action", w.me.Key, map[string]string{"action": "look"}, nil); err != nil {
		return err
	}
	if w.Status() != http.StatusTooManyRequests {
		return verdict.Failf("PP-QUOTA-RESET", 429, w.Status(), "a write at 23:58 JST of the day the quota was spent: %s", clip(w.Body()))
	}
	advanceToReset(w.env.Clock)
	return nil
}

// canLookAgain looks at the case and checks that the write is answered 200
// after 00:00 JST (PP-QUOTA-RESET).
func (w *world) canLookAgain(ctx context.Context) error {
	w.quota = true // a 429 here is the rule's failure, not a harness error
	if err := w.act(ctx, engine.ActLook, ""); err != nil {
		return err
	}
	if w.Status() != http.StatusOK {
		return verdict.Failf("PP-QUOTA-RESET", 200, w.Status(), "a write after 00:00 JST: %s", clip(w.Body()))
	}
	return nil
}

// retryAfter60 checks that the answer carries Retry-After: 60
// (PP-QUOTA-503).
func (w *world) retryAfter60() error {
	if w.Header().Get("Retry-After") != "60" {
		return verdict.Failf("PP-QUOTA-503", "Retry-After: 60", w.Header().Get("Retry-After"), "")
	}
	return nil
}
