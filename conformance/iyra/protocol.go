// Package iyra plugs Echoes of Iyra into the conformance runner: the step
// definitions of features/iyra, the lockstep property that plays random
// legal and illegal actions against a target and the reference engine side
// by side, and the known-answer vector calculator.
package iyra

import (
	"net/http"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/iyra/server"
)

// Protocol describes Echoes of Iyra to the runner.
func Protocol() *suite.Protocol {
	return &suite.Protocol{
		Name:       "iyra",
		Title:      "Echoes of Iyra",
		Folder:     "iyra",
		Package:    "iyra",
		RulePrefix: "IYRA",
		BasePath:   server.BasePath,
		Preflight:  "/tasks/play",
		Reference:  Reference,
		Steps:      Steps,
		Properties: []suite.Property{{
			Name:  "lockstep play against the reference engine",
			Rules: lockstepRules,
			New:   newMachine,
		}},
		Vector: Vector,
		Quota:  liveQuota,
	}
}

// Reference builds the reference server for a run.
func Reference(cfg suite.ReferenceConfig) http.Handler {
	return server.New(server.Options{Seed: cfg.Seed, Now: cfg.Now, Log: cfg.Log})
}
