package suite

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// preflight asks a live target the protocol's documented read once before
// any check, so that a target that is down or is not this protocol at all
// gets one clear message instead of a failure per check: a target that
// does not answer is a harness error (exit 2), one that answers but not as
// the protocol does is reported as not this protocol (exit 1). It reports
// whether the checks should run. The embedded reference needs none.
func (pr *protocolRun) preflight(ctx context.Context, rep *verdict.Report) bool {
	if pr.ref != nil || pr.p.Preflight == "" {
		return true
	}
	drv := pr.drv
	if base := pr.preflightBase(); base != pr.base {
		drv = driver.NewHTTP(driver.HTTPOptions{BaseURL: base, Limiter: pr.limiter, Budget: pr.budget,
			Secrets: pr.secrets, Timeout: pr.cfg.Timeout, Breaker: pr.breaker})
	}
	resp, err := drv.Do(ctx, driver.Request{Method: http.MethodGet, Path: strings.TrimSuffix(pr.p.Preflight, "/"), RouteUnderTest: true})
	where := "GET " + pr.preflightPath()
	if err != nil {
		rep.Errors = append(rep.Errors, fmt.Sprintf("%s: the target is not answering: %s", pr.p.Name,
			strings.TrimPrefix(err.Error(), "harness error: ")))
		return false
	}
	if pr.p.PreflightReachOnly {
		return true // it answered: that is all a reachability probe asks
	}
	var doc map[string]any
	if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &doc) != nil || doc == nil {
		what := fmt.Sprintf("answered %d", resp.Status)
		if resp.Status != http.StatusOK && pr.p.PreflightFallback != nil {
			found, ok := pr.p.PreflightFallback(ctx, pr.env(&driver.Recorder{}))
			if ok {
				return true // an optional read is missing, not the protocol
			}
			what += "; " + found
		}
		if resp.Status == http.StatusOK {
			what = "answered 200 without a JSON object"
		}
		rep.NotProtocol = append(rep.NotProtocol, fmt.Sprintf("the target does not look like %s: %s %s (check --target and --protocol)",
			pr.p.Title, where, what))
		return false
	}
	return true
}

// preflightBase is the URL the preflight path is relative to.
func (pr *protocolRun) preflightBase() string {
	if pr.p.PreflightBase != nil {
		return strings.TrimRight(pr.p.PreflightBase(pr.base), "/")
	}
	return pr.base
}

// preflightPath is the path of the preflight read as the target sees it.
func (pr *protocolRun) preflightPath() string {
	u, err := url.Parse(pr.preflightBase() + strings.TrimSuffix(pr.p.Preflight, "/"))
	if err != nil {
		return pr.p.Preflight
	}
	return u.Path
}

// whyNothing explains an empty selection, naming what selected nothing.
func (pr *protocolRun) whyNothing() string {
	var parts []string
	if pr.cfg.Tags != "" {
		parts = append(parts, fmt.Sprintf("--tags %q", pr.cfg.Tags))
	}
	if len(pr.cfg.Rules) > 0 {
		parts = append(parts, "--rule "+strings.Join(pr.cfg.Rules, ","))
	}
	if len(pr.cfg.Scenarios) > 0 {
		parts = append(parts, "the replayed scenario "+strings.Join(pr.cfg.Scenarios, ","))
	}
	which := "the selection"
	if len(parts) > 0 {
		which = strings.Join(parts, " with ")
	}
	props := ""
	if pr.cfg.Checks < 0 || pr.cfg.NoProperties {
		props = " (property tests are off: --checks is negative)"
	}
	return fmt.Sprintf("%s matches no scenario or property of %s%s", which, pr.p.Name, props)
}
