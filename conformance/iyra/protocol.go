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

// liveQuota documents no limits (the contract states none) and names the
// MUST rules a live run cannot check, with why; the run prints them in its
// plan.
var liveQuota = &suite.QuotaPlan{NotLive: map[string]string{
	"IYRA-PROOF-EXPIRY": "a challenge lives until its expires_at (10 minutes on the reference); a live run waits for it only " +
		"when it comes within a minute",
	"IYRA-RATE-LIMIT": "the contract documents no session quota, so no live run knows how many creations reach a 429 " +
		"(the embedded reference spends one)",
	"IYRA-RECOVERY-NO-RETRY": "needs a refused creation and then the daily quota reset: a live run cannot wait for the next day",
}}

// Reference builds the reference server for a run.
func Reference(cfg suite.ReferenceConfig) http.Handler {
	return server.New(server.Options{Seed: cfg.Seed, Now: cfg.Now, Log: cfg.Log})
}
