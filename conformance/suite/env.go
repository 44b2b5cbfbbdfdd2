package suite

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/quota"
	"github.com/agentgames/conformance/conformance/verdict"
)

// links is what an Env needs to hand out drivers for every transport: the
// protocol run (rate limit, write budget, breaker, secrets, timeout) and the
// scenario's transcript, plus what to close when the scenario ends.
type links struct {
	pr  *protocolRun
	rec *driver.Recorder

	mu       sync.Mutex
	cleanups []func()
}

// DialWS opens a WebSocket session that shares the run's rate limit, write
// budget, breaker and redaction secrets and records every frame into the
// scenario's transcript; the zero fields of opts are filled from the run
// (Timeout and DialTimeout from --timeout).
// The session is closed when the scenario ends.
func (e *Env) DialWS(ctx context.Context, url string, header http.Header, opts driver.WSOptions) (*driver.WS, error) {
	l, err := e.linked()
	if err != nil {
		return nil, err
	}
	opts.Limiter, opts.Secrets, opts.Recorder = l.pr.limiter, l.pr.secrets, l.rec
	if opts.Budget == nil {
		opts.Budget = l.pr.budget
	}
	if opts.Breaker == nil {
		opts.Breaker = l.pr.breaker
	}
	if opts.Timeout == 0 {
		opts.Timeout = l.pr.cfg.Timeout
	}
	if opts.DialTimeout == 0 {
		opts.DialTimeout = l.pr.cfg.Timeout // --timeout, as for an HTTP request
	}
	ws, err := driver.DialWS(ctx, url, header, opts)
	if err == nil {
		e.Cleanup(func() { ws.Close() })
	}
	return ws, err
}

// JSONRPC returns a JSON-RPC 2.0 (MCP over streamable HTTP) client on top
// of the scenario's HTTP driver, so every call is limited, budgeted,
// validated and recorded like any request.
func (e *Env) JSONRPC(opts driver.JSONRPCOptions) *driver.JSONRPC {
	return driver.NewJSONRPC(e.HTTP, opts)
}

// Inbound starts a loopback endpoint the agent under test calls (the runner
// as the server), recording into the scenario's transcript with the run's
// secrets. It is closed when the scenario ends.
func (e *Env) Inbound(opts driver.InboundOptions) (*driver.Inbound, error) {
	l, err := e.linked()
	if err != nil {
		return nil, err
	}
	opts.Secrets, opts.Recorder = l.pr.secrets, l.rec
	in, err := driver.NewInbound(opts)
	if err == nil {
		e.Cleanup(func() { in.Close() })
	}
	return in, err
}

// HTTPAt returns an HTTP driver for another base URL of the same target
// (a platform API beside a WebSocket gateway, say), sharing the run's rate
// limit, write budget, breaker, secrets and the scenario's transcript. The
// caller brings a validator when the routes there have a document.
func (e *Env) HTTPAt(baseURL string, validators ...driver.Validator) (*driver.HTTP, error) {
	l, err := e.linked()
	if err != nil {
		return nil, err
	}
	pr := l.pr
	opts := driver.HTTPOptions{BaseURL: baseURL, Limiter: pr.limiter, Budget: pr.budget,
		Secrets: pr.secrets, Breaker: pr.breaker, Timeout: pr.cfg.Timeout}
	if len(validators) > 0 {
		opts.Validator = validators[0]
	}
	return driver.NewHTTP(opts).WithRecorder(l.rec), nil
}

// SignedPush returns a driver that pushes signed requests to baseURL (an
// agent's endpoint), sharing the run's rate limit, write budget, breaker,
// secrets (the signer's secret is registered) and the scenario's transcript.
func (e *Env) SignedPush(baseURL string, signer driver.Signer, validators ...driver.Validator) (*driver.SignedHTTP, error) {
	l, err := e.linked()
	if err != nil {
		return nil, err
	}
	pr := l.pr
	opts := driver.HTTPOptions{BaseURL: baseURL, Limiter: pr.limiter, Budget: pr.budget,
		Secrets: pr.secrets, Breaker: pr.breaker, Timeout: pr.cfg.Timeout}
	if len(validators) > 0 {
		// The pushed routes sit under the agent's endpoint, not under the
		// protocol's base path, so the caller brings their validator.
		opts.Validator = validators[0]
	}
	return driver.NewSignedHTTP(opts, signer).WithRecorder(l.rec), nil
}

