package forge

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/forge/authoring"
	"github.com/agentgames/conformance/reference/forge/dsl"
	"github.com/agentgames/conformance/reference/forge/solver"
)

// levelView is a level's public view as the runner reads it.
type levelView struct {
	Position    int                 `json:"position"`
	LevelID     string              `json:"levelId"`
	Title       string              `json:"title"`
	Rules       string              `json:"rules"`
	InputDomain authoring.Domain    `json:"inputDomain"`
	Examples    []authoring.Example `json:"examples"`
}

// progressDoc is GET /api/progress.
type progressDoc struct {
	ChainProgress *int       `json:"chainProgress"`
	CurrentLevel  *levelView `json:"currentLevel"`
	AtFrontier    *bool      `json:"atFrontier"`
	// The counts, each unchecked where a progress leaves it out;
	// completedLevels is chainProgress by another name
	// (practiceRanking.solverRanking.chainProgressEquals).
	ClearedLevels, SkippedLevels, CompletedLevels *int
}

func (p progressDoc) progress() int { return deref(p.ChainProgress) }

// frontier reports whether p says atFrontier (false when it leaves it out).
func (p progressDoc) frontier() bool { return p.AtFrontier != nil && *p.AtFrontier }

func deref(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

// sessionDoc is a session as POST /api/sessions answers it.
type sessionDoc struct {
	SessionID       string     `json:"sessionId"`
	Position        int        `json:"position"`
	Level           *levelView `json:"level"`
	ChallengeInputs [][]int64  `json:"challengeInputs"`
	QueryBudget     int        `json:"queryBudget"`
	// QueriesUsed and QueriesRemaining are the openapi's optional counts;
	// when both are stated they add up to the budget (FORGE-QUERY-BUDGET).
	QueriesUsed      *int `json:"queriesUsed"`
	QueriesRemaining *int `json:"queriesRemaining"`
	// ExpiresAt is read lazily (expiresAt): its form is not the contract's.
	ExpiresAt json.RawMessage `json:"expiresAt"`
}

// submitDoc is a submission's verdict.
type submitDoc struct {
	Correct  *bool       `json:"correct"`
	Progress progressDoc `json:"progress"`
}

func (c *client) progress(ctx context.Context, a *agent) (progressDoc, error) {
	var p progressDoc
	_, err := c.get(ctx, a, "/api/progress", "FORGE-PROGRESS", &p)
	if err == nil && p.ChainProgress == nil {
		err = verdict.Failf("FORGE-PROGRESS", "chainProgress", "none", "GET /api/progress has no chainProgress")
	}
	if err == nil {
		err = p.consistent("GET /api/progress")
	}
	return p, err
}

// consistent: a progress agrees with itself. At the frontier the agent
// stops, so one that says atFrontier while it still shows an unlocked
// level to play contradicts itself (FORGE-AT-FRONTIER); chainProgress
// equals completedLevels, skips included, so a completedLevels stated
// apart from it is wrong (FORGE-SKIP-ACCOUNTING; docs/detection.md, forge
// round 4). A count the progress leaves out is unchecked.
func (p progressDoc) consistent(where string) error {
	if p.frontier() && p.CurrentLevel != nil {
		return verdict.Failf("FORGE-AT-FRONTIER", "atFrontier false while a current level is unlocked", "atFrontier true",
			"%s shows level %d and atFrontier", where, p.CurrentLevel.Position)
	}
	if p.CompletedLevels != nil && p.ChainProgress != nil && *p.CompletedLevels != *p.ChainProgress {
		return verdict.Failf("FORGE-SKIP-ACCOUNTING", *p.ChainProgress, *p.CompletedLevels,
			"%s: completedLevels against chainProgress (%d cleared, %d skipped)", where, deref(p.ClearedLevels), deref(p.SkippedLevels))
	}
	return nil
}

// agrees: a correct submission's returned progress states what GET
// /api/progress reads right after it, where it states a value at all: the
// agent continues from the returned progress and stops when it says
// atFrontier. Its counts are FORGE-SUBMIT-ADVANCES; an atFrontier false
// where the read says true is FORGE-AT-FRONTIER (docs/detection.md, forge
// rounds 3 and 4). Nothing but this agent's own writes moves its progress
// on, and the chain only grows, so the read cannot be further along.
func (r progressDoc) agrees(p progressDoc) error {
	if r.ChainProgress != nil && *r.ChainProgress != p.progress() {
		return verdict.Failf("FORGE-SUBMIT-ADVANCES", p.progress(), *r.ChainProgress, "the chainProgress the correct submission returned, against GET /api/progress after it")
	}
	if !sameCount(r.ClearedLevels, p.ClearedLevels) || !sameCount(r.SkippedLevels, p.SkippedLevels) || !sameCount(r.CompletedLevels, p.CompletedLevels) {
		return verdict.Failf("FORGE-SUBMIT-ADVANCES", []int{deref(p.ClearedLevels), deref(p.SkippedLevels), deref(p.CompletedLevels)},
			[]int{deref(r.ClearedLevels), deref(r.SkippedLevels), deref(r.CompletedLevels)},
			"clearedLevels, skippedLevels and completedLevels the correct submission returned, against GET /api/progress after it")
	}
	if r.AtFrontier != nil && !*r.AtFrontier && p.frontier() {
		return verdict.Failf("FORGE-AT-FRONTIER", "atFrontier true", "atFrontier false",
			"the correct submission's progress, where GET /api/progress after it is at the frontier")
	}
	return r.consistent("a correct submission's progress")
}

// openSession opens a session with the exact body {} (FORGE-SESSION-EMPTY-BODY).
func (c *client) openSession(ctx context.Context, a *agent) (*sessionDoc, *driver.Response, error) {
	resp, err := c.sendWaiting(ctx, a, driver.Request{Method: http.MethodPost, Path: "/api/sessions", Raw: []byte(`{}`), Allow: []int{429}})
	if err != nil {
		return nil, resp, err
	}
	if resp.Status/100 != 2 {
		return nil, resp, nil
	}
	var s sessionDoc
	if err := resp.Decode("FORGE-SESSION-CURRENT", &s); err != nil {
		return nil, resp, err
	}
	if s.SessionID == "" || s.Level == nil {
		return nil, resp, verdict.Failf("FORGE-SESSION-CURRENT", "a session with its id and level", "neither", "POST /api/sessions answered %d", resp.Status)
	}
	return &s, resp, nil
}

// mustOpen opens a session that the contract says must open.
func (c *client) mustOpen(ctx context.Context, a *agent) (*sessionDoc, error) {
	s, resp, err := c.openSession(ctx, a)
	if err == nil && s == nil && resp.Status == http.StatusTooManyRequests {
		// A documented rate limit says nothing about the session rule.
		return nil, verdict.Errorf("the target rate-limited a session opening (429, Retry-After %q)", resp.Header.Get("Retry-After"))
	}
	if err == nil && s == nil {
		err = verdict.Failf("FORGE-SESSION-CURRENT", "a session on the current level", resp.Status, "POST /api/sessions {}: %s", c.env.HTTP.Secrets().Clip(resp.Body))
	}
	return s, err
}

// post sends a write, waiting out a 429's Retry-After a few times
// (sendWaiting).
func (c *client) post(ctx context.Context, a *agent, path string, body any) (*driver.Response, error) {
	return c.sendWaiting(ctx, a, driver.Request{Method: http.MethodPost, Path: path, JSON: body, Allow: []int{429}})
}

// sendWaiting sends a write, waiting out a 429's Retry-After a few times:
// a rate-limited request was not processed, so sending it again is safe
// (FORGE-RATE-LIMIT), and a documented rate limit says nothing about the
// rule under test. A 429 that lasts is a harness error, never a verdict.
func (c *client) sendWaiting(ctx context.Context, a *agent, req driver.Request) (*driver.Response, error) {
	return c.sendRetrying(ctx, a, req, false)
}

// sendRetrying is sendWaiting; when lastingRefuses, a 429 that outlasts
// the waits is returned as the answer, not a harness error: for a request
// the contract wants refused (the query past the budget), a 429 no retry
// lifts refuses it (FORGE-QUERY-BUDGET; docs/detection.md, forge round 7).
func (c *client) sendRetrying(ctx context.Context, a *agent, req driver.Request, lastingRefuses bool) (*driver.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := c.do(ctx, a, req)
		if err != nil || resp.Status != http.StatusTooManyRequests {
			return resp, err
		}
		if attempt >= 5 && lastingRefuses {
			return resp, nil
		}
		if attempt >= 5 {
			// Still rate-limited: the target is busy, which no rule judges.
			return nil, verdict.Errorf("%s %s still answers 429 after %d waits for Retry-After", req.Method, req.Path, attempt)
		}
		if err := c.env.Wait(ctx, retryAfter(resp)); err != nil {
			return resp, verdict.Errorf("waiting for Retry-After: %v", err)
		}
	}
}

