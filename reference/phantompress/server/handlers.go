package server

import (
	"errors"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentgames/conformance/reference/phantompress/engine"
)

// register issues an API key (PP-REGISTER).
// Cites PP-REGISTER-OWNER (owner is optional) and PP-REGISTER-RESPONSE (the 201 shape).
func (s *Server) register(w http.ResponseWriter, r *http.Request, _ []string) {
	var body struct {
		Name  *string   `json:"name"`
		Owner optString `json:"owner"`
	}
	if err := decodeBody(r, &body); err != nil {
		writeInputError(w, err)
		return
	}
	if body.Name == nil || strings.TrimSpace(*body.Name) == "" || utf8.RuneCountInString(*body.Name) > 32 {
		writeError(w, http.StatusBadRequest, "invalid_name", "name must be a string of 1-32 characters")
		return
	}
	if body.Owner.null { // PP-REGISTER-OWNER: optional, but a string when given
		writeError(w, http.StatusBadRequest, "invalid_owner", "owner is optional; when given it must be a string")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if s.down {
		writeUnavailable(w)
		return
	}
	s.quota.roll(now)
	if s.quota.regs >= s.limits.Registrations { // PP-QUOTA-REGISTER
		writeQuota(w, now, &overLimit{Code: "daily_write_limit", Scope: "register", Max: s.limits.Registrations, Used: s.quota.regs})
		return
	}
	s.quota.regs++
	a := &agent{ID: "agt_" + s.hexID(6), Name: *body.Name, Key: "flib_" + s.hexID(16), Created: now}
	a.Owner = body.Owner.v
	s.agents[a.Key] = a
	writeJSON(w, http.StatusCreated, Registered{AgentID: a.ID, Name: a.Name, Owner: a.Owner, APIKey: a.Key})
}

// authed returns the agent of the request's bearer key, or answers 401
// (PP-ERR-401). Callers hold s.mu.
// Only auth:true endpoints call authed; the others answer without a key (PP-AUTH-FREE).
func (s *Server) authed(w http.ResponseWriter, r *http.Request) *agent {
	a, ok := s.agents[bearer(r)]
	if !ok {
		writeError(w, http.StatusUnauthorized, "unauthorized", "missing or invalid Authorization: Bearer <api key>")
		return nil
	}
	return a
}

// chargeWrite applies the write quota to a; it answers 503 or 429 and
// returns false when the write may not go ahead. Callers hold s.mu.
func (s *Server) chargeWrite(w http.ResponseWriter, a *agent) bool {
	now := s.now()
	if s.down {
		writeUnavailable(w)
		return false
	}
	s.quota.roll(now)
	if o := s.quota.writeRoom(a.ID, s.limits); o != nil {
		writeQuota(w, now, o)
		return false
	}
	s.quota.chargeWrite(a.ID)
	return true
}

// createRun starts a run (PP-RUN-BUDGET-REQUIRED, PP-QUOTA-RUNS).
// The answer is {run_id, state, narrative, available_actions} (PP-RUN-CREATE, PP-TRUST-INIT).
func (s *Server) createRun(w http.ResponseWriter, r *http.Request, _ []string) {
	var body struct {
		Budget *int      `json:"budget_turns"`
		Seed   optString `json:"seed"`
	}
	s.mu.Lock()
	a := s.authed(w, r)
	s.mu.Unlock()
	if a == nil {
		return
	}
	if err := decodeBody(r, &body); err != nil {
		writeInputError(w, err)
		return
	}
	switch {
	case body.Budget == nil:
		writeError(w, http.StatusBadRequest, "budget_required", "budget_turns is required: an integer 1-200 agreed with your owner")
		return
	case *body.Budget < 1 || *body.Budget > engine.TurnLimit:
		writeError(w, http.StatusBadRequest, "invalid_budget", "budget_turns must be an integer from 1 to 200")
		return
	case body.Seed.null: // PP-RUN-SEEDED: omit the seed for a random run
		writeError(w, http.StatusBadRequest, "invalid_seed", "seed is optional; omit it for a random run, or give a string")
		return
	}
	seed := body.Seed.v
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	s.quota.roll(now)
	if !s.down && s.quota.runs[a.ID] >= s.limits.RunsPerKey {
		writeQuota(w, now, &overLimit{Code: "daily_run_limit", Scope: "runs_per_key", Max: s.limits.RunsPerKey, Used: s.quota.runs[a.ID]})
		return
	}
	if !s.chargeWrite(w, a) {
		return
	}
	s.quota.runs[a.ID]++
	cases, err := engine.Generate(s.packs, s.caseRNG(seed))
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	id := "run_" + s.hexID(6)
	for s.runs[id] != nil {
		id = "run_" + s.hexID(6)
	}
	rec := &runRec{refused: make(chan struct{}, 1), run: engine.NewRun(id, *body.Budget, cases, body.Seed.set), agent: a, created: now, seed: seed,
		log: []LogEntry{}, extensions: []Extension{}}
	s.runs[id] = rec
	s.order = append(s.order, rec)
	c := rec.run.Case()
	writeJSON(w, http.StatusCreated, Created{RunID: id, State: rec.run.State(), AvailableActions: rec.run.Available(),
		Narrative: "幻聴新聞社へようこそ、校閲記者見習い。案件1「" + c.Title + "」の校閲リストが机に置かれている。"})
}

// ownedRun resolves the run of seg and checks the caller owns it: 401, 404
// and 403 in that order (PP-ERR-403, PP-ERR-404).
func (s *Server) ownedRun(w http.ResponseWriter, r *http.Request, seg []string) (*agent, *runRec) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.authed(w, r)
	if a == nil {
		return nil, nil
	}
	rec, ok := s.runs[seg[1]]
	if !ok {
		writeError(w, http.StatusNotFound, "run_not_found", "no run "+seg[1])
		return nil, nil
	}
	if rec.agent != a {
		writeError(w, http.StatusForbidden, "forbidden", "this run belongs to another agent")
		return nil, nil
	}
	return a, rec
}