// Quota returns the run's one quota planner for this protocol, made on
// first use (or before the first request, from Protocol.Quota) from the
// documented daily limits less what to keep, with up to --max-agents
// identities, and capped by --max-writes. Every scenario and property of the protocol shares it.
func (e *Env) Quota(documented, keep quota.Limits) (*quota.Planner, error) {
	l, err := e.linked()
	if err != nil {
		return nil, err
	}
	v, err := e.Shared.Once("quota planner "+l.pr.p.Name, func() (any, error) {
		return l.pr.newPlanner(documented, keep), nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*quota.Planner), nil
}

// Cleanup registers f to run when the scenario or property check ends, last
// registered first.
func (e *Env) Cleanup(f func()) {
	if e.links == nil {
		return
	}
	e.links.mu.Lock()
	defer e.links.mu.Unlock()
	e.links.cleanups = append(e.links.cleanups, f)
}

// close runs the registered cleanups once.
func (e *Env) close() {
	if e.links == nil {
		return
	}
	e.links.mu.Lock()
	fs := e.links.cleanups
	e.links.cleanups = nil
	e.links.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}

// errNoRun is returned by an Env that was built outside a run.
var errNoRun = verdict.Errorf("this Env was not made by a run: it has no transports to share")

func (e *Env) linked() (*links, error) {
	if e.links == nil {
		return nil, errNoRun
	}
	return e.links, nil
}

// Control is white-box access to the embedded reference: its adjustable
// clock and its handler (to reach engine state a protocol exposes).
type Control struct {
	Clock     *Clock
	Reference http.Handler
}

// ErrNoControl is what Control returns against a live target: a Skip, since
// a deployment lacking the embedded test controls is no rule violation.
var ErrNoControl = verdict.Skipf("needs the embedded reference's controls (clock, engine): not available against a live target")

// Control returns the embedded reference's controls, or ErrNoControl (a
// skip) against a live target. Steps that need white-box control return
// its error as it is.
func (e *Env) Control() (*Control, error) {
	if e.Reference == nil || e.Clock == nil {
		return nil, ErrNoControl
	}
	return &Control{Clock: e.Clock, Reference: e.Reference}, nil
}

// Wait waits out a wait the target asks for (a 429's Retry-After): real
// time against a live target; against the embedded reference, the run
// moves the reference's clock by d instead, so the reference sees the wait
// and the run spends none; an Env built outside a run (a unit test's)
// with a Clock moves that clock. An ended context is its error.
func (e *Env) Wait(ctx context.Context, d time.Duration) error {
	l, err := e.linked()
	switch {
	case err == nil:
		return l.pr.wait(ctx, d)
	case e.Clock != nil && d > 0:
		// An Env of its own (a unit test's) waits on its own clock.
		e.Clock.Advance(d)
		return ctx.Err()
	}
	return driver.Sleep(ctx, d)
}

// WaitOut lets a documented window of d pass for a @long check: the
// embedded reference's clock moves at once; a live target's window is
// waited out in real time, which only a run with --long does (without it
// the check skips naming the flag, and one the run's --deadline would cut
// skips saying so).
func (e *Env) WaitOut(ctx context.Context, d time.Duration) error {
	if e.Clock != nil {
		e.Clock.Advance(d)
		return nil
	}
	if !e.Long {
		return verdict.Skipf("needs the embedded reference's clock, or --long to wait %s in real time", d)
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < d {
		return verdict.Skipf("waiting %s would pass the run's --deadline (%s left): the window is unchecked; raise --deadline", d, time.Until(dl).Round(time.Second))
	}
	return driver.Sleep(ctx, d)
}

// IsNoControl reports whether err is Control's skip.
func IsNoControl(err error) bool { return errors.Is(err, ErrNoControl) }
