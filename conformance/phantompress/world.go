package phantompress

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// identity is a registered agent the runner plays as.
type identity struct {
	Key, ID, Name string
	runs, writes  int
	burned        bool
}

// pool shares identities across scenarios so a run registers few agents and
// never exceeds the target's per-key run quota; against the embedded
// reference it also moves the clock past 00:00 JST before the server-wide
// quota would run out.
type pool struct {
	mu     sync.Mutex
	cur    *identity
	writes int
	regs   int
	n      int
}

// Headroom the pool keeps below the seed's limits.
const (
	runsPerIdentity   = 25
	writesPerIdentity = 900
	writesBeforeReset = 2500
	regsBeforeReset   = 150
)

func poolOf(env *suite.Env) *pool {
	v, _ := env.Shared.Once("phantom-press/pool", func() (any, error) { return &pool{}, nil })
	return v.(*pool)
}

// world is one scenario's state.
type world struct {
	env  *suite.Env
	me   *identity
	run  string
	m    *Model
	snap *engine.StateView

	status int
	header http.Header
	body   []byte
	last   *actionResponse
	expect Expect
	before engine.StateView

	quota    bool // the scenario expects 429/503 answers
	doc      string
	question string
	source   string
	first    *created
	second   *created
	reg      map[string]any
	cleanup  []func()
}

func newWorld(env *suite.Env) *world { return &world{env: env} }

// do sends one request, counting writes and scanning for leaks.
func (w *world) do(ctx context.Context, method, path string, key string, body any, raw []byte) (*driver.Response, error) {
	req := driver.Request{Method: method, Path: path, JSON: body, Raw: raw, Header: map[string]string{}}
	if key != "" {
		req.Header["Authorization"] = "Bearer " + key
	}
	if w.quota {
		req.Allow = []int{http.StatusTooManyRequests, http.StatusServiceUnavailable}
	}
	if driver.IsWrite(method) {
		p := poolOf(w.env)
		p.mu.Lock()
		p.writes++
		p.mu.Unlock()
		if w.me != nil && key == w.me.Key {
			w.me.writes++
		}
	}
	resp, err := w.env.HTTP.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	w.status, w.header, w.body = resp.Status, resp.Header, resp.Body
	if !strings.HasPrefix(path, "/runs") {
		return resp, nil
	}
	if p := leaks(resp.Body); p != "" {
		return nil, verdict.Failf("PP-HIDE-BEFORE-PUBLISH", "no hidden truth outside a publish settlement", p, "%s %s", method, path)
	}
	return resp, nil
}

// identity returns the pooled agent, registering one when needed.
func (w *world) identity(ctx context.Context) (*identity, error) {
	p := poolOf(w.env)
	p.mu.Lock()
	defer p.mu.Unlock()
	if w.env.Clock != nil && (p.writes >= writesBeforeReset || p.regs >= regsBeforeReset) {
		advanceToReset(w.env.Clock)
		p.writes, p.regs, p.cur = 0, 0, nil
	}
	if p.cur == nil || p.cur.burned || p.cur.runs >= runsPerIdentity || p.cur.writes >= writesPerIdentity {
		p.n++
		id, err := w.register(ctx, fmt.Sprintf("pp-conformance-%d", p.n))
		if err != nil {
			return nil, err
		}
		p.regs++
		p.cur = id
	}
	w.me = p.cur
	return p.cur, nil
}

// advanceToReset moves the embedded clock just past the next 00:00 JST.
func advanceToReset(c *suite.Clock) {
	jst := time.FixedZone("JST", 9*3600)
	now := c.Now().In(jst)
	next := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 1, 0, jst)
	c.Advance(next.Sub(now))
}

// register registers a new agent and remembers its key as a secret.
func (w *world) register(ctx context.Context, name string) (*identity, error) {
	resp, err := w.env.HTTP.Do(ctx, driver.Request{Method: http.MethodPost, Path: "/register", JSON: map[string]string{"name": name}})
	if err != nil {
		return nil, err
	}
	var reg struct {
		AgentID string `json:"agent_id"`
		APIKey  string `json:"api_key"`
	}
	if resp.Status != http.StatusCreated && resp.Status != http.StatusOK {
		return nil, verdict.Failf("PP-REGISTER", "201", resp.Status, "registering %q: %s", name, resp.Body)
	}
	if err := resp.Decode("PP-REGISTER", &reg); err != nil {
		return nil, err
	}
	if reg.APIKey == "" {
		return nil, verdict.Failf("PP-REGISTER", "an api_key", string(resp.Body), "")
	}
	w.env.HTTP.Secrets().Add(reg.APIKey)
	return &identity{Key: reg.APIKey, ID: reg.AgentID, Name: name}, nil
}

