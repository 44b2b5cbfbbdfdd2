package forge

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
	sc.Step(pattern(`^a new session of the level, once the spent one is submitted, answers its first probe$`), w.budgetPerSession)
	sc.Step(pattern(`^the session's lifetime passes$`), w.expire)
	sc.Step(pattern(`^a probe and a submission are refused$`), w.expiredJudged)
	sc.Step(pattern(`^the agent reads its progress (\d+) times as fast as it can$`), w.burst)
	sc.Step(pattern(`^any 429 answer carries Retry-After$`), w.burstJudged)
}

func (w *world) spendBudget(ctx context.Context) error {
	if w.sess.QueryBudget <= 0 || w.sess.QueryBudget > 1000 {
		return verdict.Skipf("the session states no usable queryBudget (%d)", w.sess.QueryBudget)
	}
	if err := countsAddUp(w.sess.QueriesUsed, w.sess.QueriesRemaining, w.sess.QueryBudget, "the session as opened"); err != nil {
		return err
	}
	for i := 0; i <= w.sess.QueryBudget; i++ {
		// The query past the budget may meet a lasting 429: it refuses it.
		resp, err := w.sendRetrying(ctx, w.me, driver.Request{Method: http.MethodPost, Path: "/api/sessions/" + w.sess.SessionID + "/query",
			JSON: map[string]any{"input": w.distinctProbe()}, Allow: []int{429}}, i == w.sess.QueryBudget)
		if err != nil {
			return err
		}
		w.Last = resp
		var q struct{ QueriesUsed, QueriesRemaining *int }
		if resp.Status == http.StatusOK && json.Unmarshal(resp.Body, &q) == nil {
			if err := countsAddUp(q.QueriesUsed, q.QueriesRemaining, w.sess.QueryBudget, fmt.Sprintf("the answer to query %d", i+1)); err != nil {
				return err
			}
		}
		if i < w.sess.QueryBudget && resp.Status != http.StatusOK {
			return verdict.Failf("FORGE-QUERY-BUDGET", "queries within the budget answered", resp.Status, "query %d of %d", i+1, w.sess.QueryBudget)
		}
	}
	return nil
}

// countsAddUp fails FORGE-QUERY-BUDGET when an answer states both
// queriesUsed and queriesRemaining and they do not add up to the session's
// budget: a remaining count left stale after a query (docs/detection.md,
// forge round 3). An answer stating either alone is unchecked.
func countsAddUp(used, remaining *int, budget int, what string) error {
	if used == nil || remaining == nil || *used+*remaining == budget {
		return nil
	}
	return verdict.Failf("FORGE-QUERY-BUDGET", budget-*used, *remaining, "queriesRemaining in %s, with queriesUsed %d of a budget of %d", what, *used, budget)
}

func (w *world) extraRefused() error {
	if w.Last.Status/100 != 4 {
		return verdict.Failf("FORGE-QUERY-BUDGET", "the query past the budget refused", w.Last.Status, "budget %d", w.sess.QueryBudget)
	}
	return nil
}

// budgetPerSession submits the spent session (wrong outputs, so the level
// stays current), opens a new session and asks it one legal probe, which
// must be answered: the budget is each session's, not the agent's
// (FORGE-QUERY-BUDGET, "each session has a query budget"; docs/detection.md,
// forge round 9). A deployment that opens no second session on the level
// (the retry is the reference's choice, FORGE-REF-WRONG-SUBMISSION) or
// does not serve the probe (404) leaves it unchecked.
func (w *world) budgetPerSession(ctx context.Context) error {
	if _, _, err := w.submit(ctx, w.me, w.sess, w.wrongOutputs()); err != nil {
		return err
	}
	s, resp, err := w.openSession(ctx, w.me)
	if err != nil {
		return err
	}
	if s == nil {
		return verdict.Skipf("no second session opened on the level (%d); the budget per session is unchecked", resp.Status)
	}
	w.sess = s
	if err := countsAddUp(s.QueriesUsed, s.QueriesRemaining, s.QueryBudget, "a second session as opened"); err != nil {
		return err
	}
	probe, err := w.sendRetrying(ctx, w.me, driver.Request{Method: http.MethodPost, Path: "/api/sessions/" + s.SessionID + "/query",
		JSON: map[string]any{"input": w.distinctProbe()}, Allow: []int{429}}, false)
	switch {
	case err != nil:
		return err
	case probe.Status == http.StatusNotFound:
		return verdict.Skipf("the second session's query is not served (404); the budget per session is unchecked")
	case probe.Status != http.StatusOK:
		return verdict.Failf("FORGE-QUERY-BUDGET", "the first probe of a new session answered", probe.Status,
			"after the agent spent an earlier session's budget: %s", w.env.HTTP.Secrets().Clip(probe.Body))
	}
	return nil
}

