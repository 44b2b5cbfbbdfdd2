package phantompress

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
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
}

// world is one scenario's state. The embedded base keeps the last answer
// (Last), the state before the latest action (Before) and the cleanups.
type world struct {
	suite.Scenario[engine.StateView]
	env  *suite.Env
	me   *identity
	run  string
	m    *Model
	snap *engine.StateView

	last   *actionResponse // Last, read as an action answer
	expect Expect

	quota bool // the scenario expects 429/503 answers
	// publishing is set while a publish is in flight: its answer is never
	// kept for the hiding check.
	publishing       bool
	beforeAnswers    map[string]engine.Answer
	beforeRejections map[string]int
	doc              string
	question         string
	source           string
	first            *created
	second           *created
	reg              map[string]any
	regName          string     // the name the scenario registered
	firstKey         string     // the key of the scenario's first registration
	sized            string     // the scenario's last comment of a set length
	fire             firingPair // the two runs of the "trust between 1 and 10" scenario
	// against counts the answers hedged against an official record.
	against int
	// args are the IDs the scenario's accepted reads, interviews and
	// answers named (documents, witnesses, questions), in order.
	args []string
	// taken are the scenario's accepted actions but status, in order, for
	// the full-log check (runlog_check.go).
	taken []takenAction
	// rival is the run otherAgentStartsRun started; older are the runs
	// listed before the scenario started any, as listed (PP-RECENT,
	// recent.go).
	rival string
	older map[string]any
	// listedBefore are the run IDs ?recent=10 listed before the run was
	// hidden, in order (recent.go).
	listedBefore []string
}

func newWorld(env *suite.Env) *world { return &world{env: env} }

// do sends one request, counting writes and keeping what the target showed
// before publish for the hiding check.
func (w *world) do(ctx context.Context, method, path string, key string, body any, raw []byte) (*driver.Response, error) {
	req := driver.Request{Method: method, Path: path, JSON: body, Raw: raw, Header: map[string]string{}}
	if key != "" {
		req.Header["Authorization"] = "Bearer " + key
	}
	if w.quota {
		req.Allow = []int{http.StatusTooManyRequests, http.StatusServiceUnavailable}
	}
	if driver.IsWrite(method) && !isStatus(body) && path != "/register" {
		p := poolOf(w.env)
		p.mu.Lock()
		p.writes++
		spent := p.throwaways[key]
		p.mu.Unlock()
		if w.env.Live() && !spent {
			if err := p.plan.Write(); err != nil {
				return nil, err
			}
		}
		if w.me != nil && key == w.me.Key {
			w.me.writes++
		}
	}
	resp, err := w.env.HTTP.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	w.Last = resp
	if w.keeps(path, resp.Status) {
		w.m.see(method+" "+path, treeOfResponse(resp))
	}
	return resp, nil
}

// keeps reports whether an answer belongs to the current case's pre-publish
// record: the run's actions, and its public log before any publish (later
// logs hold earlier cases' reveals).
func (w *world) keeps(path string, status int) bool {
	if w.m == nil || w.publishing || status != http.StatusOK || w.m.State.Status != engine.StatusActive {
		return false
	}
	return path == "/runs/"+w.run+"/action" || (path == "/runs/"+w.run && len(w.m.Settlements) == 0)
}

// isStatus reports whether body is the status action, which is no write.
func isStatus(body any) bool {
	b, ok := body.(map[string]string)
	return ok && b["action"] == engine.ActStatus
}

