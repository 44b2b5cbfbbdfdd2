package suite_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/suite"
)

// TestWaitMovesTheEmbeddedClock: against the embedded reference, Env.Wait
// moves the reference's clock by the wait instead of sleeping it (an hour
// here, which a real sleep would not survive); live, it sleeps.
func TestWaitMovesTheEmbeddedClock(t *testing.T) {
	t.Parallel()
	p := toyProtocol(healthy)
	var moved []time.Duration
	p.Steps = func(sc *suite.ScenarioContext, env *suite.Env) {
		sc.Step(suite.Pattern(`^.*$`), func(ctx context.Context) error {
			before := env.Clock.Now()
			if err := env.Wait(ctx, time.Hour); err != nil {
				return err
			}
			moved = append(moved, env.Clock.Now().Sub(before))
			return nil
		})
	}
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{p}, Seed: 1,
		NoProperties: true, CaseDir: t.TempDir()})
	require.NoError(t, err)
	require.Equal(t, 0, rep.ExitCode())
	require.NotEmpty(t, moved)
	for _, d := range moved {
		assert.Equal(t, time.Hour, d)
	}
}
