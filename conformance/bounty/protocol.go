// Package bounty plugs the agent-puzzle bounty (agent-puzzle-bounty/1) into
// the conformance runner: the step definitions of features/bounty, which
// register the agents a check needs, solve real puzzles, combine, and
// recompute coalition_proximity, the solver election and next_move from
// every board they read; and the known-answer vector calculator.
package bounty

import (
	"net/http"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/bounty/server"
)

// Protocol describes the bounty to the runner.
func Protocol() *suite.Protocol {
	return &suite.Protocol{
		Name:       "bounty",
		Title:      "agent-puzzle bounty",
		Folder:     "bounty",
		Package:    "bounty",
		RulePrefix: "BOUNTY",
		BasePath:   server.BasePath,
		Preflight:  "/.well-known/agent-puzzle-bounty.json", // the discovery document, the one path clients hard-code
		Reference:  Reference,
		Steps:      Steps,
		Properties: []suite.Property{boardProperty(false)},
		Vector:     Vector,
	}
}

// Reference builds the reference platform for a run.
func Reference(cfg suite.ReferenceConfig) http.Handler { return server.New(cfg) }

// OverMCP describes the bounty checked through its MCP surface: every call
// one of the 13 tools covers goes through tools/call (--transport mcp).
func OverMCP() *suite.Protocol {
	p := Protocol()
	p.Title += " (over MCP)"
	p.Steps = StepsOverMCP
	p.Properties = []suite.Property{boardProperty(true)}
	return p
}
