// Package pyyol plugs Pyyol into the runner as two protocols over one
// catalogue (spec/pyyol): pyyol-gateway, where the kit is an agent dialing a
// gateway's WebSocket, and pyyol-push, where the kit is the platform
// pushing signed requests to an agent's hosted endpoint.
package pyyol

import (
	"net/http"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/pyyol/agent"
	"github.com/agentgames/conformance/reference/pyyol/server"
	"github.com/agentgames/conformance/spec"
)

// Gateway describes pyyol-gateway to the runner.
func Gateway() *suite.Protocol {
	p := side("pyyol-gateway", "Pyyol agent gateway (WebSocket runtime)", server.BasePath, "gateway-",
		func(cfg suite.ReferenceConfig) http.Handler { return server.New(gatewayOptions(cfg)) },
		gatewaySteps, []byte(gatewayOpenAPI))
	p.Vector = nil // the signing vectors are the push side's
	p.WebSocketPaths = []string{"/agent/connect"}
	p.AgentRules = true // the gateway audits what the docs ask of agents
	p.Flags = gatewayFlags
	// The reference platform's documented development admin token, so a
	// live run against `conformance serve` reaches the stake-tier admin
	// checks too (serve prints it on its flags line).
	p.ServeFlags = []string{"--admin-token", server.AdminToken}
	// The contract's one public HTTP read: the enabled stake tiers of
	// Goofspiel, the game ranked matchmaking pairs.
	p.Preflight = stakesPath
	p.PreflightBase = gatewayHTTPBase
	// The menu is an optional part of a deployment: without it, the
	// socket says whether the target is a gateway (preflight.go).
	p.PreflightFallback = socketPreflight
	return p
}

// embeddedTurnTimeout is how long the reference gateway waits for a turn
// response when a run or a test holds its clock. The runner's agent answers
// over loopback at once, so only the scenarios that leave a turn unanswered
// on purpose wait it out; a short wait keeps them quick.
const embeddedTurnTimeout = 500 * time.Millisecond

// embeddedOffline is how long the embedded reference lets a socket stay
// silent before it marks it Offline (PYYOL-REF-OFFLINE): the runner's
// agent answers every turn and ping at once, so only the scenario that
// stays silent on purpose waits it out.
const embeddedOffline = 3 * time.Second

// gatewayOptions configures the reference gateway for cfg. A run's embedded
// reference gets the run's adjustable clock (and the contract test's live
// run the wall clock) in cfg.Now, and waits embeddedTurnTimeout per turn;
// `conformance serve` sets no clock and keeps the documented 2 s
// (PYYOL-REF-TURN-TIMEOUT).
func gatewayOptions(cfg suite.ReferenceConfig) server.Options {
	opts := server.Options{Config: cfg}
	if cfg.Now != nil {
		opts.TurnTimeout = embeddedTurnTimeout
		opts.OfflineAfter = embeddedOffline
	}
	return opts
}

// Push describes pyyol-push to the runner.
func Push() *suite.Protocol {
	doc, _ := spec.OpenAPI("pyyol")
	p := side("pyyol-push", "Pyyol push protocol (agent-hosted endpoint)", agent.BasePath, "push-",
		func(cfg suite.ReferenceConfig) http.Handler {
			return agent.New(agent.Options{Now: cfg.Now, Log: cfg.Log, Mafia: true, Monopoly: true})
		},
		pushSteps, doc)
	p.Flags = pushFlags
	// The unsigned liveness route, asked only for an answer: what /health
	// answers is itself under test (PYYOL-PUSH-HEALTH, PYYOL-PUSH-SIBLINGS),
	// so a wrong answer must fail those rules, not end the run.
	p.Preflight, p.PreflightReachOnly = "/health", true
	p.PreflightBase = pushDir // a --target may be endpoint.url itself
	p.EntryPath = "/turn"     // the endpoint.url a run's --target names
	// The reference agent signs with its documented development secret.
	p.ServeFlags = []string{"--secret", agent.DevSecret}
	return p
}

// side builds one protocol over the shared pyyol folder: the features
// whose file names start with prefix, and the rules they tag.
func side(name, title, base, prefix string, ref func(suite.ReferenceConfig) http.Handler,
	steps func(*suite.ScenarioContext, *suite.Env), doc []byte) *suite.Protocol {
	return &suite.Protocol{Name: name, Title: title, Folder: "pyyol", Package: "pyyol", RulePrefix: "PYYOL",
		BasePath: base, Reference: ref, Steps: steps, FeatureFiles: prefix + "*.feature",
		OpenAPI: doc, Vector: Vector}
}

// gatewayOpenAPI describes the one HTTP route of the reference gateway,
// the practice key mint (PYYOL-REF-MINT).
const gatewayOpenAPI = `openapi: 3.0.3
info: {title: Pyyol reference gateway, version: "1.0-kit"}
paths:
  /practice/agents:
    post:
      operationId: mintPracticeKey
      x-rule: PYYOL-REF-MINT
      responses:
        "201":
          description: A practice agent key.
          content:
            application/json:
              schema:
                type: object
                required: [agent_id, token]
                properties:
                  agent_id: {type: string}
                  token: {type: string}
`
