package pyyol

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/coder/websocket"

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
