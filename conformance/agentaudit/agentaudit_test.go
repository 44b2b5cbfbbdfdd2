package agentaudit_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/agentaudit"
	"github.com/agentgames/conformance/features"
	"github.com/agentgames/conformance/reference/audit"
)

// TestEveryAgentScenarioPasses runs every folder's agents.feature against
// the reference servers with their own watchers.
func TestEveryAgentScenarioPasses(t *testing.T) {
	t.Parallel() // the scenarios mostly wait (a socket's timeouts and grace periods)
	for _, f := range agentaudit.Folders {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			results := agentaudit.Run(ctx, []agentaudit.Folder{f}, agentaudit.Options{Seed: 7})
			scenarios, err := features.ParseAgents(f.Name)
			require.NoError(t, err)
			require.NotEmpty(t, scenarios)
			require.Len(t, results, len(scenarios), "every scenario of %s ran", f.Name)
			for _, r := range results {
				assert.NoError(t, r.Err, "%s: %s", r.Folder, r.Scenario)
				t.Logf("%s: %s (%s)", r.Folder, r.Scenario, r.Took.Round(time.Millisecond))
			}
		})
	}
}

// blind is a watcher that reports nothing.
type blind struct{}

func (blind) Watch(*audit.Exchange) []audit.Finding { return nil }

// TestABlindWatcherFailsTheScenarios: with a watcher that sees nothing
// (and, for Pyyol's gateway, which audits frames itself, blind frames),
// every scenario that expects the audit to name a rule fails, so the
// scenarios test the watchers rather than pass whatever they do.
func TestABlindWatcherFailsTheScenarios(t *testing.T) {
	t.Parallel()
	for _, f := range agentaudit.Folders {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			results := agentaudit.Run(ctx, []agentaudit.Folder{f}, agentaudit.Options{Seed: 7,
				Watcher: func() audit.Watcher { return blind{} }, BlindFrames: true, MaxWait: time.Second})
			named := 0
			for _, r := range results {
				if len(r.Names) > 0 {
					named++
					assert.Error(t, r.Err, "%s: %s passed with a blind watcher", r.Folder, r.Scenario)
				}
			}
			assert.Positive(t, named, "%s has no scenario naming a rule", f.Name)
		})
	}
}
