package forge

import (
	"slices"
	"time"

	"github.com/agentgames/conformance/reference/forge/authoring"
	"github.com/agentgames/conformance/reference/forge/dsl"
)

// Session is one attempt at the agent's current level.
type Session struct {
	ID        string
	AgentID   string
	Level     *Level
	Queries   int
	Expires   time.Time
	Submitted bool
}

// SessionView is what the agent sees of a session: the level's public
// view and the challenge inputs, never their expected outputs
// (FORGE-PRIVATE-SERVER-ONLY, FORGE-SESSION-PUBLIC-VIEW).
type SessionView struct {
	SessionID        string      `json:"sessionId"`
	Position         int         `json:"position"`
	Level            *PublicView `json:"level"`
	ChallengeInputs  [][]int64   `json:"challengeInputs"`
	QueryBudget      int         `json:"queryBudget"`
	QueriesUsed      int         `json:"queriesUsed"`
	QueriesRemaining int         `json:"queriesRemaining"`
	ExpiresAt        time.Time   `json:"expiresAt"`
	Status           string      `json:"status"`
}

func (s *Session) view(now time.Time) SessionView {
	status := "open"
	switch {
	case s.Submitted:
		status = "submitted"
	case !now.Before(s.Expires):
		status = "expired"
	}
	return SessionView{SessionID: s.ID, Position: s.Level.Position, Level: s.Level.view(),
		ChallengeInputs: s.Level.Challenges, QueryBudget: QueryBudget, QueriesUsed: s.Queries,
		QueriesRemaining: QueryBudget - s.Queries, ExpiresAt: s.Expires, Status: status}
}

// OpenSession starts a session on a's current level: the caller cannot
// name a level (FORGE-SESSION-CURRENT, FORGE-NO-LEVEL-SELECTION); at the
// frontier there is none (FORGE-AT-FRONTIER).
func (e *Engine) OpenSession(a *Agent) (SessionView, *Error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.skip(a)
	l := e.current(a)
	if l == nil {
		return SessionView{}, fail(409, "AT_FRONTIER", "no level is left to play: the agent is at the frontier")
	}
	now := e.now()
	s := &Session{ID: e.token("ses_", 10), AgentID: a.ID, Level: l, Expires: now.Add(SessionTTL)}
	e.sessions[s.ID] = s
	return s.view(now), nil
}

// session finds a's open session id, refusing others' and expired ones
// (FORGE-EXPIRY).
func (e *Engine) session(a *Agent, id string) (*Session, *Error) {
	s, ok := e.sessions[id]
	if !ok || s.AgentID != a.ID {
		return nil, fail(404, "SESSION_NOT_FOUND", "no such session for this agent")
	}
	if s.Submitted {
		return nil, fail(409, "ALREADY_SUBMITTED", "the session took its one submission")
	}
	if !e.now().Before(s.Expires) {
		return nil, fail(410, "SESSION_EXPIRED", "the session expired")
	}
	return s, nil
}

// QueryResult is the oracle's answer to one probe.
type QueryResult struct {
	Output           dsl.Value `json:"output"`
	QueriesUsed      int       `json:"queriesUsed"`
	QueriesRemaining int       `json:"queriesRemaining"`
}

// Query runs the oracle on a legal probe. A probe equal to a challenge
// input is refused (FORGE-PROBE-DISTINCT), so is one past the budget
// (FORGE-QUERY-BUDGET); refusals spend nothing (FORGE-QUERY).
// The oracle is a pure DSL program, so the same probe always gets the
// same answer (FORGE-ORACLE-DETERMINISTIC).
func (e *Engine) Query(a *Agent, id string, input []int64) (QueryResult, *Error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, err := e.session(a, id)
	if err != nil {
		return QueryResult{}, err
	}
	pkg := s.Level.Package
	if !pkg.Public.InputDomain.Contains(input) {
		return QueryResult{}, fail(422, "ILLEGAL_INPUT", "the probe lies outside the level's input domain")
	}
	for _, c := range s.Level.Challenges {
		if slices.Equal(c, input) {
			return QueryResult{}, fail(409, "CHALLENGE_INPUT_QUERY", "a probe may not equal a challenge input")
		}
	}
	if s.Queries >= QueryBudget {
		return QueryResult{}, fail(409, "QUERY_BUDGET_EXHAUSTED", "the session's %d queries are spent", QueryBudget)
	}
	out, runErr := e.dialect.Run(pkg.Private.Oracle, input, dsl.DefaultBudget)
	if runErr != nil {
		return QueryResult{}, fail(422, "ILLEGAL_INPUT", "the oracle cannot run on this probe: %v", runErr)
	}
	s.Queries++
	return QueryResult{Output: out, QueriesUsed: s.Queries, QueriesRemaining: QueryBudget - s.Queries}, nil
}

// SubmitResult tells whether the outputs were right and the progress after.
type SubmitResult struct {
	Correct  bool     `json:"correct"`
	Progress Progress `json:"progress"`
}

// Submit judges one submission, outputs in the challenge inputs' order
// (FORGE-ORIGINAL-ORDER, FORGE-ONE-SUBMISSION). Success advances progress
// and unlocks the next level (FORGE-SUBMIT-ADVANCES, FORGE-SUBMIT-UNLOCKS);
// a wrong answer ends the session (FORGE-REF-WRONG-SUBMISSION).
func (e *Engine) Submit(a *Agent, id string, outputs []any) (SubmitResult, *Error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, err := e.session(a, id)
	if err != nil {
		return SubmitResult{}, err
	}
	pkg := s.Level.Package
	if len(outputs) != len(s.Level.Challenges) {
		return SubmitResult{}, fail(400, "INVALID_REQUEST", "outputs holds %d answers for %d challenge inputs", len(outputs), len(s.Level.Challenges))
	}
	e.skip(a)
	if e.current(a) != s.Level {
		return SubmitResult{}, fail(409, "STALE_SESSION", "the session's level is no longer the agent's current level")
	}
	s.Submitted = true
	correct := true
	for i, in := range s.Level.Challenges {
		want, runErr := e.dialect.Run(pkg.Private.Oracle, in, dsl.DefaultBudget)
		correct = correct && runErr == nil && authoring.SameJSON(mustJSON(outputs[i]), want)
	}
	if correct {
		a.Position++
		a.Cleared++
		e.recordSolve(a, s.Level.Position)
	}
	return SubmitResult{Correct: correct, Progress: e.progress(a)}, nil
}