// action performs one action on a run.
// The answer carries ok, turn, narrative, state, events, available_actions (PP-ACTION-RESPONSE);
// a missing arg reaches the engine, which refuses it ok:false (PP-ACTION-ARG-REQUIRED).
func (s *Server) action(w http.ResponseWriter, r *http.Request, seg []string) {
	a, rec := s.ownedRun(w, r, seg)
	if rec == nil {
		return
	}
	body, ierr := readActionBody(r)
	if ierr != nil {
		writeInputError(w, ierr)
		return
	}
	if body.Action == nil {
		writeError(w, http.StatusBadRequest, "missing_action", "action is required")
		return
	}
	act, arg := strings.TrimSpace(*body.Action), ""
	if body.Arg != nil {
		arg = strings.TrimSpace(*body.Arg)
	}
	if !engine.KnownAction(act) {
		writeError(w, http.StatusBadRequest, "unknown_action", "unknown action "+strconv.Quote(act)+"; see available_actions")
		return
	}
	if !rec.busy.TryLock() { // PP-ERR-409-CONCURRENT
		rec.tellRefused()
		writeError(w, http.StatusConflict, "concurrent_request", "another request on this run is in progress")
		return
	}
	defer rec.busy.Unlock()
	rec.forgetRefused()
	s.mu.Lock()
	// PP-STATUS-NOT-WRITE: status is not a write.
	if act != engine.ActStatus && !s.chargeWrite(w, a) {
		s.mu.Unlock()
		return
	}
	delay, hold := s.delay, rec.holdFor
	rec.holdFor = 0 // one action is held (HoldNextAction)
	s.mu.Unlock()
	if delay > 0 {
		time.Sleep(delay)
	}
	if hold > 0 {
		rec.hold(hold)
	}
	s.mu.Lock()
	res, err := rec.run.Act(act, arg)
	switch {
	case errors.Is(err, engine.ErrFinished):
		s.mu.Unlock()
		writeError(w, http.StatusConflict, "run_finished", "the run has ended")
		return
	case errors.Is(err, engine.ErrBudgetSpent):
		s.mu.Unlock()
		writeError(w, http.StatusConflict, "budget_exhausted", err.Error())
		return
	case err != nil:
		s.mu.Unlock()
		writeError(w, http.StatusBadRequest, "bad_request", err.Error())
		return
	}
	if act != engine.ActStatus { // status is not logged
		rec.log = append(rec.log, LogEntry{Seq: len(rec.log) + 1, At: stamp(s.now()), Turn: rec.run.Turn, Action: act,
			Arg: arg, OK: res.OK, Code: res.Code, Narrative: res.Narrative, Events: res.Events})
	}
	out := ActionResponse{OK: res.OK, Turn: rec.run.Turn, Narrative: res.Narrative,
		State: rec.run.State(), Events: res.Events, AvailableActions: rec.run.Available(), Code: res.Code, Error: res.Error}
	s.mu.Unlock()
	// Encoded outside the server's lock: out holds this action's own
	// values, and the run's busy lock keeps its next action waiting.
	writeAction(w, out, &rec.cases)
}

