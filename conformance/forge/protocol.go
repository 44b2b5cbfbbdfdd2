// Package forge plugs FORGE into the conformance runner: the step
// definitions of features/forge, the DSL differential property that sends
// rejected packages (free on any deployment), the known-answer vector
// calculator, and the reference solver that plays a deployment's chain.
package forge

import (
	"net/http"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/forge/server"
)

// allowAuthoringFlag is --allow-authoring: without it a live run appends
// nothing to the chain (the contract's authoring.maxLogicalLevelsPerRun is
// 1, and authoring is permanent). Embedded runs always may, since the
// reference is thrown away after the run.
var allowAuthoringFlag = suite.Flag{Name: "allow-authoring", Kind: suite.FlagBool,
	Usage: "forge: let a live run append one level (authoring is permanent; at most one per run)"}

// Protocol describes FORGE to the runner.
func Protocol() *suite.Protocol {
	return &suite.Protocol{
		Name:       "forge",
		Title:      "FORGE / CodeAPI Game",
		Folder:     "forge",
		Package:    "forge",
		RulePrefix: "FORGE",
		BasePath:   server.BasePath,
		Preflight:  "/api/chain", // the public chain summary
		Flags:      []suite.Flag{allowAuthoringFlag},
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
