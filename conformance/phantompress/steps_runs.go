package phantompress

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strconv"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

func runSteps(sc *godog.ScenarioContext, w *world) {
	sc.Step(`^the agent starts a run with the body (.+)$`, func(ctx context.Context, raw string) error {
		resp, err := w.do(ctx, http.MethodPost, "/runs", w.me.Key, nil, []byte(raw))
		if err != nil {
			return err
		}
		w.me.runs++
		if resp.Status == http.StatusCreated {
			var c created
			if err := resp.Decode("PP-RUN-CREATE", &c); err != nil {
				return err
			}
			return w.adopt(&c)
		}
		return nil
	})
	sc.Step(`^a run is started with a budget of (\d+) turns$`, func(n int) error {
		if err := w.wantStatus(http.StatusCreated); err != nil {
			return err
		}
		c := w.first
		if len(c.RunID) != 16 || c.RunID[:4] != "run_" || c.Narrative == "" || len(c.AvailableActions) == 0 {
			return verdict.Failf("PP-RUN-CREATE", "run_<12hex> with narrative and available_actions", clip(w.body), "")
		}
		if c.State.BudgetTurns != n || c.State.Turn != 0 {
			return verdict.Failf("", fmt.Sprintf("budget %d at turn 0", n), fmt.Sprintf("budget %d at turn %d", c.State.BudgetTurns, c.State.Turn), "")
		}
		return nil
	})
	sc.Step(`^a fresh run with a budget of (\d+) turns$`, func(ctx context.Context, n int) error { return w.startRun(ctx, n, nil) })
	sc.Step(`^the agent extends the budget by (\d+) turns$`, func(ctx context.Context, n int) error {
		w.mark()
		_, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/extend", w.me.Key, map[string]int{"turns": n}, nil)
		return err
	})
	budgetIs := func(ctx context.Context, n int) error {
		s, err := w.fetchState(ctx)
		if err != nil {
			return err
		}
		if s.BudgetTurns != n {
			return verdict.Failf("", n, s.BudgetTurns, "budget_turns")
		}
		w.m.State = s
		return nil
	}
	sc.Step(`^the budget is still (\d+) turns$`, budgetIs)
	sc.Step(`^the budget is now (\d+) turns$`, func(ctx context.Context, n int) error {
		if err := w.wantStatus(http.StatusOK); err != nil {
			return err
		}
		return budgetIs(ctx, n)
	})
	sc.Step(`^the agent has spent the whole budget$`, func(ctx context.Context) error {
		for w.m.State.Turn < w.m.State.BudgetTurns {
			if err := w.act(ctx, engine.ActLook, ""); err != nil {
				return err
			}
		}
		return nil
	})
	sc.Step(`^the public log records the extension from (\d+) to (\d+) turns$`, func(ctx context.Context, from, to int) error {
		if err := w.wantStatus(http.StatusOK); err != nil {
			return err
		}
		l, err := w.getLog(ctx)
		if err != nil {
			return err
		}
		for _, e := range l.Extensions {
			if e.From == from && e.To == to {
				return nil
			}
		}
		return verdict.Failf("PP-RUN-EXTEND-LOGGED", fmt.Sprintf("an extension %d -> %d", from, to), l.Extensions, "")
	})
	sc.Step(`^a fresh run with the custom seed "([^"]*)"$`, func(ctx context.Context, seed string) error {
		return w.startRun(ctx, defaultBudget, &seed)
	})
	sc.Step(`^the agent fetches the leaderboard$`, func(ctx context.Context) error {
		_, err := w.do(ctx, http.MethodGet, "/leaderboard", "", nil, nil)
		return err
	})
	sc.Step(`^the run is not on the leaderboard$`, func() error {
		for _, e := range leaderEntries(w.body) {
			if e.RunID == w.run {
				return verdict.Failf("PP-RUN-SEEDED", "no seeded run on the leaderboard", e, "")
			}
		}
		return nil
	})
	sc.Step(`^the leaderboard is ranked by score with one row per agent and at most 50 rows$`, func() error {
		es := leaderEntries(w.body)
		seen := map[string]bool{}
		for i, e := range es {
			if seen[e.Agent.ID] || (i > 0 && es[i-1].Score < e.Score) || e.Rank != i+1 {
				return verdict.Failf("PP-LEADERBOARD", "rows ranked 1.. by falling score, one per agent", es, "row %d", i+1)
			}
			seen[e.Agent.ID] = true
		}
		if len(es) > 50 || len(es) == 0 {
			return verdict.Failf("PP-LEADERBOARD", "1-50 rows", len(es), "")
		}
		return nil
	})
	sc.Step(`^the agent starts another run with the same seed$`, func(ctx context.Context) error {
		first := w.first
		seed := "conformance-replay"
		if err := w.startRun(ctx, defaultBudget, &seed); err != nil {
			return err
		}
		w.second = &created{RunID: w.run, State: w.m.State}
		w.first = first
		return nil
	})
	sc.Step(`^both runs show the same first case$`, func() error {
		a, b := w.first.State.Case, w.second.State.Case
		if w.first.RunID == w.second.RunID || !reflect.DeepEqual(a, b) || !w.second.State.Seeded {
			return verdict.Failf("PP-RUN-SEED-REPLAY", a, b, "two runs with one custom seed")
		}
		return nil
	})
	sc.Step(`^the agent lists the (\d+) most recent runs$`, func(ctx context.Context, n int) error {
		_, err := w.do(ctx, http.MethodGet, "/runs?recent="+strconv.Itoa(n), "", nil, nil)
		return err
	})
	sc.Step(`^the run is among at most (\d+) listed runs$`, func(n int) error {
		var l struct {
			Runs []struct {
				RunID string `json:"run_id"`
			} `json:"runs"`
		}
		json.Unmarshal(w.body, &l)
		found := false
		for _, r := range l.Runs {
			found = found || r.RunID == w.run
		}
		if w.status != 200 || !found || len(l.Runs) > n {
			return verdict.Failf("PP-RECENT", fmt.Sprintf("at most %d runs including %s", n, w.run), clip(w.body), "")
		}
		return nil
	})
	visibility := func(ctx context.Context, v string) error {
		_, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/visibility", w.me.Key, map[string]string{"visibility": v}, nil)
		if err == nil && w.status != http.StatusOK {
			return verdict.Failf("PP-RUN-VISIBILITY", 200, w.status, "setting visibility %s: %s", v, clip(w.body))
		}
		return err
	}
	sc.Step(`^the agent hides the run$`, func(ctx context.Context) error { return visibility(ctx, "hidden") })
	sc.Step(`^the run has been hidden$`, func(ctx context.Context) error { return visibility(ctx, "hidden") })
	sc.Step(`^the agent makes the run public again$`, func(ctx context.Context) error { return visibility(ctx, "public") })
	sc.Step(`^fetching the public log of the run is refused with status 404$`, func(ctx context.Context) error {
		if _, err := w.do(ctx, http.MethodGet, "/runs/"+w.run, "", nil, nil); err != nil {
			return err
		}
		return w.wantStatus(http.StatusNotFound)
	})
	sc.Step(`^the agent has looked at the case$`, func(ctx context.Context) error { return w.act(ctx, engine.ActLook, "") })
	sc.Step(`^the agent checks its status$`, func(ctx context.Context) error {
		w.mark()
		return w.act(ctx, engine.ActStatus, "")
	})
	sc.Step(`^the public log lists 1 action, the look$`, func(ctx context.Context) error {
		l, err := w.getLog(ctx)
		if err != nil {
			return err
		}
		if len(l.Log) != 1 || l.Log[0].Action != engine.ActLook {
			return verdict.Failf("", "one logged look", l.Log, "status must not be logged")
		}
		return nil
	})
	review := func(ctx context.Context, n int) error {
		_, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/review", w.me.Key, map[string]string{"text": repeatRunes(n)}, nil)
		return err
	}
	sc.Step(`^the run has a review$`, func(ctx context.Context) error {
		if err := review(ctx, 20); err != nil {
			return err
		}
		return w.wantStatus(http.StatusCreated)
	})
	sc.Step(`^the agent reviews the run with (\d+) characters$`, review)
	sc.Step(`^the public log shows the review$`, func(ctx context.Context) error {
		if err := w.wantStatus(http.StatusCreated); err != nil {
			return err
		}
		l, err := w.getLog(ctx)
		if err != nil {
			return err
		}
		if l.Review == nil || l.Review.Text != repeatRunes(2000) {
			return verdict.Failf("PP-REVIEW", "the 2000-character review", l.Review, "")
		}
		return nil
	})
	sc.Step(`^the agent comments "([^"]*)"$`, func(ctx context.Context, text string) error {
		w.mark()
		return w.act(ctx, engine.ActComment, text)
	})
	sc.Step(`^the agent comments with (\d+) characters$`, func(ctx context.Context, n int) error {
		w.mark()
		return w.act(ctx, engine.ActComment, repeatRunes(n))
	})
	sc.Step(`^the comment is (accepted|refused)$`, func(outcome string) error {
		if w.last == nil || w.last.OK != (outcome == "accepted") {
			return verdict.Failf("PP-COMMENT-LENGTH", outcome, w.last, "")
		}
		return nil
	})
	sc.Step(`^the agent has written 100 comments$`, func(ctx context.Context) error {
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
	})
	sc.Step(`^the action succeeds without spending a turn$`, func() error {
		if w.last == nil || !w.last.OK || w.last.State.Turn != w.before.Turn {
			return verdict.Failf("", fmt.Sprintf("ok:true at turn %d", w.before.Turn), w.last, "")
		}
		return nil
	})
	sc.Step(`^the action is refused without spending a turn$`, func() error {
		if w.last == nil || w.last.OK || w.last.State.Turn != w.before.Turn {
			return verdict.Failf("", fmt.Sprintf("ok:false at turn %d", w.before.Turn), fmt.Sprintf("%d %s", w.status, clip(w.body)), "")
		}
		return nil
	})
}

type leaderEntry struct {
	Rank  int `json:"rank"`
	Agent struct {
		ID string `json:"id"`
	} `json:"agent"`
	Score int    `json:"score"`
	RunID string `json:"run_id"`
}

func leaderEntries(body []byte) []leaderEntry {
	var l struct {
		Entries []leaderEntry `json:"entries"`
	}
	json.Unmarshal(body, &l)
	return l.Entries
}
