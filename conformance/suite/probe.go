package suite

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// Probe is a protocol's preflight request where its contract documents no
// public read (Protocol.Probe): a request every deployment must answer in
// the protocol's documented shape without changing anything (a malformed
// or wrong-version body the contract says is refused).
type Probe struct {
	// Method, Path (relative to the base URL) and JSON body of the request.
	Method string
	Path   string
	JSON   any
	// Speaks reports whether an answer is in the protocol's shape. It must
	// accept every answer the contract allows, a wrong refusal included:
	// what a responder answers is for the checks to judge; the probe only
	// tells a responder from a target that is something else.
	Speaks func(status int, body []byte) bool
}

// probe sends the protocol's Probe to a live target before any check. An
// answer in the protocol's shape lets the checks run. A target that does
// not answer, does not serve the route (404, 405, 501) or cannot answer
// now (5xx) is a harness error that says nothing was checked (exit 2); one
// that answers in another shape (an HTML page, another protocol's error)
// is not this protocol (WRONG TARGET, exit 1). It reports whether the
// checks should run. The probe spends no --max-writes: it changes nothing.
func (pr *protocolRun) probe(ctx context.Context, rep *verdict.Report) bool {
	pb := pr.p.Probe
	if pr.ref != nil || pb == nil {
		return true
	}
	drv := driver.NewHTTP(driver.HTTPOptions{BaseURL: pr.base, Limiter: pr.limiter, Secrets: pr.secrets,
		Timeout: pr.cfg.Timeout, Breaker: pr.breaker})
	resp, err := drv.Do(ctx, driver.Request{Method: pb.Method, Path: pb.Path, JSON: pb.JSON})
	where := pb.Method + " " + pr.probePath()
	nothing := func(why string) bool {
		rep.Errors = append(rep.Errors, fmt.Sprintf("%s: nothing was checked: %s", pr.p.Name, why))
		return false
	}
	var notServed *verdict.Skipped
	switch {
	case errors.As(err, &notServed):
		return nothing(fmt.Sprintf("the target does not serve %s (%s; check --target and --protocol)", where, notServed.Reason))
	case err != nil:
		return nothing(fmt.Sprintf("the target is not answering %s: %s", where, trimHarness(err)))
	case pb.Speaks(resp.Status, resp.Body):
		return true
	case resp.Status == http.StatusNotFound || resp.Status == http.StatusMethodNotAllowed || resp.Status == http.StatusNotImplemented:
		return nothing(fmt.Sprintf("the target does not serve %s (answered %d; check --target and --protocol)", where, resp.Status))
	case resp.Status >= 500:
		return nothing(fmt.Sprintf("%s answered %d, so the kit cannot tell whether it is %s", where, resp.Status, pr.p.Title))
	}
	rep.NotProtocol = append(rep.NotProtocol, fmt.Sprintf("the target does not look like %s: %s answered %d without the protocol's answer shape (check --target and --protocol)",
		pr.p.Title, where, resp.Status))
	return false
}

// probePath is the path of the probe as the target sees it.
func (pr *protocolRun) probePath() string {
	u, err := url.Parse(pr.base + pr.p.Probe.Path)
	if err != nil {
		return pr.p.Probe.Path
	}
	return u.Path
}

// trimHarness is a harness error's text without its "harness error: " prefix.
func trimHarness(err error) string {
	s := err.Error()
	const prefix = "harness error: "
	if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):]
	}
	return s
}