// identity returns the pooled agent, registering it on first use. Against
// the embedded reference the clock crosses 00:00 JST when the agent nears a
// quota; against a live target the check skips instead.
func (w *world) identity(ctx context.Context) (*identity, error) {
	p := poolOf(w.env)
	p.mu.Lock()
	defer p.mu.Unlock()
	if !w.env.Live() && p.cur != nil && (p.writes >= writesBeforeReset || p.regs >= regsBeforeReset ||
		p.cur.runs >= runsPerIdentity || p.cur.writes >= writesPerIdentity) {
		advanceToReset(w.env.Clock)
		p.writes, p.regs, p.cur.runs, p.cur.writes = 0, 0, 0, 0
	}
	if why := p.spent(w.env); why != "" {
		return nil, verdict.Skipf("%s", why)
	}
	if w.env.Live() && p.cur != nil && p.full(p.cur) {
		p.cur = nil // its share is spent: the plan allows another agent
	}
	if p.cur == nil {
		if w.env.Live() {
			if err := p.plan.Identity(); err != nil {
				return nil, err
			}
			p.agents++
		}
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
	if !created2xx(resp.Status) {
		return nil, verdict.Failf("PP-REGISTER", "200 or 201", resp.Status, "registering %q: %s", name, resp.Body)
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
	return w.startRunAs(ctx, me, budget, seed)
}

// startRunAs starts a run for me.
func (w *world) startRunAs(ctx context.Context, me *identity, budget int, seed *string) error {
	w.me = me
	if w.env.Live() {
		if err := poolOf(w.env).plan.Run(); err != nil {
			return err
		}
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
	if !created2xx(resp.Status) {
		rule := "PP-RUN-CREATE"
		if resp.Status == http.StatusBadRequest && budget >= 1 && budget <= seedTurnLimit {
			rule = "PP-RUN-BUDGET-REQUIRED" // a budget of 1-200 refused as bad input
		}
		return verdict.Failf(rule, "200 or 201", resp.Status, "POST /runs with budget_turns %d: %s", budget, resp.Body)
	}
	var c created
	if err := resp.Decode("PP-RUN-CREATE", &c); err != nil {
		return err
	}
	return w.adopt(&c, resp.Body, treeOfResponse(resp))
}

// created2xx accepts either success status for a creation: the seed names
// none (201 is the kit's choice, PP-REGISTER-RESPONSE).
func created2xx(status int) bool { return status == http.StatusCreated || status == http.StatusOK }

// adopt makes c the scenario's run.
func (w *world) adopt(c *created, body []byte, tree any) error {
	if c.RunID == "" || c.State.Status != engine.StatusActive || c.State.CaseNo != 1 {
		return verdict.Failf("PP-RUN-CREATE", "an active run at case 1", fmt.Sprintf("%s %s case %d", c.RunID, c.State.Status, c.State.CaseNo), "")
	}
	shows := stateKeysOf(tree)
	if !shows["case"] {
		// The case's public face is the kit's shape: without it the
		// runner cannot tell documents, witnesses or questions apart.
		w.noteFinding(verdict.Failf("PP-STATE-VIEW", "a state with the case's public face (questions, documents, witnesses)", clip(body), ""))
		if spec, _ := seedSpecOf(1); c.State.AP != spec.AP { // PP-CASE-TABLE: 案件#1のAPは10
			return verdict.Failf("PP-CASE-TABLE", spec.AP, c.State.AP, "AP at the opening of case 1")
		}
		return verdict.Skipf("unchecked: the target's state shows no case view (the kit's PP-STATE-VIEW shape), so the runner cannot play its cases")
	}
	if err := CheckCaseTable(c.State.Case, c.State.AP); err != nil {
		return err
	}
	if w.first == nil {
		w.first = c
	}
	w.run = c.RunID
	w.m = NewModel(c.State)
	w.m.Shows = shows
	w.m.see("POST /runs", tree)
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
	w.m.Note = w.noteFinding
	e := w.m.Predict(action, arg)
	w.Before, w.expect, w.last = w.m.State, e, nil
	w.beforeAnswers = copyAnswers(w.m.Answers)
	w.beforeRejections = copyCounts(w.m.Rejections)
	if action == engine.ActAnswer {
		w.m.noteSaid(arg)
	}
	w.publishing = action == engine.ActPublish
	seen := w.m.Seen
	resp, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/action", w.me.Key, body, nil)
	w.publishing = false
	if err != nil {
		return err
	}
	if w.quota && resp.Status != http.StatusOK {
		return nil
	}
	if resp.Status == http.StatusOK {
		var r actionResponse
		if err := resp.Decode("PP-STATE-VIEW", &r); err != nil {
			return w.shapeGated(err)
		}
		r.has = stateKeysOf(treeOfResponse(resp))
		w.last = &r
		if r.OK {
			w.recordTaken(action, arg)
		}
	}
	if err := w.m.Check(action, arg, e, resp.Status, w.last); err != nil {
		return w.gateRefusal(action, e, err)
	}
	if f := engine.Fields(arg); w.last != nil && w.last.OK && len(f) > 0 &&
		(action == engine.ActRead || action == engine.ActInterview || action == engine.ActAnswer) {
		w.args = append(w.args, f[0]) // the ID the action names, however a log spells the rest
	}
	if (action == engine.ActRead || action == engine.ActInterview) && e.OK && w.last != nil && w.last.OK {
		return w.m.checkNewText(action, arg, treeOfResponse(resp), seen)
	}
	return nil
}

// gateRefusal names PP-AP-INSUFFICIENT, in that rule's scenarios, for a
// read or interview refused although the AP it costs was left: the
// refusal contradicts the cost (PP-AP-COST, named everywhere else) and the
// gate alike.
func (w *world) gateRefusal(action string, e Expect, err error) error {
	if w.rule() == "PP-AP-INSUFFICIENT" && e.OK && w.last != nil && !w.last.OK &&
		(action == engine.ActRead || action == engine.ActInterview) {
		return verdict.Failf("PP-AP-INSUFFICIENT", "ok:true with the action's AP cost left", fmt.Sprintf("ok:false (%s %s)", w.last.Code, w.last.Error), "%s with %d AP", action, w.Before.AP)
	}
	return err
}

// noteFinding records a soft finding in the scenario's transcript: it
// warns (or, for a MUST rule, fails a check whose steps passed) without
// stopping the check.
func (w *world) noteFinding(err error) {
	if rec := w.env.HTTP.Recorder(); rec != nil && err != nil {
		rec.Finding(err)
	}
}

// mark snapshots the run state for "nothing about the run changed".
func (w *world) mark() {
	if w.m != nil {
		s := w.m.State
		w.snap = &s
	}
}

// fetchState reads the run's current state through the status action,
// which neither spends a turn nor counts as a write. It reads twice: a
// target whose status spends a turn is blamed under PP-STATUS here, not
// under whatever rule the caller checks with the state it read.
func (w *world) fetchState(ctx context.Context) (engine.StateView, error) {
	first, err := w.readStatus(ctx)
	if err != nil {
		return engine.StateView{}, err
	}
	second, err := w.readStatus(ctx)
	if err != nil {
		return engine.StateView{}, err
	}
	if second.Turn != first.Turn { // PP-STATUS: ターン非消費
		return engine.StateView{}, verdict.Failf("PP-STATUS", fmt.Sprintf("turn %d again", first.Turn), fmt.Sprintf("turn %d", second.Turn),
			"two status reads in a row moved the turn")
	}
	return second, nil
}

// readStatus performs one status action and returns the state it shows.
func (w *world) readStatus(ctx context.Context) (engine.StateView, error) {
	saved := w.quota
	w.quota = true
	defer func() { w.quota = saved }()
	resp, err := w.do(ctx, http.MethodPost, "/runs/"+w.run+"/action", w.me.Key, map[string]string{"action": "status"}, nil)
	if err != nil {
		return engine.StateView{}, err
	}
	if resp.Status == http.StatusTooManyRequests {
		return engine.StateView{}, verdict.Failf("PP-STATUS-NOT-WRITE", 200, resp.Status, "status refused for a spent write quota: %s", clip(resp.Body))
	}
	var r actionResponse
	if resp.Status == http.StatusConflict && w.m != nil && (w.m.State.Status != engine.StatusActive || w.m.State.Turn >= w.m.State.BudgetTurns) {
		// The seed's 409 (終了済み / 予算切れ) does not exempt status, so a
		// target may refuse it on a finished or spent run: read the state
		// from the public log instead.
		return w.stateFromLog(ctx)
	}
	if resp.Status != http.StatusOK {
		return engine.StateView{}, verdict.Failf("PP-STATUS", 200, resp.Status, "status: %s", resp.Body)
	}
	if err := resp.Decode("PP-STATUS", &r); err != nil {
		return engine.StateView{}, err
	}
	return r.State, nil
}

// stateFromLog reads the run's state from its public log, where the target
// shows one there (the log's shape is the kit's, PP-RUN-LOG).
func (w *world) stateFromLog(ctx context.Context) (engine.StateView, error) {
	l, err := w.getLog(ctx)
	if err != nil {
		return engine.StateView{}, err
	}
	if !hasKey(w.Body(), "state") {
		return engine.StateView{}, verdict.Skipf("unchecked: status is refused with 409 on this run and the public log shows no state")
	}
	return l.State, nil
}

// getLog fetches the public run log.
func (w *world) getLog(ctx context.Context) (*runLog, error) {
	resp, err := w.do(ctx, http.MethodGet, "/runs/"+w.run, "", nil, nil)
	if err != nil {
		return nil, err
	}
	if resp.Status != http.StatusOK {
		return nil, verdict.Failf(w.rule(), 200, resp.Status, "GET /runs/%s: %s", w.run, resp.Body)
	}
	var l runLog
	if err := resp.Decode("PP-RUN-LOG", &l); err != nil {
		return nil, w.shapeGated(err)
	}
	return &l, nil
}

func (w *world) errBody() errorBody {
	var e errorBody
	json.Unmarshal(w.Body(), &e)
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

func copyAnswers(m map[string]engine.Answer) map[string]engine.Answer {
	out := map[string]engine.Answer{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func copyCounts(m map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// defaultBudget is the budget of a fresh run: enough to play all four cases.
const defaultBudget = 150

// rule names the rule a generic step (a status, a refusal, an unchanged
// run) checks: the scenario's first catalogued rule tag.
func (w *world) rule() string { return w.RuleTag(catalogue()) }

// wantCreated accepts 200 or 201 for a creation: the seed names neither.
func (w *world) wantCreated() error {
	if !created2xx(w.Status()) {
		return verdict.Failf(w.rule(), "200 or 201", w.Status(), "body %s", clip(w.Body()))
	}
	return nil
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}
