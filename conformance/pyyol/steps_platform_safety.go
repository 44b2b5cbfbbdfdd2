package pyyol

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/manifest"
)

// platformSafetySteps registers the steps of features/pyyol/platform-safety.feature.
func (p *pfRun) platformSafetySteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^a practice agent key for the platform checks$`), p.key)
	sc.Step(pattern(`^the agent submits a manifest whose endpoint.url is "([^"]+)"$`), p.submitForbidden)
	sc.Step(pattern(`^the platform refuses it at submit or at verify$`), p.refusedForbidden)
}

func (p *pfRun) key(ctx context.Context) error {
	p.g = &gwRun{env: p.env}
	return p.g.key(ctx)
}

// ownerCall sends one owner request under the agent's manifest route.
func (p *pfRun) ownerCall(ctx context.Context, method, sub string, body any) error {
	path := "/agents/" + url.PathEscape(p.g.agentID) + "/manifest" + sub
	resp, err := platformDriver(p.env).Do(ctx, driver.Request{Method: method, Path: path, JSON: body,
		Header: map[string]string{"Authorization": "Bearer " + p.g.token}, Allow: []int{400, 401, 403, 404, 405, 409, 422, 501}})
	p.Last = resp
	return err
}

// submitForbidden submits the docs' example manifest naming endpoint;
// the kit itself never sends anything there.
func (p *pfRun) submitForbidden(ctx context.Context, endpoint string) error {
	return p.ownerCall(ctx, "POST", "", manifest.Example(endpoint))
}

// refusedForbidden passes a 4xx at submit, or a verify that does not
// verify; a stored manifest is verified to see (PYYOL-PLAT-SSRF).
func (p *pfRun) refusedForbidden(ctx context.Context) error {
	switch st := p.Last.Status; {
	case st == 404 || st == 405 || st == 501:
		return verdict.Skipf("unchecked: the target does not serve the manifest submit (status %d)", st)
	case st >= 400 && st < 500:
		return nil
	case st/100 != 2:
		return verdict.Skipf("unchecked: the submit answered %d", st)
	}
	var stored struct {
		ID string `json:"manifest_id"`
	}
	if json.Unmarshal(p.Last.Body, &stored) != nil || stored.ID == "" {
		return verdict.Skipf("unchecked: the platform stored the manifest without a manifest_id")
	}
	sub := "/" + url.PathEscape(stored.ID)
	if err := p.ownerCall(ctx, "PUT", sub+"/endpoint-secret", map[string]string{"token": "kit-never-used"}); err != nil {
		return err
	}
	if err := p.ownerCall(ctx, "POST", sub+"/verify", nil); err != nil {
		return err
	}
	var rep struct {
		Verified bool `json:"verified"`
	}
	if p.Last.Status == 200 && json.Unmarshal(p.Last.Body, &rep) == nil && rep.Verified {
		return verdict.Failf("PYYOL-PLAT-SSRF", "a refusal at submit or verify", "verified: true", "a manifest naming a forbidden address")
	}
	return nil
}
