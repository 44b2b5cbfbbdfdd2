package agentaudit

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync/atomic"
)

// ForgeAgent is a scripted FORGE agent.
type ForgeAgent struct {
	Base string // the server's origin (FORGE lives at the root)
	Key  string
}

// ForgeSession is an open session and its challenge inputs.
type ForgeSession struct {
	SessionID       string    `json:"sessionId"`
	ChallengeInputs [][]int64 `json:"challengeInputs"`
}

// forgeNames numbers the agents' nicknames, which a server keeps unique.
var forgeNames atomic.Int64

// NewForgeAgent registers an agent and keeps its key.
func NewForgeAgent(ctx context.Context, base string) (*ForgeAgent, error) {
	ans, err := expect(http.StatusCreated, "register")(Do(ctx, Call{Method: http.MethodPost, URL: base + "/api/agents",
		Body: fmt.Sprintf(`{"name":"audited-%d"}`, forgeNames.Add(1))}))
	if err != nil && ans.Status != http.StatusOK {
		return nil, err
	}
	var reg struct {
		APIKey string `json:"apiKey"`
	}
	if err := ans.Decode(&reg); err != nil || reg.APIKey == "" {
		return nil, fmt.Errorf("registration issued no apiKey: %s", ans.Body)
	}
	return &ForgeAgent{Base: base, Key: reg.APIKey}, nil
}

// Post sends body to path with the agent's key.
func (a *ForgeAgent) Post(ctx context.Context, path, body string) (Answer, error) {
	return Do(ctx, Call{Method: http.MethodPost, URL: a.Base + path, Key: a.Key, Body: body})
}

// Open opens a session with body and reads its challenge inputs.
func (a *ForgeAgent) Open(ctx context.Context, body string) (*ForgeSession, error) {
	ans, err := a.Post(ctx, "/api/sessions", body)
	if err != nil {
		return nil, err
	}
	if ans.Status/100 != 2 {
		return nil, fmt.Errorf("POST /api/sessions answered %d: %s", ans.Status, ans.Body)
	}
	var s ForgeSession
	if err := ans.Decode(&s); err != nil {
		return nil, err
	}
	if len(s.ChallengeInputs) == 0 {
		return nil, fmt.Errorf("the session has no challenge inputs: %s", ans.Body)
	}
	return &s, nil
}

// Probe queries input on the session.
func (a *ForgeAgent) Probe(ctx context.Context, s *ForgeSession, input []int64) (Answer, error) {
	return a.Post(ctx, "/api/sessions/"+s.SessionID+"/query", JSON(map[string]any{"input": input}))
}

// Submit submits one output per challenge input (right or wrong alike).
func (a *ForgeAgent) Submit(ctx context.Context, s *ForgeSession) (Answer, error) {
	outs := make([]int64, len(s.ChallengeInputs))
	return a.Post(ctx, "/api/sessions/"+s.SessionID+"/submit", JSON(map[string]any{"outputs": outs}))
}

// Author posts a level package body under the Idempotency-Key idem.
func (a *ForgeAgent) Author(ctx context.Context, idem, body string) (Answer, error) {
	return Do(ctx, Call{Method: http.MethodPost, URL: a.Base + "/api/levels", Key: a.Key, Idem: idem, Body: body})
}

// notAChallenge returns an input of the session's shape equal to none of
// its challenge inputs.
func notAChallenge(s *ForgeSession) []int64 {
	probe := slices.Clone(s.ChallengeInputs[0])
	if len(probe) == 0 {
		probe = []int64{0}
	}
	for slices.ContainsFunc(s.ChallengeInputs, func(c []int64) bool { return slices.Equal(c, probe) }) {
		probe[0]++
	}
	return probe
}

// forgeScript wraps a play that starts from a registered agent.
func forgeScript(play func(ctx context.Context, a *ForgeAgent) error, faults ...string) Script {
	return Script{Faults: faults, Play: func(ctx context.Context, base string) error {
		a, err := NewForgeAgent(ctx, base)
		if err != nil {
			return err
		}
		return play(ctx, a)
	}}
}

// forgeLevel is a level package body; n makes two logical levels differ.
func forgeLevel(n int) string {
	return fmt.Sprintf(`{"title":"audited level %d","program":"x"}`, n)
}

func init() {
	register("forge", "plays by the rules", forgeScript(forgePolite))
	register("forge", "puts its key in the query of a request", forgeScript(func(ctx context.Context, a *ForgeAgent) error {
		_, err := Do(ctx, Call{Method: http.MethodGet, URL: a.Base + "/api/chain?key=" + a.Key, Key: a.Key})
		return err
	}))
	register("forge", "opens a session again at once after a 429", forgeScript(func(ctx context.Context, a *ForgeAgent) error {
		for range 2 {
			if _, err := expect(http.StatusTooManyRequests, "open a session")(a.Post(ctx, "/api/sessions", "{}")); err != nil {
				return err
			}
		}
		return nil
	}, "RATE_LIMITED"))
	register("forge", "opens a session naming a levelId", forgeScript(func(ctx context.Context, a *ForgeAgent) error {
		_, err := a.Post(ctx, "/api/sessions", `{"levelId":"lvl_1"}`)
		return err
	}))
	register("forge", "queries one of its challenge inputs", forgeScript(func(ctx context.Context, a *ForgeAgent) error {
		s, err := a.Open(ctx, "{}")
		if err == nil {
			_, err = a.Probe(ctx, s, s.ChallengeInputs[0])
		}
		return err
	}))
	register("forge", "submits twice in one session", forgeScript(func(ctx context.Context, a *ForgeAgent) error {
		s, err := a.Open(ctx, "{}")
		if err != nil {
			return err
		}
		if _, err := a.Submit(ctx, s); err != nil {
			return err
		}
		_, err = a.Submit(ctx, s)
		return err
	}))
	register("forge", "authors a second logical level", forgeScript(func(ctx context.Context, a *ForgeAgent) error {
		if _, err := a.Author(ctx, "level-key-0001", forgeLevel(1)); err != nil {
			return err
		}
		_, err := a.Author(ctx, "level-key-0002", forgeLevel(2))
		return err
	}))
	register("forge", "retries its level under another Idempotency-Key", forgeScript(func(ctx context.Context, a *ForgeAgent) error {
		if _, err := a.Author(ctx, "level-key-0001", forgeLevel(1)); err != nil {
			return err
		}
		_, err := a.Author(ctx, "level-key-0002", forgeLevel(1))
		return err
	}))
}

// forgePolite opens a session with {}, probes an input that is no
// challenge input, submits once, and retries its one level under one key.
func forgePolite(ctx context.Context, a *ForgeAgent) error {
	s, err := a.Open(ctx, "{}")
	if err != nil {
		return err
	}
	if _, err := expect(http.StatusOK, "probe")(a.Probe(ctx, s, notAChallenge(s))); err != nil {
		return err
	}
	if ans, err := a.Submit(ctx, s); err != nil || ans.Status/100 != 2 {
		return fmt.Errorf("submit: %v %d %s", err, ans.Status, ans.Body)
	}
	for range 2 {
		if _, err := a.Author(ctx, "level-key-0001", forgeLevel(1)); err != nil {
			return err
		}
	}
	return nil
}
