// Package forge plugs FORGE into the conformance runner: the step
// definitions of features/forge, the DSL differential property that sends
// rejected packages (free on any deployment), the known-answer vector
// calculator, and the reference solver that plays a deployment's chain.
package forge

import (
	"net/http"
	"sync/atomic"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/forge/server"
)

// allowAuthoring is the CLI's --allow-authoring: without it the runner
// appends nothing to a live chain.
var allowAuthoring atomic.Bool

// SetAllowAuthoring lets the runner append one logical level to a live
// target (the contract's authoring.maxLogicalLevelsPerRun is 1). Embedded
// runs always may, since the reference is thrown away after the run.
func SetAllowAuthoring(on bool) { allowAuthoring.Store(on) }

// Protocol describes FORGE to the runner.
func Protocol() *suite.Protocol {
	return &suite.Protocol{
		Name:       "forge",
		Title:      "FORGE / CodeAPI Game",
		Folder:     "forge",
		Package:    "forge",
		RulePrefix: "FORGE",
		BasePath:   server.BasePath,
		Preflight:  "/api/chain", // the contract's public chain summary (links: GET /api/chain)
		Reference:  Reference,
		Steps:      Steps,
		Properties: []suite.Property{{
			Name:  "DSL differential: packages a kit-DSL deployment must reject",
			Rules: differentialRules,
			New:   newMachine,
		}},
		Vector: Vector,
	}
}

// Reference builds the reference server for a run.
func Reference(cfg suite.ReferenceConfig) http.Handler {
	return server.New(server.Options{Config: cfg})
}
