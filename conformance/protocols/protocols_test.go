package protocols_test

import (
	"testing"

	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/protocoltest"
)

// TestEveryProtocolPassesTheContract holds every registered protocol to the
// contract test; a new protocol is tested by adding its registry line.
func TestEveryProtocolPassesTheContract(t *testing.T) {
	for _, p := range protocols.All() {
		t.Run(p.Name, func(t *testing.T) { protocoltest.TestProtocol(t, p) })
	}
}

// TestRegistryMatchesTheDataFolders: no catalogue, feature or fixture folder
// without a registered protocol, and the other way round.
func TestRegistryMatchesTheDataFolders(t *testing.T) {
	if err := protocoltest.CheckRegistry(protocols.All()); err != nil {
		t.Error(err)
	}
}
