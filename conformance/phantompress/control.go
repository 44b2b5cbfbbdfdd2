package phantompress

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// controller is the white-box control the embedded reference offers to
// @control scenarios: quota counters, a failing quota store and a delay
// that makes two requests overlap. It never exposes hidden truth.
type controller interface {
	SetActionDelay(time.Duration)
	SetQuotaUnavailable(bool)
	SpendWrites(key string, n int) error
	SpendAllWrites(n int)
	SpendRegistrations(n int)
}

// control returns the embedded reference's controller or skips.
func (w *world) control() (controller, error) {
	c, ok := w.env.Reference.(controller)
	if !ok || w.env.Clock == nil {
		return nil, verdict.Skipf("needs the embedded reference's control (quota counters, clock); not available against a live target")
	}
	return c, nil
}

// concurrencySteps registers the steps of concurrent actions on one run
// (PP-ERR-409-CONCURRENT).
func concurrencySteps(sc *godog.ScenarioContext, w *world) {
	sc.Step(pattern(`^the server holds each action for a moment$`), w.holdActions)
	sc.Step(pattern(`^the agent sends two actions on the run at once$`), w.twoActionsAtOnce)
	sc.Step(pattern(`^the agent sends (\d+) looks on the run in parallel$`), w.sendParallelLooks)
	sc.Step(pattern(`^each is answered 200 or 409, and the turns spent equal the looks accepted$`), w.checkParallel)
	sc.Step(pattern(`^one succeeds, the other is refused with 409, and one turn was spent$`), w.oneOfTwoAccepted)
}

// holdActions makes the embedded reference hold each action for 150ms until
// the scenario ends, so two requests overlap.
func (w *world) holdActions() error {
	c, err := w.control()
	if err != nil {
		return err
	}
	c.SetActionDelay(150 * time.Millisecond)
	w.Cleanup(func() { c.SetActionDelay(0) })
	return nil
}

// twoActionsAtOnce marks the run and sends two looks 30ms apart, keeping
// their statuses.
func (w *world) twoActionsAtOnce(ctx context.Context) error {
	w.mark()
	statuses := make([]int, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 30 * time.Millisecond)
			resp, err := w.env.HTTP.Do(ctx, driver.Request{Method: http.MethodPost, Path: "/runs/" + w.run + "/action",
				Header: map[string]string{"Authorization": "Bearer " + w.me.Key}, JSON: map[string]string{"action": "look"},
				Allow: []int{http.StatusConflict}})
			errs[i] = err
			if resp != nil {
				statuses[i] = resp.Status
			}
		}(i)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	w.reg = map[string]any{"statuses": statuses}
	return nil
}

// sendParallelLooks marks the run and sends n looks at the same moment (see
// parallelLooks).
func (w *world) sendParallelLooks(ctx context.Context, n int) error {
	w.mark()
	return w.parallelLooks(ctx, n)
}

// oneOfTwoAccepted checks that of two overlapping looks one got 200 and the
// other 409, and the run spent one turn (PP-ERR-409-CONCURRENT).
func (w *world) oneOfTwoAccepted(ctx context.Context) error {
	st := w.reg["statuses"].([]int)
	ok, conflict := 0, 0
	for _, s := range st {
		switch s {
		case http.StatusOK:
			ok++
		case http.StatusConflict:
			conflict++
		}
	}
	if ok != 1 || conflict != 1 {
		return verdict.Failf("PP-ERR-409-CONCURRENT", "one 200 and one 409", st, "two overlapping looks")
	}
	s, err := w.fetchState(ctx)
	if err != nil {
		return err
	}
	if s.Turn != w.snap.Turn+1 {
		return verdict.Failf("PP-ERR-409-CONCURRENT", w.snap.Turn+1, s.Turn, "turns after one accepted look")
	}
	return nil
}

// parallelLooks sends n looks on the run at the same moment, with no
// server-side delay: safe on a live target (n writes). Statuses and the
// turns of the accepted answers are kept for checkParallel.
func (w *world) parallelLooks(ctx context.Context, n int) error {
	statuses := make([]int, n)
	turns := make([]int, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			resp, err := w.env.HTTP.Do(ctx, driver.Request{Method: http.MethodPost, Path: "/runs/" + w.run + "/action",
				Header: map[string]string{"Authorization": "Bearer " + w.me.Key}, JSON: map[string]string{"action": "look"},
				Allow: []int{http.StatusConflict}})
			errs[i] = err
			if resp == nil {
				return
			}
			statuses[i] = resp.Status
			var r actionResponse
			if resp.Status == http.StatusOK && json.Unmarshal(resp.Body, &r) == nil {
				turns[i] = r.State.Turn
			}
		}(i)
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	w.reg = map[string]any{"statuses": statuses, "turns": turns}
	return nil
}

// checkParallel checks parallel looks (PP-ERR-409-CONCURRENT): each was
// accepted or refused with 409, at least one was accepted, the accepted
// ones were numbered one turn apart, and the run spent exactly one turn per
// accepted look: no lost or doubled update.
func (w *world) checkParallel(ctx context.Context) error {
	statuses, turns := w.reg["statuses"].([]int), w.reg["turns"].([]int)
	seen := map[int]bool{}
	accepted := 0
	for i, st := range statuses {
		switch st {
		case http.StatusOK:
			accepted++
			t := turns[i]
			if t <= w.snap.Turn || t > w.snap.Turn+len(statuses) || seen[t] {
				return verdict.Failf("PP-ERR-409-CONCURRENT", fmt.Sprintf("distinct turns after %d", w.snap.Turn), turns, "turns of the accepted looks (statuses %v)", statuses)
			}
			seen[t] = true
		case http.StatusConflict:
		default:
			return verdict.Failf("PP-ERR-409-CONCURRENT", "200 or 409", statuses, "parallel looks on one run")
		}
	}
	if accepted == 0 {
		return verdict.Failf("PP-ERR-409-CONCURRENT", "at least one look accepted", statuses, "parallel looks on one run")
	}
	s, err := w.fetchState(ctx)
	if err != nil {
		return err
	}
	if s.Turn != w.snap.Turn+accepted {
		return verdict.Failf("PP-ERR-409-CONCURRENT", w.snap.Turn+accepted, s.Turn, "turn after %d accepted of %d parallel looks (statuses %v)", accepted, len(statuses), statuses)
	}
	return nil
}
