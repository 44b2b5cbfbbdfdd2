package phantompress

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
)

// listRecentRuns fetches the n most recent runs, which needs no key.
func (w *world) listRecentRuns(ctx context.Context, n int) error {
	_, err := w.do(ctx, http.MethodGet, "/runs?recent="+strconv.Itoa(n), "", nil, nil)
	return err
}

// runAmongRecent checks that the recent runs hold at most n runs including
// the scenario's (PP-RECENT; PP-OPENAPI when the run shows up outside the
// kit's runs[]).
func (w *world) runAmongRecent(n int) error {
	var l struct {
		Runs []struct {
			RunID string `json:"run_id"`
		} `json:"runs"`
	}
	json.Unmarshal(w.Body(), &l)
	if w.Status() == 200 && !hasKey(w.Body(), "runs") {
		if strings.Contains(string(w.Body()), `"`+w.run+`"`) {
			return w.shapeGate("PP-OPENAPI", "the kit's runs[]", clip(w.Body()), "the recent runs' shape")
		}
	}
	found := false
	for _, r := range l.Runs {
		found = found || r.RunID == w.run
	}
	if w.Status() != 200 || !found || len(l.Runs) > n {
		return verdict.Failf("PP-RECENT", fmt.Sprintf("at most %d runs including %s", n, w.run), clip(w.Body()), "")
	}
	return nil
}

// atMostRecent checks that ?recent=N listed at most N runs where more
// are public (PP-RECENT): a list cut one past its N shows only once the
// target holds more runs than were asked for. A list outside the kit's
// runs[] is left to runAmongRecent's PP-OPENAPI note: unchecked here.
func (w *world) atMostRecent(n int) error {
	var l struct {
		Runs []json.RawMessage `json:"runs"`
	}
	if w.Status() != 200 || json.Unmarshal(w.Body(), &l) != nil {
		return verdict.Failf("PP-RECENT", "200 with the recent runs", fmt.Sprintf("%d %s", w.Status(), clip(w.Body())), "")
	}
	if !hasKey(w.Body(), "runs") {
		return verdict.Skipf("unchecked: the recent runs are not under runs (%s)", clip(w.Body()))
	}
	if len(l.Runs) > n {
		return verdict.Failf("PP-RECENT", fmt.Sprintf("at most %d runs", n), fmt.Sprintf("%d runs", len(l.Runs)), "GET /runs?recent=%d", n)
	}
	return nil
}
