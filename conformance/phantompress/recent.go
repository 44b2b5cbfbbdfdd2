package phantompress

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
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
	if known := w.knownPublic(); len(l.Runs) < min(n, known) {
		return verdict.Failf("PP-RECENT", fmt.Sprintf("%d runs (the scenario's %d public runs, N=%d)", min(n, known), known, n), fmt.Sprintf("%d runs", len(l.Runs)), "GET /runs?recent=%d", n)
	}
	return nil
}

// knownPublic counts the public runs the scenario started: its own and
// the rival's (no scenario of PP-RECENT hides one). The N most recent runs hold at least that many
// of them while N allows (PP-RECENT), whatever else is listed: a list one
// short of its N shows once N is no larger than them.
func (w *world) knownPublic() int {
	n := 0
	for _, id := range []string{w.run, w.rival} {
		if id != "" {
			n++
		}
	}
	return n
}

// recentEntries are the entries of a recent-runs answer under the kit's
// runs[], by run ID, and their IDs in order (none when it holds no runs
// there).
func recentEntries(body []byte) (map[string]any, []string) {
	var l struct {
		Runs []map[string]any `json:"runs"`
	}
	json.Unmarshal(body, &l)
	byID := map[string]any{}
	var ids []string
	for _, r := range l.Runs {
		if id, ok := r["run_id"].(string); ok {
			byID[id] = r
			ids = append(ids, id)
		}
	}
	return byID, ids
}

// noteListedRuns notes the runs GET /runs lists before the scenario
// starts any, each as listed: all were started before the scenario's. A
// list the target refuses or shapes otherwise notes nothing.
func (w *world) noteListedRuns(ctx context.Context) error {
	resp, err := w.do(ctx, http.MethodGet, "/runs", "", nil, nil)
	if err != nil {
		return err
	}
	w.older = map[string]any{}
	if resp.Status == http.StatusOK {
		w.older, _ = recentEntries(resp.Body)
	}
	return nil
}

// noneOlderThanRival checks that a list of the N most recent runs, asked
// right after the rival's public run started, shows no run the scenario
// knows to be older and idle since while it leaves the rival's out
// (PP-RECENT: the recent runs are the newest): the agent's own run, idle
// since the rival's started, or one listed before the scenario began and
// listed now exactly as then. Whether "recent" counts from a run's start
// or its last action is left open (an entry that changed may have been
// played since), and runs it cannot place (another client's, started
// meanwhile) are newer for all it knows: they pass.
func (w *world) noneOlderThanRival() error {
	byID, ids := recentEntries(w.Body())
	if w.Status() != http.StatusOK || w.rival == "" || slices.Contains(ids, w.rival) {
		return nil
	}
	for _, id := range ids {
		if was, ok := w.older[id]; id == w.run || ok && reflect.DeepEqual(was, byID[id]) {
			return verdict.Failf("PP-RECENT", "the newest public runs, "+w.rival+" (started last) before "+id,
				clip(w.Body()), "GET /runs?recent=%d lists %s, which is older than %s and idle since", len(ids), id, w.rival)
		}
	}
	return nil
}

// noteRecentBeforeHiding notes the runs ?recent=10 lists while the
// scenario's run is still public, each as listed (w.older), and whether
// the run is among them (w.listedBefore).
func (w *world) noteRecentBeforeHiding(ctx context.Context) error {
	if err := w.listRecentRuns(ctx, 10); err != nil {
		return err
	}
	w.older, w.listedBefore = map[string]any{}, nil
	if w.Status() == http.StatusOK {
		w.older, w.listedBefore = recentEntries(w.Body())
	}
	return nil
}

// listedAgain checks that a run made public again is back among the recent
// runs (PP-RUN-VISIBILITY: hiding is reversible, and the run was listed
// before it was hidden). It fails only when ?recent=10 now lists, as it was,
// a run listed after the scenario's before the hiding and left idle since,
// while the scenario's run is missing: a run started earlier and never
// touched since is older by its start and by its last write alike, so
// either reading of "recent" puts the shown-again run before it. Anything
// it cannot place (a run not listed before, a list of another shape)
// passes as "unchecked".
func (w *world) listedAgain(ctx context.Context) error {
	i := slices.Index(w.listedBefore, w.run)
	if i < 0 {
		return verdict.Skipf("unchecked: the run was not among the 10 most recent before it was hidden")
	}
	if err := w.listRecentRuns(ctx, 10); err != nil {
		return err
	}
	byID, ids := recentEntries(w.Body())
	if w.Status() != http.StatusOK || slices.Contains(ids, w.run) {
		return nil
	}
	for _, id := range w.listedBefore[i+1:] {
		if was, ok := byID[id]; ok && reflect.DeepEqual(was, w.older[id]) {
			return verdict.Failf("PP-RUN-VISIBILITY", w.run+" listed again, before "+id, clip(w.Body()),
				"GET /runs?recent=10 after the run was made public again lists %s, older and idle, without it", id)
		}
	}
	return nil
}