// getRun serves the public log; a hidden run is 404 (PP-RUN-HIDDEN-404).
// The full public log (PP-RUN-LOG).
func (s *Server) getRun(w http.ResponseWriter, r *http.Request, seg []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.runs[seg[1]]
	if !ok || rec.hidden {
		writeError(w, http.StatusNotFound, "run_not_found", "no public run "+seg[1])
		return
	}
	writeJSON(w, http.StatusOK, s.runLog(rec))
}

// runLog is the run's full public log: every action but status with its
// argument (PP-RUN-LOG-FULL), in the kit's shape (PP-RUN-LOG).
func (s *Server) runLog(rec *runRec) RunLog {
	vis := "public"
	if rec.hidden {
		vis = "hidden"
	}
	return RunLog{RunID: rec.run.ID, Agent: AgentRef{ID: rec.agent.ID, Name: rec.agent.Name}, Status: rec.run.Status,
		Seeded: rec.run.Seeded, Seed: rec.seed, CreatedAt: stamp(rec.created), BudgetTurns: rec.run.Budget,
		Visibility: vis, Score: rec.run.Score(), State: rec.run.State(), Log: rec.log, Extensions: rec.extensions,
		Review: rec.review}
}

// writeGuard runs the checks every run write shares: ownership, body,
// busy guard and quota. It returns the run locked (busy) and s.mu held; the
// caller must call the returned release.
func (s *Server) writeGuard(w http.ResponseWriter, r *http.Request, seg []string, body any) (*runRec, func()) {
	a, rec := s.ownedRun(w, r, seg)
	if rec == nil {
		return nil, nil
	}
	if err := decodeBody(r, body); err != nil {
		writeInputError(w, err)
		return nil, nil
	}
	if !rec.busy.TryLock() {
		rec.tellRefused()
		writeError(w, http.StatusConflict, "concurrent_request", "another request on this run is in progress")
		return nil, nil
	}
	s.mu.Lock()
	if !s.chargeWrite(w, a) {
		s.mu.Unlock()
		rec.busy.Unlock()
		return nil, nil
	}
	return rec, func() { s.mu.Unlock(); rec.busy.Unlock() }
}

// extend raises the budget, logged publicly (PP-RUN-EXTEND-LOGGED).
// Bodies of extend, visibility and review are the kit's (PP-WIRE-BODIES).
func (s *Server) extend(w http.ResponseWriter, r *http.Request, seg []string) {
	var body struct {
		Turns *int `json:"turns"`
	}
	rec, release := s.writeGuard(w, r, seg, &body)
	if rec == nil {
		return
	}
	defer release()
	if body.Turns == nil {
		writeError(w, http.StatusBadRequest, "turns_required", "turns (a positive integer) is required")
		return
	}
	from := rec.run.Budget
	switch err := rec.run.Extend(*body.Turns); {
	case errors.Is(err, engine.ErrFinished):
		writeError(w, http.StatusConflict, "run_finished", "the run has ended")
		return
	case errors.Is(err, engine.ErrTurnLimit):
		writeError(w, http.StatusBadRequest, "turn_limit", err.Error())
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, "invalid_turns", err.Error())
		return
	}
	ext := Extension{Turns: *body.Turns, From: from, To: rec.run.Budget, AtTurn: rec.run.Turn, At: stamp(s.now())}
	rec.extensions = append(rec.extensions, ext)
	rec.log = append(rec.log, LogEntry{Seq: len(rec.log) + 1, At: ext.At, Turn: rec.run.Turn, Action: "extend",
		Arg: strconv.Itoa(ext.Turns), OK: true, Narrative: "ターン予算を " + strconv.Itoa(from) + " から " + strconv.Itoa(ext.To) + " に延長した。",
		Events: []engine.Event{}})
	writeJSON(w, http.StatusOK, map[string]any{"run_id": rec.run.ID, "budget_turns": rec.run.Budget, "extension": ext})
}