// expire lets the session's lifetime pass: on the embedded reference's
// clock, or, live (a @long scenario, run only with --long), in real time
// until a few seconds past the expiresAt the session stated. The contract
// names expiry but no lifetime, so a session stating none, or one more
// than maxExpiryWait away, is unchecked.
func (w *world) expire(ctx context.Context) error {
	if w.env.Clock != nil {
		w.env.Clock.Advance(rforge.SessionTTL + time.Minute)
		return nil
	}
	at, ok := expiresAt(w.sess.ExpiresAt)
	if !ok {
		return verdict.Skipf("unchecked: the session states no readable expiresAt, so its lifetime is unknown")
	}
	wait := time.Until(at) + expirySlack
	if wait > maxExpiryWait {
		return verdict.Skipf("unchecked: the session expires in %s, past the %s a --long run waits", wait.Round(time.Second), maxExpiryWait)
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(max(wait, 0)):
	}
	return nil
}

// expirySlack covers a clock difference between the runner and the
// target; maxExpiryWait bounds how long a --long run waits for one session.
const (
	expirySlack   = 5 * time.Second
	maxExpiryWait = 35 * time.Minute
)

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

// burstWorkers is how many reads of a burst are in flight at once: a
// client reading one at a time, slower than the reference's refill of 60
// a second, would never meet its limit.
const burstWorkers = 16

// burst reads the agent's progress n times from burstWorkers goroutines,
// every request built before the first is sent, and stops at the first
// 429 (FORGE-RATE-LIMIT). The answers are kept (FORGE-KEY-ONCE) once the
// burst is over; when none was a 429 the burst's pace goes into burstNote,
// for the skip that says why nothing was checked.
func (w *world) burst(ctx context.Context, n int) error {
	req := driver.Request{Method: http.MethodGet, Path: "/api/progress", Allow: []int{429, 503},
		Header: map[string]string{"Authorization": "Bearer " + w.me.Key}}
	answers, took, err := sendBurst(ctx, w.env.HTTP, req, n)
	for _, resp := range answers {
		if resp.Status == http.StatusServiceUnavailable {
			return unavailableInBurst(resp, w.env.HTTP.Secrets().Clip(resp.Body))
		}
		if _, kerr := w.keep(req, resp); kerr != nil {
			return kerr
		}
		if resp.Status == http.StatusTooManyRequests && w.Last == nil {
			w.Last = resp
		}
	}
	if err != nil {
		return err
	}
	if w.Last != nil {
		w.limited = map[string]*driver.Response{req.Method + " " + req.Path: w.Last}
		return w.limitedElsewhere(ctx)
	}
	if w.Last == nil {
		w.burstNote = fmt.Sprintf("%d reads in %v (%.0f a second, %d at a time)", len(answers), took.Round(time.Millisecond),
			float64(len(answers))/max(took.Seconds(), 1e-3), burstWorkers)
	}
	return nil
}

// unavailableInBurst judges a 503 met in the burst: one that names the
// rate limit in its code is the limit under the wrong status
// (FORGE-RATE-LIMIT: 429, docs/detection.md forge round 3); any other is
// a target that cannot serve, a harness error as the driver reports it.
func unavailableInBurst(resp *driver.Response, body string) error {
	if strings.Contains(strings.ToUpper(code(resp)), "RATE") {
		return verdict.Failf("FORGE-RATE-LIMIT", http.StatusTooManyRequests, resp.Status, "the burst met the rate limit: %s", body)
	}
	return verdict.Errorf("target unavailable: GET /api/progress answered 503 in the burst (%s)", body)
}

