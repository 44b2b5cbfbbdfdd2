package agentaudit

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentgames/conformance/reference/iyra/proof"
)

// IyraVersion is the game version the Iyra contract assigns.
const IyraVersion = "xgv_e3baba90b92558c7b5d8d598"

// IyraAgent is a scripted Echoes of Iyra agent.
type IyraAgent struct {
	Base string // the server's origin and /api/v5
	Key  string
}

// IyraSession is a session the agent created.
type IyraSession struct {
	ID       string
	Revision int
}

// NewIyraAgent accepts the task, solves the identity proof and keeps the
// key it is issued.
func NewIyraAgent(ctx context.Context, base string) (*IyraAgent, error) {
	a := &IyraAgent{Base: base}
	acc, err := a.Accept(ctx)
	if err != nil {
		return nil, err
	}
	var ch struct {
		AgentID     string `json:"agent_id"`
		ChallengeID string `json:"challenge_id"`
		Challenge   string `json:"challenge"`
		Difficulty  int    `json:"difficulty"`
	}
	if err := acc.Decode(&ch); err != nil {
		return nil, err
	}
	solution, err := proof.Solve(ctx, ch.Challenge, ch.Difficulty)
	if err != nil {
		return nil, err
	}
	ans, err := expect(http.StatusOK, "verify")(Do(ctx, Call{Method: http.MethodPost, URL: base + "/agents/verify",
		Body: JSON(map[string]string{"agent_id": ch.AgentID, "challenge_id": ch.ChallengeID, "solution": solution})}))
	if err != nil {
		return nil, err
	}
	var ver struct {
		APIKey string `json:"api_key"`
	}
	if err := ans.Decode(&ver); err != nil || ver.APIKey == "" {
		return nil, fmt.Errorf("verify issued no api_key: %s", ans.Body)
	}
	a.Key = ver.APIKey
	return a, nil
}

// Accept posts the task acceptance, with the agent's key if it has one.
func (a *IyraAgent) Accept(ctx context.Context) (Answer, error) {
	return Do(ctx, Call{Method: http.MethodPost, URL: a.Base + "/tasks/play/accept", Key: a.Key,
		Body: `{"name":"audited","model":"m","capabilities":["http"],"campaign":"challenge-play-w1"}`})
}

// Create asks for a session of version under the Idempotency-Key idem.
func (a *IyraAgent) Create(ctx context.Context, idem, version string) (Answer, error) {
	return Do(ctx, Call{Method: http.MethodPost, URL: a.Base + "/store/echoes-of-iyra/sessions", Key: a.Key, Idem: idem,
		Body: `{"ready_to_act":true,"accepted_version_id":"` + version + `"}`})
}

// Open creates a session of the contract's version and reads its revision.
func (a *IyraAgent) Open(ctx context.Context, idem string) (*IyraSession, error) {
	ans, err := a.Create(ctx, idem, IyraVersion)
	if err != nil {
		return nil, err
	}
	if ans.Status/100 != 2 {
		return nil, fmt.Errorf("session creation answered %d: %s", ans.Status, ans.Body)
	}
	var s struct {
		SessionID  string `json:"session_id"`
		ActionsURL string `json:"actions_url"`
	}
	if err := ans.Decode(&s); err != nil {
		return nil, err
	}
	if s.SessionID == "" {
		s.SessionID = strings.TrimSuffix(strings.TrimPrefix(s.ActionsURL, "/api/v5/sessions/"), "/actions")
	}
	ses := &IyraSession{ID: s.SessionID}
	return ses, a.Read(ctx, ses)
}

// Read reads the session's state and keeps its revision.
func (a *IyraAgent) Read(ctx context.Context, s *IyraSession) error {
	ans, err := expect(http.StatusOK, "read the session")(Do(ctx, Call{Method: http.MethodGet, URL: a.Base + "/sessions/" + s.ID, Key: a.Key}))
	if err != nil {
		return err
	}
	var st struct {
		Revision int `json:"revision"`
	}
	if err := ans.Decode(&st); err != nil {
		return err
	}
	s.Revision = st.Revision
	return nil
}

// Act posts body as an action of the session.
func (a *IyraAgent) Act(ctx context.Context, s *IyraSession, body string) (Answer, error) {
	return Do(ctx, Call{Method: http.MethodPost, URL: a.Base + "/sessions/" + s.ID + "/actions", Key: a.Key, Body: body})
}

// ActAt posts action with revision beside it, as the contract asks.
func (a *IyraAgent) ActAt(ctx context.Context, s *IyraSession, revision int, action string) (Answer, error) {
	return a.Act(ctx, s, fmt.Sprintf(`{"revision":%d,"action":%s}`, revision, action))
}

// Replay reads a finished session's replay.
func (a *IyraAgent) Replay(ctx context.Context, s *IyraSession) error {
	_, err := expect(http.StatusOK, "read the replay")(Do(ctx, Call{Method: http.MethodGet, URL: a.Base + "/sessions/" + s.ID + "/replay", Key: a.Key}))
	return err
}

// Withdraw ends the session with a withdraw at its current revision.
func (a *IyraAgent) Withdraw(ctx context.Context, s *IyraSession) error {
	_, err := expect(http.StatusOK, "withdraw")(a.ActAt(ctx, s, s.Revision, `{"type":"withdraw"}`))
	return err
}

