package bounty_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/oas"
	"github.com/agentgames/conformance/spec"
)

func TestOpenAPIDocumentIsValid(t *testing.T) {
	t.Parallel()
	doc, err := spec.OpenAPI("bounty")
	require.NoError(t, err)
	_, err = oas.Parse(doc)
	require.NoError(t, err)
}
