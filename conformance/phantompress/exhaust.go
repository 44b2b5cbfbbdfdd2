package phantompress

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// The seed's per-agent daily limits a --exhaust-quotas run reaches on a
// live target with throwaway agents (PP-QUOTA-WRITES-AGENT, PP-QUOTA-RUNS).
const (
	seedWritesPerAgent = 1000
	seedRunsPerKey     = 30
)

// exhausted is a throwaway agent that spent its whole daily allowance of
// one kind, shared by the scenarios that start from it, so one day's
// allowance is spent once however many scenarios look at the limit.
type exhausted struct {
	me  *identity
	run *created // its last run, still active
	m   *Model
	err error
}

// exhaustLive reports whether a quota step may spend a throwaway agent's
// whole allowance: a live target and --exhaust-quotas. Otherwise it
// returns the skip the step gives.
func (w *world) exhaustLive() (bool, error) {
	if !w.env.Live() {
		return false, nil
	}
	if !w.env.ExhaustQuotas {
		return false, verdict.Skipf("spends a throwaway agent's whole daily allowance: run with --exhaust-quotas (staging deployments)")
	}
	return true, nil
}

// boundaryBySpending skips the "still succeeds" side of a per-agent limit
// on a live target: the exhaust run reaches the limit by spending, and
// checks there that the last allowed request succeeded.
func boundaryBySpending(limit, n int) error {
	if n >= limit {
		return nil
	}
	return verdict.Skipf("on a live target --exhaust-quotas checks that the %dth request succeeds while spending the allowance (the past-the-limit scenario)", limit)
}

// writesSpentAgent adopts the shared throwaway agent whose writes are
// spent: it registered, started runs and looked at their cases until the
// target refused a write, which must come exactly after the seed's 1000
// (PP-QUOTA-WRITES-AGENT).
func (w *world) writesSpentAgent(ctx context.Context) error {
	p := poolOf(w.env)
	p.exhaustMu.Lock() // not Shared.Once: spending reaches poolOf, which uses it
	if p.exhaustedWrites == nil {
		p.exhaustedWrites = w.spendWrites(ctx, p)
	}
	e := p.exhaustedWrites
	p.exhaustMu.Unlock()
	if e.err != nil {
		return e.err
	}
	w.me, w.run, w.m, w.first = e.me, e.run.RunID, e.m, e.run
	return nil
}

// spendWrites spends a fresh agent's writes until the first refusal.
func (w *world) spendWrites(ctx context.Context, p *pool) *exhausted {
	me, err := w.throwaway(ctx, p, "pp-exhaust-writes")
	if err != nil {
		return &exhausted{err: err}
	}
	e := &exhausted{me: me}
	w.quota = true // the 429 that ends the spending is expected
	accepted := 0
	for accepted <= seedWritesPerAgent {
		path, body := w.nextWrite(e)
		resp, err := w.do(ctx, http.MethodPost, path, me.Key, body, nil)
		if err != nil {
			return &exhausted{err: err}
		}
		if resp.Status == http.StatusTooManyRequests {
			break
		}
		if err := e.keep(w, path, resp.Status, resp.Body); err != nil {
			return &exhausted{err: err}
		}
		accepted++
	}
	if accepted != seedWritesPerAgent {
		return &exhausted{err: verdict.Failf("PP-QUOTA-WRITES-AGENT", fmt.Sprintf("%d writes accepted, then 429", seedWritesPerAgent),
			accepted, "a fresh agent's writes before the first refusal")}
	}
	return e
}

// nextWrite is the throwaway's next write: a look at its run's case while
// the run has turns and AP, otherwise a new run.
func (w *world) nextWrite(e *exhausted) (string, any) {
	if e.run == nil || e.m.State.Status != engine.StatusActive || e.m.State.Turn >= e.m.State.BudgetTurns {
		return "/runs", map[string]int{"budget_turns": defaultBudget}
	}
	return "/runs/" + e.run.RunID + "/action", map[string]string{"action": engine.ActLook}
}

// keep follows the throwaway's run from an accepted write.
func (e *exhausted) keep(w *world, path string, status int, body []byte) error {
	if path == "/runs" {
		if !created2xx(status) {
			return verdict.Failf("PP-RUN-CREATE", "200 or 201", status, "POST /runs: %s", clip(body))
		}
		w.m, w.run = nil, ""
		var c created
		if err := json.Unmarshal(body, &c); err != nil {
			return verdict.Failf("PP-RUN-CREATE", "a JSON run", clip(body), "%v", err)
		}
		if err := w.adopt(&c, body, treeOf(body)); err != nil {
			return err
		}
		e.run, e.m = &c, w.m
		return nil
	}
	var r actionResponse
	if err := json.Unmarshal(body, &r); err == nil && r.State.RunID != "" {
		e.m.State = r.State
	}
	return nil
}

// throwaway registers an agent the run spends whole and never pools; it
// and its writes do not count against the live plan (they are the exhaust
// run's: two agents, 1000 writes and 30 runs).
func (w *world) throwaway(ctx context.Context, p *pool, name string) (*identity, error) {
	me, err := w.register(ctx, name)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.regs++
	if p.throwaways == nil {
		p.throwaways = map[string]bool{}
	}
	p.throwaways[me.Key] = true
	p.mu.Unlock()
	return me, nil
}

// runsSpentAgent registers a throwaway agent and starts the seed's 30 runs
// of the day with it, each of which must start (PP-QUOTA-RUNS); the
// scenario then starts one more.
func (w *world) runsSpentAgent(ctx context.Context) error {
	me, err := w.throwaway(ctx, poolOf(w.env), "pp-exhaust-runs")
	if err != nil {
		return err
	}
	w.me = me
	w.quota = true // a 429 here is judged, not a harness error at once
	for i := 1; i <= seedRunsPerKey; i++ {
		if _, err := w.do(ctx, http.MethodPost, "/runs", me.Key, map[string]int{"budget_turns": 1}, nil); err != nil {
			return err
		}
		me.runs++
		switch st := w.Status(); {
		case created2xx(st):
		case st == http.StatusTooManyRequests && !w.dailyLimitOtherThanWrites(), st == http.StatusServiceUnavailable:
			return verdict.Errorf("target over quota, rate-limited or unavailable: POST /runs answered %d (%s) at run %d of the day; writes are never retried", st, clip(w.Body()), i)
		default:
			return verdict.Failf("PP-QUOTA-RUNS", "200 or 201", st, "run %d of the day: %s", i, clip(w.Body()))
		}
	}
	return nil
}

// dailyLimitOtherThanWrites reports whether the last answer, a 429, is a
// daily limit other than the write limits: its code is not
// daily_write_limit (whose server-wide pool other agents may have spent)
// and its limit.reset_at or Retry-After ends at the next 00:00 JST. A
// throwaway agent refused so before its 30th run was refused by the
// runs limit reached early (PP-QUOTA-RUNS); a short-term rate limit,
// whose body the seed leaves open, asks no wait to the day's reset.
func (w *world) dailyLimitOtherThanWrites() bool {
	e := w.errBody()
	if e.Code == "daily_write_limit" {
		return false
	}
	now := answeredAt(w.env.Clock, w.Header())
	next := nextJSTMidnight(now)
	if e.Limit != nil {
		if at, err := time.Parse(time.RFC3339, e.Limit.ResetAt); err == nil && absDuration(at.Sub(next)) <= 2*time.Second {
			return true
		}
	}
	ra, err := strconv.Atoi(w.Header().Get("Retry-After"))
	return err == nil && absDuration(now.Add(time.Duration(ra)*time.Second).Sub(next)) <= 2*time.Second
}