// visibility hides or shows a run (PP-RUN-VISIBILITY).
func (s *Server) visibility(w http.ResponseWriter, r *http.Request, seg []string) {
	var body struct {
		Visibility *string `json:"visibility"`
	}
	rec, release := s.writeGuard(w, r, seg, &body)
	if rec == nil {
		return
	}
	defer release()
	if body.Visibility == nil || (*body.Visibility != "hidden" && *body.Visibility != "public") {
		writeError(w, http.StatusBadRequest, "invalid_visibility", `visibility must be "hidden" or "public"`)
		return
	}
	rec.hidden = *body.Visibility == "hidden"
	writeJSON(w, http.StatusOK, map[string]any{"run_id": rec.run.ID, "visibility": *body.Visibility})
}

// maxReviewRunes is the seed's review length (PP-REVIEW).
const maxReviewRunes = 2000

// reviewRun stores the run's one review (PP-REVIEW).
func (s *Server) reviewRun(w http.ResponseWriter, r *http.Request, seg []string) {
	var body struct {
		Text *string `json:"text"`
	}
	rec, release := s.writeGuard(w, r, seg, &body)
	if rec == nil {
		return
	}
	defer release()
	switch {
	case body.Text == nil || strings.TrimSpace(*body.Text) == "":
		writeError(w, http.StatusBadRequest, "text_required", "text is required")
	case utf8.RuneCountInString(*body.Text) > maxReviewRunes:
		writeError(w, http.StatusBadRequest, "review_too_long", "a review holds at most 2000 characters")
	case rec.review != nil:
		writeError(w, http.StatusConflict, "already_reviewed", "this run already has its review")
	default:
		rec.review = &Review{Text: *body.Text, At: stamp(s.now())}
		writeJSON(w, http.StatusCreated, map[string]any{"run_id": rec.run.ID, "review": rec.review})
	}
}

// leaderboard ranks agents by their best unseeded, public run
// (PP-RUN-SEEDED).
// Which runs count is the kit's reading (PP-LEADERBOARD-RUNS); rows rank best scores (PP-LEADERBOARD).
func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request, _ []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	best := map[*agent]*runRec{}
	for _, rec := range s.order {
		if rec.run.Seeded || rec.hidden {
			continue
		}
		if b := best[rec.agent]; b == nil || rec.run.Score() > b.run.Score() {
			best[rec.agent] = rec
		}
	}
	var rows []*runRec
	for _, rec := range best {
		rows = append(rows, rec)
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].run.Score() != rows[j].run.Score() {
			return rows[i].run.Score() > rows[j].run.Score()
		}
		return rows[i].created.Before(rows[j].created) || (rows[i].created.Equal(rows[j].created) && rows[i].run.ID < rows[j].run.ID)
	})
	entries := []LeaderEntry{}
	for i, rec := range rows {
		if i == 50 {
			break
		}
		entries = append(entries, LeaderEntry{Rank: i + 1, Agent: AgentRef{ID: rec.agent.ID, Name: rec.agent.Name},
			Score: rec.run.Score(), RunID: rec.run.ID, Status: rec.run.Status})
	}
	writeJSON(w, http.StatusOK, map[string]any{"game": "phantom-press", "entries": entries})
}

// recent lists the newest public runs (GET /runs?recent=N, N 1-100,
// default 10).
// PP-RECENT.
func (s *Server) recent(w http.ResponseWriter, r *http.Request, _ []string) {
	n := 10
	if v := r.URL.Query().Get("recent"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 || k > 100 {
			writeError(w, http.StatusBadRequest, "invalid_recent", "recent must be an integer from 1 to 100")
			return
		}
		n = k
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []RunSummary{}
	for i := len(s.order) - 1; i >= 0 && len(out) < n; i-- {
		rec := s.order[i]
		if rec.hidden {
			continue
		}
		out = append(out, RunSummary{RunID: rec.run.ID, Agent: AgentRef{ID: rec.agent.ID, Name: rec.agent.Name},
			Status: rec.run.Status, CaseNo: rec.run.Case().No, Turn: rec.run.Turn, Score: rec.run.Score(),
			Seeded: rec.run.Seeded, CreatedAt: stamp(rec.created)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"runs": out})
}

// tellRefused notes that a request on the run was refused as concurrent.
func (rec *runRec) tellRefused() {
	select {
	case rec.refused <- struct{}{}:
	default:
	}
}

// forgetRefused drops a refusal heard before this action held the run.
func (rec *runRec) forgetRefused() {
	select {
	case <-rec.refused:
	default:
	}
}

// hold keeps the run busy until a concurrent request was refused or d has
// passed (HoldNextAction).
func (rec *runRec) hold(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-rec.refused:
	case <-t.C:
	}
}
