package pyyol

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/cucumber/godog"
	"go.yaml.in/yaml/v4"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/manifest"
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

func platformSteps(sc *godog.ScenarioContext, g *gwRun) {
	p := &platRun{g: g, Scenario: &g.Scenario}
	sc.Step(pattern(`^the kit hosts an agent endpoint( whose health is degraded)?$`), func(degraded string) error {
		if degraded != "" {
			return p.hostEndpoint("degraded")
		}
		return p.hostEndpoint("healthy")
	})
	sc.Step(pattern(`^the agent submits the docs' example manifest( for goofspiel and mafia)?( as YAML)?$`), p.submitExample)
	sc.Step(pattern(`^the agent submits the example manifest with "([^"]+)" broken$`), p.submitBroken)
	sc.Step(pattern(`^the manifest is stored with an id$`), p.stored)
	sc.Step(pattern(`^the manifest is refused$`), p.refusedManifest)
	sc.Step(pattern(`^the agent stores the endpoint secret$`), func(ctx context.Context) error { return p.storeSecret(ctx, p.secret) })
	sc.Step(pattern(`^the agent stores another endpoint secret$`), func(ctx context.Context) error { return p.storeSecret(ctx, p.secret+"-other") })
	sc.Step(pattern(`^the agent asks the platform to verify$`), p.verify)
	sc.Step(pattern(`^the report says verified, with health_ok, handshake_ok and games_covered$`), p.verified)
	sc.Step(pattern(`^the report says (health_ok|handshake_ok|games_covered) false and not verified$`), p.notVerified)
	sc.Step(pattern(`^the platform's calls to the endpoint were signed as the push protocol says$`), p.signedCalls)
	sc.Step(pattern(`^a certified agent$`), p.certified)
	platformStakeSteps(sc, p)
	p.Cleanup(func() {
		p.restoreTiers(context.Background())
		if p.endpoint != nil {
			p.endpoint.Close()
		}
	})
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

func (p *platRun) submitExample(ctx context.Context, mafia, asYAML string) error {
	m := manifest.Example(p.endpointOrPlaceholder())
	if mafia != "" {
		m["games"] = []any{"goofspiel", "mafia"}
	}
	if asYAML == "" {
		return p.submit(ctx, m)
	}
	p.lastYAML = true
	raw, err := yaml.Marshal(m)
	if err != nil {
		return verdict.Errorf("encoding YAML: %v", err)
	}
	return p.submit(ctx, raw)
}

func (p *platRun) submitBroken(ctx context.Context, field string) error {
	m := manifest.Example(p.endpointOrPlaceholder())
	for _, b := range manifest.Breakages() {
		if b.Field == field {
			b.Edit(m)
			p.lastField = field
			return p.submit(ctx, m)
		}
	}
	return verdict.Errorf("no breakage for field %q", field)
}

func (p *platRun) stored() error {
	if p.endpoint != nil && p.Last.Status/100 == 4 {
		// A production platform refuses an http loopback endpoint; the
		// reference is a dev platform that opts in (PYYOL-REF-DEV-LOOPBACK).
		return verdict.Skipf("the platform refused the kit's loopback endpoint %s (status %d): verify checks need a dev platform", p.endpointURL(), p.Last.Status)
	}
	if p.Last.Status/100 != 2 || p.manifestID == "" {
		rule := "PYYOL-MANIFEST-SUBMIT"
		if p.Last.Status/100 == 4 && p.lastYAML {
			rule = "PYYOL-MANIFEST-FORMAT"
		}
		return verdict.Failf(rule, "2xx with a manifest_id", p.Last.Status, "submitting a valid manifest; body %s", p.g.env.HTTP.Secrets().Clip(p.Last.Body))
	}
	return nil
}

func (p *platRun) refusedManifest() error {
	if p.Last.Status < 400 || p.Last.Status > 499 {
		return verdict.Failf(fieldRules[p.lastField], "a 4xx refusal", p.Last.Status, "a manifest with %s broken", p.lastField)
	}
	return nil
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

func (p *platRun) verify(ctx context.Context) error {
	if err := p.call(ctx, "POST", p.manifestPath()+"/"+url.PathEscape(p.manifestID)+"/verify", map[string]any{}, p.g.token); err != nil {
		return err
	}
	p.report = map[string]bool{}
	if p.Last.Status != 200 || json.Unmarshal(p.Last.Body, &p.report) != nil {
		return verdict.Failf("PYYOL-MANIFEST-VERIFY", "200 {verified, health_ok, handshake_ok, games_covered}", string(p.Last.Body), "the verify report")
	}
	for _, k := range []string{"verified", "health_ok", "handshake_ok", "games_covered"} {
		if _, ok := p.report[k]; !ok {
			return verdict.Failf("PYYOL-MANIFEST-VERIFY", "a report with "+k, string(p.Last.Body), "the verify report")
		}
	}
	return nil
}

// reached skips a verify check the platform could not make: a live
// platform may not reach an endpoint the runner hosts on loopback.
func (p *platRun) reached(ctx context.Context) error {
	if len(p.calls) == 0 {
		p.calls = p.received(ctx)
	}
	if len(p.calls) == 0 {
		return verdict.Skipf("the platform never called the kit's endpoint at %s (a live platform cannot reach loopback)", p.endpointURL())
	}
	return nil
}

func (p *platRun) verified(ctx context.Context) error {
	if err := p.reached(ctx); err != nil {
		return err
	}
	if err := p.checkPlatformSigning(p.calls); err != nil {
		return err
	}
	r := p.report
	if !r["verified"] || !r["health_ok"] || !r["handshake_ok"] || !r["games_covered"] {
		return verdict.Failf("PYYOL-MANIFEST-VERIFY", "all true", string(p.Last.Body), "verifying a healthy endpoint that shares the secret")
	}
	return nil
}

func (p *platRun) notVerified(ctx context.Context, field string) error {
	if err := p.reached(ctx); err != nil {
		return err
	}
	rule := map[string]string{"health_ok": "PYYOL-MANIFEST-VERIFY-HEALTH", "handshake_ok": "PYYOL-MANIFEST-VERIFY-HANDSHAKE",
		"games_covered": "PYYOL-MANIFEST-VERIFY-GAMES"}[field]
	if p.report[field] || p.report["verified"] {
		return verdict.Failf(rule, field+" false, verified false", string(p.Last.Body), "the verify report")
	}
	return nil
}

func (p *platRun) signedCalls(ctx context.Context) error {
	if err := p.reached(ctx); err != nil {
		return err
	}
	return p.checkPlatformSigning(p.calls)
}

// certified publishes and verifies a manifest for the scenario's agent.
func (p *platRun) certified(ctx context.Context) error {
	if err := p.hostEndpoint("healthy"); err != nil {
		return err
	}
	steps := []func(context.Context) error{
		func(ctx context.Context) error { return p.submitExample(ctx, "", "") },
		func(context.Context) error { return p.stored() },
		func(ctx context.Context) error { return p.storeSecret(ctx, p.secret) },
		p.verify,
	}
	for _, s := range steps {
		if err := s(ctx); err != nil {
			return err
		}
	}
	if !p.report["verified"] {
		return verdict.Skipf("the platform did not verify the kit's endpoint (%s): ranked checks need a certified agent", string(p.Last.Body))
	}
	return nil
}
