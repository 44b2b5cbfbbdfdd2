package suite_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

var settingFlags = []suite.Flag{
	{Name: "key", Usage: "a `key`", Secret: true},
	{Name: "other", Usage: "another `key`", Secret: true},
	{Name: "on", Usage: "a switch", Kind: suite.FlagBool},
	{Name: "wait", Usage: "a wait", Kind: suite.FlagDuration},
}

func TestParseSettingsReadsEveryFormOfAFlag(t *testing.T) {
	t.Parallel()
	s, err := suite.ParseSettings(settingFlags, []string{"--key", "k-123456", "-on", "--wait=2s"})
	require.NoError(t, err)
	assert.Equal(t, "k-123456", s.String("key"))
	assert.True(t, s.Bool("on"))
	assert.Equal(t, 2*time.Second, s.Duration("wait", time.Minute))
	assert.Equal(t, time.Minute, suite.Settings{}.Duration("wait", time.Minute), "a wait not given keeps its default")
	assert.False(t, suite.Settings{}.Bool("on"))
}

func TestParseSettingsRefusesWhatTheCLIWouldRefuse(t *testing.T) {
	t.Parallel()
	for name, args := range map[string][]string{
		"unknown flag":      {"--no-such", "x"},
		"missing value":     {"--key"},
		"bad bool":          {"--on=maybe"},
		"bad duration":      {"--wait", "soon"},
		"negative duration": {"--wait", "-1s"},
	} {
		_, err := suite.ParseSettings(settingFlags, args)
		assert.Error(t, err, name)
	}
}

func TestWithCopiesTheSettings(t *testing.T) {
	t.Parallel()
	base := suite.Settings{"a": "1"}
	more := base.With("b", "2")
	assert.Equal(t, suite.Settings{"a": "1", "b": "2"}, more)
	assert.Equal(t, suite.Settings{"a": "1"}, base, "the original is unchanged")
}

// TestSettingsReachTheStepsAndSecretsAreRedacted: a run's Settings reach
// every scenario's Env, and the value of a Secret flag is redacted from
// the report even when a step quotes it.
func TestSettingsReachTheStepsAndSecretsAreRedacted(t *testing.T) {
	t.Parallel()
	const key = "toy-secret-from-a-flag"
	p := toyProtocol(healthy)
	p.Flags = settingFlags
	p.Steps = func(sc *suite.ScenarioContext, env *suite.Env) {
		sc.Step(suite.Pattern(`^.*$`), func(ctx context.Context) error {
			_, err := env.HTTP.Do(ctx, driver.Request{Method: "GET", Path: "/counter",
				Header: map[string]string{"X-Echo": env.Settings.String("key")}})
			if err != nil {
				return err
			}
			return verdict.Failf("TOY-INCR", "nothing", env.Settings.String("key"), "the step quotes the flag")
		})
	}
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{p}, Seed: 1,
		NoProperties: true, CaseDir: t.TempDir(), Settings: suite.Settings{"key": key, "other": "optional"}})
	require.NoError(t, err)
	require.NotEmpty(t, rep.Results)
	require.NotEmpty(t, rep.Protocols)
	for _, r := range rep.Protocols[0].Rules {
		assert.NotContains(t, r.Title+r.Quote+r.Choice, "optional", "a credential the catalogue quotes is redacted there too")
	}
	for _, r := range rep.Results {
		assert.Equal(t, verdict.Fail, r.Status, "the step saw the setting and failed on purpose")
		assert.NotContains(t, r.Message+r.Observed, key)
		assert.Contains(t, r.Observed, driver.Redacted)
		require.NotEmpty(t, r.Transcript)
		for _, ex := range r.Transcript {
			assert.NotContains(t, ex.ReqHeader["X-Echo"], key)
		}
	}
}