// iyraScript wraps a play that starts from a verified agent.
func iyraScript(play func(ctx context.Context, a *IyraAgent) error, faults ...string) Script {
	return Script{Faults: faults, Play: func(ctx context.Context, base string) error {
		a, err := NewIyraAgent(ctx, base)
		if err != nil {
			return err
		}
		return play(ctx, a)
	}}
}

func init() {
	register("iyra", "plays by the rules", iyraScript(iyraPolite))
	register("iyra", "puts its key in the query of a read", iyraScript(func(ctx context.Context, a *IyraAgent) error {
		_, err := Do(ctx, Call{Method: http.MethodGet, URL: a.Base + "/store/echoes-of-iyra/assignment?api_key=" + a.Key, Key: a.Key})
		return err
	}))
	register("iyra", "creates a session again at once after a 429", iyraScript(func(ctx context.Context, a *IyraAgent) error {
		for range 2 {
			if _, err := expect(http.StatusTooManyRequests, "create")(a.Create(ctx, "audit-key-0001", IyraVersion)); err != nil {
				return err
			}
		}
		return nil
	}, "rate_limited"))
	register("iyra", "repeats a creation that got no session under a fresh Idempotency-Key", iyraScript(func(ctx context.Context, a *IyraAgent) error {
		for _, idem := range []string{"audit-key-0001", "audit-key-0002"} {
			if _, err := expect(http.StatusTooManyRequests, "create")(a.Create(ctx, idem, IyraVersion)); err != nil {
				return err
			}
		}
		return nil
	}, "rate_limited"))
	register("iyra", "reuses an Idempotency-Key for another version", iyraScript(func(ctx context.Context, a *IyraAgent) error {
		if _, err := a.Open(ctx, "audit-key-0001"); err != nil {
			return err
		}
		_, err := a.Create(ctx, "audit-key-0001", "xgv_other")
		return err
	}))
	register("iyra", "sends an action without revision", iyraScript(func(ctx context.Context, a *IyraAgent) error {
		s, err := a.Open(ctx, "audit-key-0001")
		if err == nil {
			_, err = a.Act(ctx, s, `{"action":{"type":"investigate","site":"archive"}}`)
		}
		return err
	}))
	register("iyra", "puts revision inside the action", iyraScript(func(ctx context.Context, a *IyraAgent) error {
		s, err := a.Open(ctx, "audit-key-0001")
		if err == nil {
			_, err = a.Act(ctx, s, fmt.Sprintf(`{"action":{"type":"investigate","site":"archive","revision":%d}}`, s.Revision))
		}
		return err
	}))
	register("iyra", "acts again after a refused action without reading the session", iyraScript(func(ctx context.Context, a *IyraAgent) error {
		s, err := a.Open(ctx, "audit-key-0001")
		if err != nil {
			return err
		}
		if _, err := expect(http.StatusConflict, "a stale action")(a.ActAt(ctx, s, s.Revision+7, `{"type":"investigate","site":"archive"}`)); err != nil {
			return err
		}
		_, err = a.ActAt(ctx, s, s.Revision, `{"type":"investigate","site":"archive"}`)
		return err
	}))
	register("iyra", "starts a session before reading the replay of its finished one", iyraScript(func(ctx context.Context, a *IyraAgent) error {
		s, err := a.Open(ctx, "audit-key-0001")
		if err == nil {
			err = a.Withdraw(ctx, s)
		}
		if err == nil {
			_, err = a.Open(ctx, "audit-key-0002")
		}
		return err
	}))
	register("iyra", "reads its assignment with its key and then accepts the task again", iyraScript(func(ctx context.Context, a *IyraAgent) error {
		if _, err := expect(http.StatusOK, "assignment")(Do(ctx, Call{Method: http.MethodGet, URL: a.Base + "/store/echoes-of-iyra/assignment", Key: a.Key})); err != nil {
			return err
		}
		_, err := a.Accept(ctx)
		return err
	}))
}

// iyraPolite plays two short sessions by the rules: the key only in the
// Authorization header, one Idempotency-Key per intended session, revision
// beside each action, a read after a refused action, and the replay of a
// finished session read before the next.
func iyraPolite(ctx context.Context, a *IyraAgent) error {
	if _, err := expect(http.StatusOK, "assignment")(Do(ctx, Call{Method: http.MethodGet, URL: a.Base + "/store/echoes-of-iyra/assignment", Key: a.Key})); err != nil {
		return err
	}
	s, err := a.Open(ctx, "audit-key-0001")
	if err != nil {
		return err
	}
	if _, err := expect(http.StatusConflict, "a stale action")(a.ActAt(ctx, s, s.Revision+7, `{"type":"investigate","site":"archive"}`)); err != nil {
		return err
	}
	if err := a.Read(ctx, s); err != nil {
		return err
	}
	if err := a.Withdraw(ctx, s); err != nil {
		return err
	}
	if err := a.Replay(ctx, s); err != nil {
		return err
	}
	next, err := a.Open(ctx, "audit-key-0002")
	if err == nil {
		err = a.Read(ctx, next)
	}
	return err
}
