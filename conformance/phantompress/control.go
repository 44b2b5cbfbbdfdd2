package phantompress

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// controller is the white-box control the embedded reference offers to
// @control scenarios: quota counters, a failing quota store and a delay
// that makes two requests overlap. It never exposes hidden truth.
type controller interface {
	SetActionDelay(time.Duration)
	HoldNextAction(run string, max time.Duration) error
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
