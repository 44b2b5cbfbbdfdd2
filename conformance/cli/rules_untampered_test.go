package cli_test

import (
	"encoding/json"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/spec"
)

// TestRulesUntamperedListsTheRecordedGaps: --untampered lists exactly the
// platform MUST rules that spec/<folder>/tamper.json does not show
// tampered, each with its reason, and exits 1 when there is any; a
// protocol whose every MUST rule has a broken target prints nothing.
func TestRulesUntamperedListsTheRecordedGaps(t *testing.T) {
	t.Parallel()
	want := []string{}
	for _, folder := range spec.Protocols() {
		cat, err := spec.Load(folder)
		require.NoError(t, err)
		rec, err := spec.LoadTampering(folder)
		require.NoError(t, err, folder)
		for _, r := range cat.Rules {
			if r.Level == spec.Must && !r.ForAgents() && !rec.Tampers(r.ID) {
				want = append(want, r.ID)
			}
		}
	}
	sort.Strings(want)

	code, out, _ := run("rules", "--untampered", "--format", "json")
	var rows []struct {
		ID         string `json:"id"`
		Untampered string `json:"untampered"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	got := []string{}
	for _, r := range rows {
		got = append(got, r.ID)
		assert.NotEmpty(t, r.Untampered, "%s has no reason", r.ID)
	}
	sort.Strings(got)
	assert.Equal(t, want, got)
	assert.Equal(t, map[bool]int{true: 1, false: 0}[len(want) > 0], code)

	code, out, _ = run("rules", "--untampered", "--protocol", "forge,bounty,share-exchange,iyra,phantom-press")
	assert.Equal(t, 0, code)
	assert.Empty(t, out, "every MUST rule of these protocols has a tamper test")

	code, out, _ = run("rules", "--untampered", "--protocol", "pyyol-push,pyyol-platform")
	assert.Equal(t, 0, code, out)
	assert.Empty(t, out, "PYYOL-SIGN-CONSTANT-TIME is tampered by an early-exit compare, PYYOL-PUSH-PROTOCOL-FIELD by pyyol-platform's broken platforms")
}
