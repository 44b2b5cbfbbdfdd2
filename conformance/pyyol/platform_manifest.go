package pyyol

import (
	"context"
	"net/url"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
)

// fieldRules names the rule of each manifest field (manifest.md "Schema").
var fieldRules = map[string]string{
	"manifestVersion": "PYYOL-MANIFEST-VERSION", "agent.name": "PYYOL-MANIFEST-AGENT-NAME",
	"agent.version": "PYYOL-MANIFEST-AGENT-VERSION", "agent.visibility": "PYYOL-MANIFEST-VISIBILITY",
	"developer.name": "PYYOL-MANIFEST-DEVELOPER", "games": "PYYOL-MANIFEST-GAMES",
	"endpoint.url": "PYYOL-MANIFEST-ENDPOINT-URL", "endpoint.authentication": "PYYOL-MANIFEST-AUTHENTICATION",
	"runtime.timeout": "PYYOL-MANIFEST-TIMEOUT", "runtime.maxMemory": "PYYOL-MANIFEST-MAX-MEMORY",
	"sdk.language": "PYYOL-MANIFEST-SDK-LANGUAGE", "contact.email": "PYYOL-MANIFEST-EMAIL",
	"model": "PYYOL-MANIFEST-MODEL", "camelCase": "PYYOL-MANIFEST-CAMELCASE",
}

func (p *platRun) manifestPath() string {
	return "/agents/" + url.PathEscape(p.g.agentID) + "/manifest"
}

func (p *platRun) submit(ctx context.Context, body any) error {
	if err := p.call(ctx, "POST", p.manifestPath(), body, p.g.token); err != nil {
		return err
	}
	p.manifestID, _ = p.decode()["manifest_id"].(string)
	return nil
}

// calledWait bounds the wait for the calls a verify report says the
// platform made.
const calledWait = 5 * time.Second

// placeholderEndpoint is the endpoint.url of manifests the platform only
// stores and never verifies: absolute https, as a production platform
// requires.
const placeholderEndpoint = "https://conformance-kit.example/pyyol-agent/turn"

// endpointOrPlaceholder is the kit's hosted endpoint when the scenario
// hosts one, else the placeholder.
func (p *platRun) endpointOrPlaceholder() string {
	if p.endpoint != nil {
		return p.endpointURL()
	}
	return placeholderEndpoint
}

func (p *platRun) storeSecret(ctx context.Context, secret string) error {
	if p.manifestID == "" {
		if err := p.stored(); err != nil {
			return err
		}
		return verdict.Errorf("no manifest was stored")
	}
	path := p.manifestPath() + "/" + url.PathEscape(p.manifestID) + "/endpoint-secret"
	if err := p.call(ctx, "PUT", path, map[string]string{"token": secret}, p.g.token); err != nil {
		return err
	}
	if p.Last.Status/100 != 2 {
		return verdict.Failf("PYYOL-MANIFEST-SECRET", "2xx", p.Last.Status, "storing the endpoint secret")
	}
	return nil
}

// reached skips a verify check the platform could not make: a live
// platform may not reach an endpoint the runner hosts on loopback. A
// verify report says the platform tried, so its calls get calledWait to be
// read off the endpoint whatever the report says: a loaded platform may
// give up on a call (and report health_ok false) that the kit's endpoint
// takes in only later.
func (p *platRun) reached(ctx context.Context) error {
	if len(p.calls) == 0 {
		first := time.Duration(0)
		if p.report != nil {
			first = calledWait
		}
		p.calls = p.received(ctx, first)
	}
	if len(p.calls) == 0 {
		return verdict.Skipf("the platform never called the kit's endpoint at %s (a live platform cannot reach loopback)", p.endpointURL())
	}
	return nil
}
