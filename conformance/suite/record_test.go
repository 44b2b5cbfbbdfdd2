package suite_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/report"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// TestTheReportRecordsItsSelectionWithoutCredentials: what a run was asked
// to check travels in its report (merge compares it), with the effective
// --checks and the protocol flags given, but never a credential's value.
func TestTheReportRecordsItsSelectionWithoutCredentials(t *testing.T) {
	p := toyProtocol(healthy)
	p.Flags = []suite.Flag{{Name: "toy-key", Secret: true}, {Name: "toy-wait", Kind: suite.FlagDuration}}
	rep, err := suite.Run(context.Background(), suite.Config{Protocols: []*suite.Protocol{p}, Seed: 9, Tags: "@TOY-INCR",
		Settings: suite.Settings{"toy-key": "sk_toy_credential_1234", "toy-wait": "5s"}, Shard: suite.Shard{Index: 2, Count: 2}})
	require.NoError(t, err)
	want := &verdict.Selection{Protocols: []string{"toy"}, Tags: "@TOY-INCR", Seed: 9, Checks: suite.DefaultChecks,
		Flags: map[string]string{"toy-wait": "5s"}, Version: suite.KitVersion()}
	assert.Equal(t, want, rep.Selection)
	assert.Equal(t, "2/2", rep.Shard)
	var js bytes.Buffer
	require.NoError(t, report.WriteJSON(&js, rep))
	assert.NotContains(t, js.String(), "sk_toy_credential_1234")
	back, err := report.ReadJSON(&js)
	require.NoError(t, err)
	assert.Equal(t, want, back.Selection, "the selection reads back for merge")
}