// sendBurst sends req n times over d from burstWorkers goroutines, each
// taking the next of the n sends, until one answers 429. It returns the
// answers in the order they came, how long the burst took and the first
// error.
func sendBurst(ctx context.Context, d *driver.HTTP, req driver.Request, n int) ([]*driver.Response, time.Duration, error) {
	var (
		mu       sync.Mutex
		answers  []*driver.Response
		firstErr error
		next     atomic.Int64
		limited  atomic.Bool
		wg       sync.WaitGroup
	)
	start := time.Now()
	for range min(burstWorkers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) && !limited.Load() {
				resp, err := d.Do(ctx, req)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if err == nil {
					answers = append(answers, resp)
				}
				mu.Unlock()
				if err != nil || resp.Status == http.StatusTooManyRequests || resp.Status == http.StatusServiceUnavailable {
					limited.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	return answers, time.Since(start), firstErr
}

// limitedReads are the reads sent once a burst met its 429, as the same
// agent: the limit the burst spent holds for them too, so a 429 there
// shows whether Retry-After comes on every route, not the burst's only.
var limitedReads = []string{"/api/agent", "/api/leaderboards", "/api/chain"}

// limitedWrites follow limitedReads: the oracle's and the judge's routes,
// on a session id no deployment issued, so a request the limit lets
// through is refused for its session and changes nothing. A limiter of
// the play routes' own answers there (docs/detection.md, forge round 6).
var limitedWrites = []driver.Request{
	{Method: http.MethodPost, Path: "/api/sessions/kit-no-session/query", JSON: map[string]any{"input": []int{1}}},
	{Method: http.MethodPost, Path: "/api/sessions/kit-no-session/submit", JSON: map[string]any{"outputs": []int{}}},
}

// limitedElsewhere sends limitedReads and limitedWrites right after the
// burst's 429 and files each 429 among them for burstJudged; a request the
// limit let through (a limiter that refilled, or one per route) judges
// nothing.
func (w *world) limitedElsewhere(ctx context.Context) error {
	reqs := make([]driver.Request, 0, len(limitedReads)+len(limitedWrites))
	for _, path := range limitedReads {
		reqs = append(reqs, driver.Request{Method: http.MethodGet, Path: path})
	}
	for _, req := range append(reqs, limitedWrites...) {
		req.Allow, req.Header = []int{429}, map[string]string{"Authorization": "Bearer " + w.me.Key}
		resp, err := w.env.HTTP.Do(ctx, req)
		if err != nil {
			return err
		}
		if _, err := w.keep(req, resp); err != nil {
			return err
		}
		if resp.Status == http.StatusTooManyRequests {
			w.limited[req.Method+" "+req.Path] = resp
		}
	}
	return nil
}

func (w *world) burstJudged() error {
	if w.Last == nil {
		return verdict.Skipf("no rate limit was met within the burst (%s): the contract documents no rate, so a target that never answered 429 is unchecked", w.burstNote)
	}
	for _, where := range slices.Sorted(maps.Keys(w.limited)) {
		ra := w.limited[where].Header.Get("Retry-After")
		if ra == "" {
			return verdict.Failf("FORGE-RATE-LIMIT", "429 with Retry-After", "no Retry-After", "a rate-limited answer to %s", where)
		}
		if !validRetryAfter(ra) {
			return verdict.Failf("FORGE-RATE-LIMIT", "Retry-After as delay-seconds or an HTTP-date (RFC 9110)", ra, "a rate-limited answer to %s", where)
		}
	}
	return nil
}

// validRetryAfter: a Retry-After is a whole number of seconds or an
// HTTP-date (RFC 9110 section 10.2.3); "1s" or "1.5" tells an agent no
// wait it can read (FORGE-RATE-LIMIT).
func validRetryAfter(v string) bool {
	if n, err := strconv.Atoi(v); err == nil {
		return n >= 0
	}
	_, err := http.ParseTime(v)
	return err == nil
}

// expiresAt reads a session's expiresAt: an RFC 3339 time, or a Unix time
// in seconds or milliseconds.
func expiresAt(raw json.RawMessage) (time.Time, bool) {
	var t time.Time
	if json.Unmarshal(raw, &t) == nil && !t.IsZero() {
		return t, true
	}
	var n float64
	if json.Unmarshal(raw, &n) != nil || n <= 0 {
		return time.Time{}, false
	}
	if n > 1e12 {
		return time.UnixMilli(int64(n)), true
	}
	return time.Unix(int64(n), 0), true
}

// racingSubmissions sends two submissions of one session at the same
// moment, both built before either is sent: a deployment that checks
// "already submitted" before it stores the judgement, without a lock,
// judges both. The answers are kept (FORGE-KEY-ONCE) once both are in.
func (w *world) racingSubmissions(ctx context.Context) error {
	outs := make([]any, 0)
	for _, o := range w.wrongOutputs() {
		outs = append(outs, o)
	}
	req := driver.Request{Method: http.MethodPost, Path: "/api/sessions/" + w.sess.SessionID + "/submit",
		JSON: map[string]any{"outputs": outs}, Header: map[string]string{"Authorization": "Bearer " + w.me.Key}}
	answers := make([]*driver.Response, 2)
	errs := make([]error, 2)
	var start, done sync.WaitGroup
	start.Add(1)
	for i := range answers {
		done.Add(1)
		go func() {
			defer done.Done()
			start.Wait()
			answers[i], errs[i] = w.env.HTTP.Do(ctx, req)
		}()
	}
	start.Done()
	done.Wait()
	for i, resp := range answers {
		if errs[i] != nil {
			return errs[i]
		}
		if _, err := w.keep(req, resp); err != nil {
			return err
		}
	}
	w.answers = answers
	return nil
}

// racingJudged fails FORGE-ONE-SUBMISSION when both racing submissions
// were judged (both answered 2xx). Both refused is left open: a wrong
// submission may be refused (FORGE-REF-WRONG-SUBMISSION).
func (w *world) racingJudged() error {
	if len(w.answers) == 2 && w.answers[0].Status/100 == 2 && w.answers[1].Status/100 == 2 {
		return verdict.Failf("FORGE-ONE-SUBMISSION", "one submission judged, the other refused", []int{w.answers[0].Status, w.answers[1].Status},
			"two submissions of one session sent at once were both judged: %s", w.env.HTTP.Secrets().Clip(w.answers[1].Body))
	}
	return nil
}
