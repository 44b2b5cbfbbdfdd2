// Package pyyol plugs Pyyol into the runner as two protocols over one
// catalogue (spec/pyyol): pyyol-gateway, where the kit is an agent dialing a
// gateway's WebSocket, and pyyol-push, where the kit is the platform
// pushing signed requests to an agent's hosted endpoint.
package pyyol

import (
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"testing/fstest"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/features"
	"github.com/agentgames/conformance/reference/pyyol/agent"
	"github.com/agentgames/conformance/reference/pyyol/server"
	"github.com/agentgames/conformance/spec"
)

// Credentials are what a live run needs beyond --target: the gateway's
// agent id and key (without them the runner mints a practice key at the
// reference's documented endpoint) and the push endpoint secret.
type Credentials struct {
	AgentID, Token, Secret string
}

var (
	credMu sync.Mutex
	creds  Credentials
)

// SetCredentials records the run's --agent-id, --token and --secret.
func SetCredentials(c Credentials) {
	credMu.Lock()
	defer credMu.Unlock()
	creds = c
}

func credentials() Credentials {
	credMu.Lock()
	defer credMu.Unlock()
	return creds
}

// Gateway describes pyyol-gateway to the runner.
func Gateway() *suite.Protocol {
	p := side("pyyol-gateway", "Pyyol agent gateway (WebSocket runtime)", server.BasePath, "gateway-",
		func(cfg suite.ReferenceConfig) http.Handler { return server.New(server.Options{Config: cfg}) },
		gatewaySteps, []byte(gatewayOpenAPI))
	p.Vector = nil // the signing vectors are the push side's
	p.WebSocketPaths = []string{"/agent/connect"}
	return p
}

// Push describes pyyol-push to the runner.
func Push() *suite.Protocol {
	doc, _ := spec.OpenAPI("pyyol")
	return side("pyyol-push", "Pyyol push protocol (agent-hosted endpoint)", agent.BasePath, "push-",
		func(cfg suite.ReferenceConfig) http.Handler {
			return agent.New(agent.Options{Now: cfg.Now, Log: cfg.Log})
		},
		pushSteps, doc)
}

// side builds one protocol: the features of spec/pyyol whose file names
// start with prefix, and the catalogue restricted to the rules they check.
func side(name, title, base, prefix string, ref func(suite.ReferenceConfig) http.Handler,
	steps func(*godog.ScenarioContext, *suite.Env), doc []byte) *suite.Protocol {
	fsys := sideFeatures(name, prefix)
	return &suite.Protocol{Name: name, Title: title, Folder: "pyyol", Package: "pyyol", RulePrefix: "PYYOL",
		BasePath: base, Reference: ref, Steps: steps,
		Catalogue: sideCatalogue(name, fsys), Features: fsys, OpenAPI: doc, Vector: Vector}
}

// sideFeatures presents only features/pyyol/<prefix>*.feature, under the
// shared folder name pyyol/.
func sideFeatures(name, prefix string) fs.FS {
	out := fstest.MapFS{}
	for _, p := range features.Paths("pyyol") {
		base := p[strings.LastIndex(p, "/")+1:]
		if !strings.HasPrefix(base, prefix) {
			continue
		}
		raw, _ := fs.ReadFile(features.FS(), p)
		out["pyyol/"+base] = &fstest.MapFile{Data: raw}
	}
	return out
}

// sideCatalogue is the pyyol catalogue cut to the rules the side's
// features tag.
func sideCatalogue(name string, fsys fs.FS) *spec.Catalogue {
	cat, err := spec.Load("pyyol")
	if err != nil {
		return &spec.Catalogue{Protocol: name}
	}
	scenarios, _ := features.ParseFS(fsys, "pyyol")
	tagged := map[string]bool{}
	for _, s := range scenarios {
		for _, t := range s.Tags {
			tagged[strings.TrimPrefix(t, "@")] = true
		}
	}
	out := *cat
	out.Protocol, out.Rules = name, nil
	for _, r := range cat.Rules {
		if tagged[r.ID] {
			out.Rules = append(out.Rules, r)
		}
	}
	return &out
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