// startRun starts a run for the pooled identity.
func (w *world) startRun(ctx context.Context, budget int, seed *string) error {
	me, err := w.identity(ctx)
	if err != nil {
		return err
	}
	body := map[string]any{"budget_turns": budget}
	if seed != nil {
		body["seed"] = *seed
	}
	resp, err := w.do(ctx, http.MethodPost, "/runs", me.Key, body, nil)
	if err != nil {
		return err
	}
	me.runs++
	if resp.Status != http.StatusCreated {
		return verdict.Failf("PP-RUN-CREATE", 201, resp.Status, "POST /runs: %s", resp.Body)
	}
	var c created
	if err := resp.Decode("PP-RUN-CREATE", &c); err != nil {
		return err
	}
	return w.adopt(&c)
}

// adopt makes c the scenario's run.
func (w *world) adopt(c *created) error {
	if c.RunID == "" || c.State.Status != engine.StatusActive || c.State.CaseNo != 1 {
		return verdict.Failf("PP-RUN-CREATE", "an active run at case 1", fmt.Sprintf("%s %s case %d", c.RunID, c.State.Status, c.State.CaseNo), "")
	}
	if err := CheckCaseTable(c.State.Case, c.State.AP); err != nil {
		return err
	}
	if w.first == nil {
		w.first = c
	}
	w.run = c.RunID
	w.m = NewModel(c.State)
	return nil
}

// act performs one action and checks it against the model.
func (w *world) act(ctx context.Context, action, arg string) error {
	if w.m == nil {
		return verdict.Errorf("no run in this scenario")
	}
	body := map[string]string{"action": action}
	if arg != "" {
		body["arg"] = arg
	}
	e := w.m.Predict(action, arg)
	w.before, w.expect, w.last = w.m.State, e, nil
	resp, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/action", w.me.Key, body, nil)
	if err != nil {
		return err
	}
	if w.quota && resp.Status != http.StatusOK {
		return nil
	}
	if resp.Status == http.StatusOK {
		var r actionResponse
		if err := resp.Decode("PP-STATE-VIEW", &r); err != nil {
			return err
		}
		w.last = &r
	}
	return w.m.Check(action, arg, e, resp.Status, w.last)
}

// mark snapshots the run state for "nothing about the run changed".
func (w *world) mark() {
	if w.m != nil {
		s := w.m.State
		w.snap = &s
	}
}

// fetchState reads the run's current state through the status action,
// which neither spends a turn nor counts as a write.
func (w *world) fetchState(ctx context.Context) (engine.StateView, error) {
	saved := w.quota
	w.quota = false
	defer func() { w.quota = saved }()
	resp, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/action", w.me.Key, map[string]string{"action": "status"}, nil)
	if err != nil {
		return engine.StateView{}, err
	}
	var r actionResponse
	if resp.Status != http.StatusOK {
		return engine.StateView{}, verdict.Failf("PP-STATUS", 200, resp.Status, "status: %s", resp.Body)
	}
	if err := resp.Decode("PP-STATUS", &r); err != nil {
		return engine.StateView{}, err
	}
	return r.State, nil
}

// getLog fetches the public run log.
func (w *world) getLog(ctx context.Context) (*runLog, error) {
	resp, err := w.do(ctx, http.MethodGet, "/runs/"+w.run, "", nil, nil)
	if err != nil {
		return nil, err
	}
	if resp.Status != http.StatusOK {
		return nil, verdict.Failf("", 200, resp.Status, "GET /runs/%s: %s", w.run, resp.Body)
	}
	var l runLog
	return &l, resp.Decode("PP-RUN-LOG", &l)
}

func (w *world) errBody() errorBody {
	var e errorBody
	json.Unmarshal(w.body, &e)
	return e
}

// hasJapanese reports whether s holds kana or kanji.
func hasJapanese(s string) bool {
	for _, r := range s {
		if (r >= 0x3040 && r <= 0x30ff) || (r >= 0x4e00 && r <= 0x9fff) {
			return true
		}
	}
	return false
}

func repeatRunes(n int) string { return strings.Repeat("校", n) }
