package protocols_test

import (
	"testing"

	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/protocoltest"
)

// TestEveryProtocolPassesTheContract holds every registered protocol to the
// contract test, the folder checks once per data folder (Pyyol's two sides
// share one); a new protocol is tested by adding its registry line.
func TestEveryProtocolPassesTheContract(t *testing.T) {
	t.Parallel()
	protocoltest.TestProtocols(t, protocols.All())
}

// TestRegistryMatchesTheDataFolders: no catalogue, feature or fixture folder
// without a registered protocol, and the other way round.
func TestRegistryMatchesTheDataFolders(t *testing.T) {
	t.Parallel()
	if err := protocoltest.CheckRegistry(protocols.All()); err != nil {
		t.Error(err)
	}
}