// retryAfter is the wait a 429 asks for: its Retry-After seconds, at
// least one second (a missing or unreadable header is FORGE-RATE-LIMIT's
// business, not a reason to hammer the target).
func retryAfter(resp *driver.Response) time.Duration {
	secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	return time.Duration(max(secs, 1)) * time.Second
}

// query probes the oracle; refusals come back as the response.
func (c *client) query(ctx context.Context, a *agent, s *sessionDoc, in []int64) (*driver.Response, error) {
	if in == nil {
		in = []int64{}
	}
	return c.post(ctx, a, "/api/sessions/"+s.SessionID+"/query", map[string]any{"input": in})
}

// ask is the solver's way to the oracle: a refused legal probe breaks FORGE-QUERY.
func (c *client) ask(ctx context.Context, a *agent, s *sessionDoc) solver.Query {
	return func(in []int64) (dsl.Value, error) {
		resp, err := c.query(ctx, a, s, in)
		if err != nil {
			return dsl.Value{}, err
		}
		if resp.Status != http.StatusOK {
			return dsl.Value{}, verdict.Failf("FORGE-QUERY", "a legal distinct probe answered", resp.Status,
				"probe %v: %s", in, c.env.HTTP.Secrets().Clip(resp.Body))
		}
		var out struct {
			Output json.RawMessage `json:"output"`
		}
		if err := resp.Decode("FORGE-QUERY", &out); err != nil {
			return dsl.Value{}, err
		}
		v, ok := solver.ParseOutput(out.Output)
		if !ok {
			return dsl.Value{}, errOutside
		}
		return v, nil
	}
}

