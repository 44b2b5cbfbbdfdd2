package manifest_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/pyyol/manifest"
)

func check(t *testing.T, m map[string]any, dev bool) []manifest.FieldError {
	raw, err := json.Marshal(m)
	require.NoError(t, err)
	parsed, errs := manifest.Parse(raw)
	if errs != nil {
		return errs
	}
	return manifest.Validate(parsed, manifest.Options{Dev: dev})
}

func TestTheDocsExampleIsValid(t *testing.T) {
	assert.Empty(t, check(t, manifest.Example("https://your-host.example.com/turn"), false))
	assert.NotEmpty(t, check(t, manifest.Example("http://localhost:9099/turn"), false), "http only in dev")
	assert.Empty(t, check(t, manifest.Example("http://localhost:9099/turn"), true))
	noModel := manifest.Example("https://x.example/turn")
	delete(noModel, "model")
	assert.Empty(t, check(t, noModel, false), "model is optional")
}

func TestEachBreakageBreaksItsField(t *testing.T) {
	for _, b := range manifest.Breakages() {
		m := manifest.Example("https://x.example/turn")
		b.Edit(m)
		errs := check(t, m, false)
		require.Len(t, errs, 1, b.Field)
		want := b.Field
		if b.Field == "camelCase" {
			want = "manifest_version"
		}
		assert.Equal(t, want, errs[0].Field)
	}
}

func TestYAMLIsAccepted(t *testing.T) {
	yaml := `manifestVersion: "1.0"
agent: {name: my-agent, version: 0.1.0, visibility: public}
developer: {name: you}
games: [goofspiel, mafia]
endpoint: {url: "https://x.example/turn", authentication: bearer-token}
runtime: {timeout: 5000, maxMemory: 256Mi}
sdk: {language: js}
contact: {email: you@example.com}
`
	m, errs := manifest.Parse([]byte(yaml))
	require.Empty(t, errs)
	assert.Empty(t, manifest.Validate(m, manifest.Options{}))
	_, errs = manifest.Parse([]byte("[not, a, manifest]"))
	assert.NotEmpty(t, errs)
}
