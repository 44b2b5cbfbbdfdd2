package pyyol

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/coder/websocket"
	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// supersedeWait bounds the wait for the older socket to close once a
// second one registered.
const supersedeWait = 10 * time.Second

// superseding is a scenario where the agent registers twice: the first
// socket is kept aside to see how the gateway ends it.
type superseding struct {
	g     *gwRun
	first *driver.WS
}

// supersedeSteps binds the steps of PYYOL-REF-SUPERSEDED.
func supersedeSteps(sc *godog.ScenarioContext, g *gwRun) {
	s := &superseding{g: g}
	sc.Step(pattern(`^the agent registers again on a second socket$`), s.again)
	sc.Step(pattern(`^the first socket was closed as superseded$`), s.closed)
	sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
		if s.first != nil {
			s.first.Close()
		}
		return ctx, err
	})
}

// again opens a second socket for the same agent and registers on it.
func (s *superseding) again(ctx context.Context) error {
	s.first = s.g.ws
	f, err := s.g.register(ctx, s.g.token)
	if err != nil {
		return err
	}
	if f.T != "registered" {
		// The docs say nothing of a second socket: refusing it is the
		// gateway's choice, and only the kit's reference choice differs.
		return verdict.Failf("PYYOL-REF-SUPERSEDED", "registered on the second socket", string(f.raw), "a second registration of one agent")
	}
	return nil
}

// closed reads the first socket until it ends and checks how: close code
// 4000, reason superseded (PYYOL-REF-SUPERSEDED, a reference choice).
func (s *superseding) closed(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, supersedeWait)
	defer cancel()
	for {
		_, err := s.first.Next(ctx)
		if err == nil {
			continue
		}
		select {
		case <-s.first.Done():
		default:
			if errors.Is(err, driver.ErrTimeout) || ctx.Err() != nil {
				return verdict.Failf("PYYOL-REF-SUPERSEDED", "the first socket closed", "still open after "+supersedeWait.String(), "the older socket of a twice-registered agent")
			}
			return err
		}
		var ce websocket.CloseError
		if !errors.As(s.first.Err(), &ce) || ce.Code != 4000 || ce.Reason != "superseded" {
			return verdict.Failf("PYYOL-REF-SUPERSEDED", `close 4000 "superseded"`, fmt.Sprint(s.first.Err()), "how the older socket ended")
		}
		return nil
	}
}
