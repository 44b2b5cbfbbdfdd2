package phantompress

import (
	"context"
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

func concurrencySteps(sc *godog.ScenarioContext, w *world) {
	sc.Step(`^the server holds each action for a moment$`, func() error {
		c, err := w.control()
		if err != nil {
			return err
		}
		c.SetActionDelay(150 * time.Millisecond)
		w.cleanup = append(w.cleanup, func() { c.SetActionDelay(0) })
		return nil
	})
	sc.Step(`^the agent sends two actions on the run at once$`, func(ctx context.Context) error {
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
	})
	sc.Step(`^one succeeds, the other is refused with 409, and one turn was spent$`, func(ctx context.Context) error {
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
	})
}
