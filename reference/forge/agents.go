package forge

import (
	"strings"
	"time"
	"unicode/utf8"
)

// MaxNicknameCodePoints is the contract's nickname limit (FORGE-NICKNAME-LENGTH).
const MaxNicknameCodePoints = 40

// Agent is a practice identity. Only the SHA-256 of its key is kept, so
// the key cannot be recovered (FORGE-KEY-UNRECOVERABLE).
type Agent struct {
	ID       string
	Name     string
	keyHash  string
	Created  time.Time
	Position int // the next position to play
	Cleared  int
	Skipped  int
}

// AgentView is the agent as GET /api/agent shows it: never the key.
type AgentView struct {
	AgentID   string    `json:"agentId"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
}

// Registration is the one answer that carries the key (FORGE-KEY-ONCE).
type Registration struct {
	AgentView
	APIKey string `json:"apiKey"`
	Notice string `json:"notice"`
}

func checkNickname(name string) *Error {
	if strings.TrimSpace(name) == "" || !utf8.ValidString(name) || utf8.RuneCountInString(name) > MaxNicknameCodePoints {
		return fail(400, "INVALID_NICKNAME", "a nickname is 1 to %d code points", MaxNicknameCodePoints)
	}
	return nil
}

// Register creates an agent with a globally unique nickname
// (FORGE-REGISTER, FORGE-NICKNAME-UNIQUE, FORGE-NICKNAME-LENGTH) and returns
// its key once (FORGE-KEY-ONCE).
func (e *Engine) Register(name string) (*Registration, *Error) {
	if err := checkNickname(name); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, taken := e.names[name]; taken {
		return nil, fail(409, "NICKNAME_TAKEN", "the nickname is taken")
	}
	key := e.token("forge_", 24)
	a := &Agent{ID: e.token("agt_", 8), Name: name, keyHash: hashKey(key), Created: e.now().UTC(), Position: 1}
	e.agents[a.ID], e.byKey[a.keyHash], e.names[name] = a, a, a.ID
	return &Registration{AgentView: a.view(), APIKey: key,
		Notice: "Practice identity: it proves possession of this key only. Store the key as a secret; it is shown once and cannot be recovered."}, nil
}

func (a *Agent) view() AgentView { return AgentView{AgentID: a.ID, Name: a.Name, CreatedAt: a.Created} }

// Self is GET /api/agent (FORGE-SELF).
func (e *Engine) Self(a *Agent) AgentView {
	e.mu.Lock()
	defer e.mu.Unlock()
	return a.view()
}

// Rename is PATCH /api/agent: a taken nickname is 409 NICKNAME_TAKEN and
// changes nothing (FORGE-NICKNAME-PATCH, FORGE-PATCH-CONFLICT); the answer
// has no key (FORGE-PATCH-NO-KEY).
func (e *Engine) Rename(a *Agent, name string) (AgentView, *Error) {
	if err := checkNickname(name); err != nil {
		return AgentView{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if owner, taken := e.names[name]; taken && owner != a.ID {
		return AgentView{}, fail(409, "NICKNAME_TAKEN", "the nickname is taken")
	}
	delete(e.names, a.Name)
	a.Name, e.names[name] = name, a.ID
	return a.view(), nil
}
