package pyyol

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"sync/atomic"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/manifest"
)

// productionPlatformFlag is --production-platform: the target claims to be
// a production platform, which has not taken the docs' dev opt-in for
// localhost, so a loopback endpoint must be refused (PYYOL-PLAT-LOOPBACK).
var productionPlatformFlag = suite.Flag{Name: "production-platform", Kind: suite.FlagBool,
	Usage: "pyyol-platform: the target is a production platform (no dev opt-in for localhost): a loopback endpoint must be refused and never called"}

// loopbackProbe is the kit's loopback listener for PYYOL-PLAT-LOOPBACK: it
// answers nothing useful and counts every request that reaches it.
type loopbackProbe struct {
	srv  *http.Server
	url  string
	hits atomic.Int64
}

// startLoopbackProbe listens on a free 127.0.0.1 port.
func startLoopbackProbe() (*loopbackProbe, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	lp := &loopbackProbe{url: "http://" + ln.Addr().String() + "/kit-loopback/turn"}
	lp.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		lp.hits.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	})}
	go lp.srv.Serve(ln)
	return lp, nil
}

// submitLoopback submits the docs' example manifest naming the kit's
// loopback listener. It decides nothing itself: without the production
// claim, or against a platform on another machine, the rule is unchecked.
func (p *pfRun) submitLoopback(ctx context.Context) error {
	if !p.env.Settings.Bool(productionPlatformFlag.Name) {
		return verdict.Skipf("unchecked: the docs let a dev platform opt in for localhost; run with --production-platform to hold a production platform to PYYOL-PLAT-LOOPBACK")
	}
	if !loopbackTarget(p.env.HTTP.BaseURL()) {
		return verdict.Skipf("unchecked: only a platform on this machine can reach the kit's loopback listener and show whether it calls it")
	}
	lp, err := startLoopbackProbe()
	if err != nil {
		return verdict.Errorf("a loopback listener for the probe: %v", err)
	}
	p.loopback = lp
	p.Cleanup(func() { lp.srv.Close() })
	return p.ownerCall(ctx, "POST", "", manifest.Example(lp.url))
}

// refusedLoopback passes a 4xx at submit, or a stored manifest whose
// verify neither verifies nor reaches the listener (PYYOL-PLAT-LOOPBACK).
func (p *pfRun) refusedLoopback(ctx context.Context) error {
	switch st := p.Last.Status; {
	case st == 404 || st == 405 || st == 501:
		return verdict.Skipf("unchecked: the target does not serve the manifest submit (status %d)", st)
	case st >= 400 && st < 500:
		return p.loopbackUntouched("submit refused")
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
	return p.loopbackUntouched("after verify")
}

// loopbackUntouched fails when any request reached the kit's loopback
// listener: a production platform called a loopback endpoint.
func (p *pfRun) loopbackUntouched(when string) error {
	if n := p.loopback.hits.Load(); n > 0 {
		return verdict.Failf("PYYOL-PLAT-LOOPBACK", "no request to a loopback endpoint", n,
			"requests that reached the kit's loopback listener %s (%s); the run claims a production platform (--production-platform)", p.loopback.url, when)
	}
	return nil
}
