// Package protocols is the registry of every protocol the kit knows; the
// CLI and the end-to-end tests take their list from here.
package protocols

import (
	"github.com/agentgames/conformance/conformance/bounty"
	"github.com/agentgames/conformance/conformance/forge"
	"github.com/agentgames/conformance/conformance/iyra"
	"github.com/agentgames/conformance/conformance/phantompress"
	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/shareexchange"
	"github.com/agentgames/conformance/conformance/suite"
)

// All returns every protocol, in the order runs check them.
func All() []*suite.Protocol {
	return []*suite.Protocol{iyra.Protocol(), phantompress.Protocol, forge.Protocol(), bounty.Protocol(), shareexchange.Protocol(), pyyol.Gateway(), pyyol.Push(), pyyol.Platform()}
}

// Lookup finds a protocol by its --protocol name.
func Lookup(name string) (*suite.Protocol, bool) {
	for _, p := range All() {
		if p.Name == name {
			return p, true
		}
	}
	return nil, false
}