var errOutside = errors.New("an output outside the kit's DSL")

// submit sends outputs for a session.
func (c *client) submit(ctx context.Context, a *agent, s *sessionDoc, outputs []dsl.Value) (*driver.Response, *submitDoc, error) {
	outs := make([]any, len(outputs))
	for i, o := range outputs {
		outs[i] = o
	}
	resp, err := c.post(ctx, a, "/api/sessions/"+s.SessionID+"/submit", map[string]any{"outputs": outs})
	if err != nil || resp.Status != http.StatusOK {
		return resp, nil, err
	}
	var d submitDoc
	return resp, &d, resp.Decode("FORGE-SUBMIT-ADVANCES", &d)
}

// searches remembers the solver's program searches for the process: the
// same seeded levels are solved in run after run.
var searches solver.Memo

// infer solves session s's level by probing; a level outside the DSL
// skips the check (the solver says so and stops).
func (c *client) infer(ctx context.Context, a *agent, s *sessionDoc, extra int) ([]dsl.Value, solver.Stats, error) {
	l := solver.Level{Domain: s.Level.InputDomain, Challenges: s.ChallengeInputs, Budget: max(s.QueryBudget-extra, 0)}
	for _, e := range s.Level.Examples {
		v, ok := solver.ParseOutput(e.Output)
		if !ok {
			return nil, solver.Stats{}, verdict.Skipf("level %d's examples are outside the kit's DSL", s.Position)
		}
		l.Examples = append(l.Examples, solver.Observation{Input: e.Input, Output: v})
	}
	rng := rand.New(rand.NewPCG(c.env.Seed, uint64(s.Position)))
	outs, st, err := searches.Solve(l, c.ask(ctx, a, s), rng)
	if errors.Is(err, solver.ErrOutsideDSL) || errors.Is(err, errOutside) {
		return nil, st, verdict.Skipf("level %d is outside the kit's DSL: %v", s.Position, err)
	}
	return outs, st, err
}

// clear opens a session on a's current level, solves it and submits; the
// submission must be judged correct.
func (c *client) clear(ctx context.Context, a *agent, extraQueries int) (*sessionDoc, *submitDoc, error) {
	from := len(c.bodies)
	s, err := c.mustOpen(ctx, a)
	if err != nil {
		return nil, nil, err
	}
	for range extraQueries {
		in, ok := solver.Probe(s.Level.InputDomain, s.ChallengeInputs, rand.New(rand.NewPCG(uint64(extraQueries), 9)))
		if ok {
			if _, err := c.ask(ctx, a, s)(in); err != nil {
				return nil, nil, err
			}
		}
	}
	outs, _, err := c.infer(ctx, a, s, extraQueries)
	if err != nil {
		return s, nil, err
	}
	to := len(c.bodies)
	resp, d, err := c.submit(ctx, a, s, outs)
	if err != nil {
		return s, nil, err
	}
	if d != nil && d.Correct != nil && *d.Correct {
		c.solved = append(c.solved, solvedLevel{s.Position, outs, from, to})
	}
	if (d == nil || d.Correct == nil || !*d.Correct) && c.env.Live() {
		return s, d, verdict.Skipf("level %d: the solver's inference was judged wrong; the deployment's rule may lie outside its search", s.Position)
	}
	if d == nil || d.Correct == nil || !*d.Correct {
		return s, d, verdict.Failf("FORGE-SUBMIT-ADVANCES", "the solver's outputs judged correct", resp.Status,
			"level %d: outputs consistent with every example and probe were refused: %s", s.Position, c.env.HTTP.Secrets().Clip(resp.Body))
	}
	return s, d, nil
}

// liveLevelCap bounds how many levels a live chain walk solves.
const liveLevelCap = 12

// distinctProbe is a legal input unlike every challenge input.
func (w *world) distinctProbe() []int64 {
	in, _ := solver.Probe(w.sess.Level.InputDomain, w.sess.ChallengeInputs, rngFor(w.env.Seed))
	return in
}

// wrongOutputs are outputs that cannot all be right: an int where the
// level gives lists and a list where it gives ints.
func (w *world) wrongOutputs() []dsl.Value {
	out := make([]dsl.Value, len(w.sess.ChallengeInputs))
	wrong := dsl.Value{Type: dsl.TList, List: []int64{424242}}
	if len(w.sess.Level.Examples) > 0 && strings.HasPrefix(strings.TrimSpace(string(w.sess.Level.Examples[0].Output)), "[") {
		wrong = dsl.Value{Type: dsl.TInt, Int: 424242}
	}
	for i := range out {
		out[i] = wrong
	}
	return out
}

func sameValues(a, b []dsl.Value) bool {
	for i := range a {
		if !solver.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}
