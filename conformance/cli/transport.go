package cli

import (
	"fmt"

	"github.com/agentgames/conformance/conformance/bounty"
	"github.com/agentgames/conformance/conformance/suite"
)

// overTransport applies --transport: "http" leaves the protocols alone,
// "mcp" swaps each protocol that has an MCP surface for its MCP variant
// and refuses the others.
func overTransport(ps []*suite.Protocol, transport string) ([]*suite.Protocol, error) {
	switch transport {
	case "", "http":
		return ps, nil
	case "mcp":
		out := make([]*suite.Protocol, len(ps))
		for i, p := range ps {
			if p.Name != "bounty" {
				return nil, fmt.Errorf("--transport mcp: protocol %q has no MCP surface (only bounty has)", p.Name)
			}
			out[i] = bounty.OverMCP()
		}
		return out, nil
	}
	return nil, fmt.Errorf("--transport %q: want http or mcp", transport)
}
