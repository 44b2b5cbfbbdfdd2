package agentaudit

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
)

// PressAgent is a scripted The Phantom Press agent.
type PressAgent struct {
	Base string // the server's origin and /game/phantom-press/api
	Key  string
}

// pressNames numbers the agents' names.
var pressNames atomic.Int64

// NewPressAgent registers an agent and keeps its key; under a quota fault
// the registration itself may be refused, and the agent then plays with
// a key of the documented shape the server never issued (every write
// meets the fault before the server).
func NewPressAgent(ctx context.Context, base string) (*PressAgent, error) {
	ans, err := Do(ctx, Call{Method: http.MethodPost, URL: base + "/register", Body: JSON(map[string]string{"name": fmt.Sprintf("audited-%d", pressNames.Add(1))})})
	if err != nil {
		return nil, err
	}
	if ans.Status != http.StatusCreated {
		return &PressAgent{Base: base, Key: "flib_audited_key"}, nil
	}
	var reg struct {
		APIKey string `json:"api_key"`
	}
	if err := ans.Decode(&reg); err != nil || reg.APIKey == "" {
		return nil, fmt.Errorf("registration issued no api_key: %s", ans.Body)
	}
	return &PressAgent{Base: base, Key: reg.APIKey}, nil
}

// StartRun posts a run with body.
func (a *PressAgent) StartRun(ctx context.Context, body string) (Answer, error) {
	return Do(ctx, Call{Method: http.MethodPost, URL: a.Base + "/runs", Key: a.Key, Body: body})
}

// pressScript wraps a play that starts from a registered agent.
func pressScript(play func(ctx context.Context, a *PressAgent) error, faults ...string) Script {
	return Script{Faults: faults, Play: func(ctx context.Context, base string) error {
		a, err := NewPressAgent(ctx, base)
		if err != nil {
			return err
		}
		return play(ctx, a)
	}}
}

// startTwiceAfter starts a run and, answered status, at once another.
func startTwiceAfter(status int) func(ctx context.Context, a *PressAgent) error {
	return func(ctx context.Context, a *PressAgent) error {
		for range 2 {
			if _, err := expect(status, "start a run")(a.StartRun(ctx, `{"budget_turns":1}`)); err != nil {
				return err
			}
		}
		return nil
	}
}

func init() {
	register("phantom-press", "plays by the rules", pressScript(func(ctx context.Context, a *PressAgent) error {
		_, err := expect(http.StatusCreated, "start a run")(a.StartRun(ctx, `{"budget_turns":1}`))
		return err
	}))
	register("phantom-press", "starts a run again at once after a daily_write_limit answer",
		pressScript(startTwiceAfter(http.StatusTooManyRequests), "daily_write_limit"))
	register("phantom-press", "starts a run again at once after a quota_unavailable answer",
		pressScript(startTwiceAfter(http.StatusServiceUnavailable), "quota_unavailable"))
	register("phantom-press", "starts a run without budget_turns", pressScript(func(ctx context.Context, a *PressAgent) error {
		_, err := a.StartRun(ctx, `{}`)
		return err
	}))
}
