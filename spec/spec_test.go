package spec_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/spec"
)

func TestEveryCatalogueLoadsWithItsOpenAPIDocument(t *testing.T) {
	// Which folders must exist is the registry's business: the contract test
	// (conformance/protocoltest.CheckRegistry) matches them to protocols.All().
	require.NotEmpty(t, spec.Protocols())
	for _, p := range spec.Protocols() {
		cat, err := spec.Load(p)
		require.NoError(t, err, p)
		assert.Equal(t, p, cat.Protocol)
		assert.NotEmpty(t, cat.Rules)
		doc, err := spec.OpenAPI(p)
		require.NoError(t, err, p)
		assert.Contains(t, string(doc), "openapi: 3.", p)
	}
}

func TestCheckRejectsMalformedEntries(t *testing.T) {
	good := spec.Rule{ID: "X-A", Level: spec.Must, Title: "t", Quote: "q", Path: "$.a"}
	cases := []struct {
		mutate func(*spec.Rule)
		why    string
	}{
		{func(r *spec.Rule) { r.ID = "x-lower" }, "IDs are upper-case tags"},
		{func(r *spec.Rule) { r.ID = "NODASH" }, "IDs have a protocol prefix"},
		{func(r *spec.Rule) { r.Level = "MAY" }, "only MUST, SHOULD, REFERENCE"},
		{func(r *spec.Rule) { r.Quote = "" }, "every rule quotes its source"},
		{func(r *spec.Rule) { r.Path = "" }, "every rule says where the quote stands"},
		{func(r *spec.Rule) { r.Level = spec.Reference }, "a reference choice must say what it chose"},
	}
	for _, c := range cases {
		r := good
		c.mutate(&r)
		cat := &spec.Catalogue{Protocol: "x", Rules: []spec.Rule{r}}
		assert.Error(t, cat.Check(), c.why)
	}
	dup := &spec.Catalogue{Protocol: "x", Rules: []spec.Rule{good, good}}
	assert.ErrorContains(t, dup.Check(), "duplicate")
	assert.NoError(t, (&spec.Catalogue{Protocol: "x", Rules: []spec.Rule{good}}).Check())
}

func TestUnknownRuleIsMustSoATypoNeverSoftensAFailure(t *testing.T) {
	cat := &spec.Catalogue{Rules: []spec.Rule{{ID: "X-REF", Level: spec.Reference}}}
	assert.Equal(t, spec.Reference, cat.LevelOf("X-REF"))
	assert.Equal(t, spec.Must, cat.LevelOf("X-REFF"))
}

func TestUnknownProtocolNamesTheKnownOnes(t *testing.T) {
	_, err := spec.Load("nope")
	assert.ErrorContains(t, err, "iyra")
}
