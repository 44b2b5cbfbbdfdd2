package pyyol

import (
	"context"
	"encoding/json"
	"net/url"

	"go.yaml.in/yaml/v4"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/manifest"
)

// gatewayManifestSteps registers the steps of features/pyyol/gateway-manifest.feature.
func (p *platRun) gatewayManifestSteps(sc *suite.ScenarioContext) {
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

// notVerified judges the report on an endpoint the kit made fail one
// part of the verification. A report calling that part (or the whole)
// good is false whatever the calls: the kit's endpoint refused it, and a
// platform that never reached the endpoint cannot have seen it pass. So
// that fails at once, not after the wait for the calls, which under load
// could end first and make it a skip (issue 19). A report saying false
// decides only once the platform is seen calling (reached).
func (p *platRun) notVerified(ctx context.Context, field string) error {
	rule := map[string]string{"health_ok": "PYYOL-MANIFEST-VERIFY-HEALTH", "handshake_ok": "PYYOL-MANIFEST-VERIFY-HANDSHAKE",
		"games_covered": "PYYOL-MANIFEST-VERIFY-GAMES"}[field]
	if p.report[field] || p.report["verified"] {
		return verdict.Failf(rule, field+" false, verified false", string(p.Last.Body), "the verify report")
	}
	return p.reached(ctx)
}

func (p *platRun) signedCalls(ctx context.Context) error {
	if err := p.reached(ctx); err != nil {
		return err
	}
	return p.checkPlatformSigning(p.calls)
}
