// Package driver carries the runner's requests to a target and records what
// came back. HTTP is the request/response driver every HTTP+JSON protocol
// uses; the other transports (WebSocket sessions, JSON-RPC over streamable
// HTTP, the runner acting as server for agent-hosted endpoints) share its
// Recorder, Secrets, Limiter and Budget so that reports, redaction and
// live-deployment safety work the same whatever the wire.
package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
)

// Validator checks one response against the protocol's contract (the OpenAPI
// document). It returns a *verdict.Failure naming the operation on mismatch.
type Validator interface {
	// Validate judges body; tree yields it decoded as generic JSON (the
	// driver passes its response's Tree, so a body is decoded once however
	// many checks read it), and nil means the validator decodes body itself.
	Validate(req *http.Request, status int, header http.Header, body []byte, tree func() (any, error)) error
}

// HTTPOptions configures an HTTP driver. Limiter, Budget and Secrets are
// shared by all the drivers of one run.
type HTTPOptions struct {
	BaseURL   string
	Client    *http.Client
	Timeout   time.Duration
	Limiter   *Limiter
	Budget    *Budget
	Secrets   *Secrets
	Validator Validator
	// Breaker stops a run from sending requests to a target that has
	// stopped answering (shared by the drivers of one protocol run).
	Breaker *Breaker
	// MaxRetryWait caps how long a read waits on a 429 Retry-After before
	// the runner gives up and reports an error.
	MaxRetryWait time.Duration
	// RedirectIsAnswer hands a 3xx to the step as an ordinary answer (an
	// agent's answer to a push, which a step judges) instead of a harness
	// error. Redirects are never followed either way.
	RedirectIsAnswer bool
	// Wait waits out a Retry-After; nil waits on the wall clock. A run
	// against its embedded reference moves the reference's clock instead
	// (suite's Env.Wait), so a rate limit costs it no real time.
	Wait func(ctx context.Context, d time.Duration) error
}

// HTTP is a request/response driver bound to one target base URL.
type HTTP struct {
	opts HTTPOptions
	rec  *Recorder
}

// NewHTTP returns a driver with defaults filled in.
func NewHTTP(opts HTTPOptions) *HTTP {
	opts.Client = withoutRedirects(opts.Client)
	if opts.Timeout == 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.Secrets == nil {
		opts.Secrets = &Secrets{}
	}
	if opts.MaxRetryWait == 0 {
		opts.MaxRetryWait = 30 * time.Second
	}
	if opts.Wait == nil {
		opts.Wait = Sleep
	}
	opts.BaseURL = strings.TrimRight(opts.BaseURL, "/")
	return &HTTP{opts: opts}
}

// WithRecorder returns a driver that shares d's target and limits but records
// into rec: one per scenario.
func (d *HTTP) WithRecorder(rec *Recorder) *HTTP {
	return &HTTP{opts: d.opts, rec: rec}
}

// Recorder returns the driver's transcript recorder (nil if none).
func (d *HTTP) Recorder() *Recorder { return d.rec }

// Secrets returns the run's secret set, so steps can register keys they learn.
func (d *HTTP) Secrets() *Secrets { return d.opts.Secrets }

// BaseURL returns the target base URL requests are relative to.
func (d *HTTP) BaseURL() string { return d.opts.BaseURL }

// Request is one call. Path is relative to the base URL and may hold a query.
// JSON is marshalled as the body; Raw, when set, is sent verbatim instead
// (for malformed-input checks).
type Request struct {
	Method string
	Path   string
	Header map[string]string
	JSON   any
	Raw    []byte
	// Allow lists statuses the step wants to see even though the driver would
	// otherwise treat them as harness errors (429 and 503 quota answers),
	// and a 405 or 501 the step judges itself (missing.go).
	Allow []int
	// RouteUnderTest marks a request whose route is itself what the check
	// judges (a URL the contract publishes, a method that must not exist):
	// a 404, 405 or 501 is then an answer for the step, never a not-served
	// skip.
	RouteUnderTest bool
}

// Response is what the target answered.
type Response struct {
	Status  int
	Header  http.Header
	Body    []byte
	secrets *Secrets
	decoded *decodedBody
}

// decodedBody is a body's generic JSON value, decoded on first use.
type decodedBody struct {
	v   any
	err error
}

// Tree is the body decoded as generic JSON (maps, slices, float64s),
// decoded on the first call and shared by every later one: the schema
// validator, the secret scan and the checks all read one value, so none
// may change it. Not safe for concurrent first calls; a response belongs
// to the step that sent its request.
func (r *Response) Tree() (any, error) {
	if r.decoded == nil {
		d := &decodedBody{}
		d.err = json.Unmarshal(r.Body, &d.v)
		r.decoded = d
	}
	return r.decoded.v, r.decoded.err
}

// Decode unmarshals the body into v; a body that is not JSON is a failure of
// rule, since every documented response is JSON.
func (r *Response) Decode(rule string, v any) error {
	if err := json.Unmarshal(r.Body, v); err != nil {
		return verdict.Failf(rule, "a JSON body", r.secrets.Clip(r.Body), "status %d: %v", r.Status, err)
	}
	return nil
}

// IsWrite reports whether a method changes state and so spends the budget.
func IsWrite(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// Do sends req. Transport failures and timeouts come back as
// *verdict.HarnessError; an exhausted write budget, and a 404, 405 or 501
// on a route not shown to be served (missing.go), as *verdict.Skipped. A
// read answered 429 is retried after Retry-After; a write never is, because a
// write whose fate is unknown must not be replayed blindly (IYRA recovery).
func (d *HTTP) Do(ctx context.Context, req Request) (*Response, error) {
	write := IsWrite(req.Method)
	if write && !d.opts.Budget.Take() {
		return nil, verdict.Skipf("write budget (--max-writes) exhausted before %s %s", req.Method, req.Path)
	}
	for attempt := 0; ; attempt++ {
		resp, err := d.once(ctx, req)
		if err != nil {
			return nil, err
		}
		wait, busy := busyAnswer(resp)
		if !busy || allowed(req.Allow, resp.Status) {
			return resp, nil
		}
		if write || attempt >= 3 || wait > d.opts.MaxRetryWait {
			return nil, verdict.Errorf("target over quota, rate-limited or unavailable: %s %s answered %d (%s); writes are never retried",
				req.Method, req.Path, resp.Status, strings.TrimSpace(d.opts.Secrets.Clip(resp.Body)))
		}
		if err := d.opts.Wait(ctx, wait); err != nil {
			return nil, verdict.Errorf("waiting for Retry-After: %v", err)
		}
	}
}

// busyAnswer reports whether resp says the target cannot serve now (429
// over quota or rate, 502/503/504 unavailable) rather than anything about a
// rule, and how long it asks to wait.
func busyAnswer(resp *Response) (time.Duration, bool) {
	switch resp.Status {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return parseRetryAfter(resp.Header.Get("Retry-After")), true
	}
	return 0, false
}

func parseRetryAfter(v string) time.Duration {
	if s, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return time.Until(t)
	}
	return time.Second
}

func allowed(list []int, status int) bool {
	for _, s := range list {
		if s == status {
			return true
		}
	}
	return false
}

func (d *HTTP) once(ctx context.Context, req Request) (*Response, error) {
	if err := runEnded(ctx, req); err != nil {
		return nil, err
	}
	if err := d.opts.Limiter.Wait(ctx); err != nil {
		if ended := runEnded(ctx, req); ended != nil {
			return nil, ended
		}
		return nil, verdict.Errorf("rate limiter: %v", err)
	}
	hreq, body, err := d.build(ctx, req)
	if err != nil {
		return nil, err
	}
	d.opts.Secrets.LearnHeader(hreq.Header)
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, d.opts.Timeout)
	defer cancel()
	if err := d.opts.Breaker.check(); err != nil {
		return nil, err
	}
	start := time.Now()
	hresp, err := d.opts.Client.Do(hreq.WithContext(ctx))
	if err != nil {
		d.record(hreq, body, nil, time.Since(start), err)
		d.opts.Breaker.failed()
		return nil, d.transportError(parent, req, hreq, err)
	}
	defer hresp.Body.Close()
	rbody, err := readBody(hresp.Body)
	if err != nil {
		d.opts.Breaker.failed()
		return nil, d.transportError(parent, req, hreq, err)
	}
	d.opts.Breaker.answered(time.Since(start), d.opts.Timeout)
	resp := &Response{Status: hresp.StatusCode, Header: hresp.Header, Body: rbody, secrets: d.opts.Secrets}
	d.opts.Secrets.LearnFrom(rbody, resp.Tree)
	d.record(hreq, body, resp, time.Since(start), nil)
	if loc := redirectLocation(resp); loc != "" && !d.opts.RedirectIsAnswer {
		return nil, verdict.Errorf("%s %s answered %d redirecting to %s: no contract documents a redirect, so the runner does not follow it (keys and writes never leave the target's origin)",
			req.Method, req.Path, resp.Status, d.opts.Secrets.Redact(loc))
	}
	if err := d.notServed(req, hreq, resp); err != nil {
		return nil, err // no schema finding either: nothing answered for the route
	}
	if d.opts.Validator != nil {
		d.rec.Finding(d.opts.Validator.Validate(hreq, resp.Status, resp.Header, rbody, resp.Tree))
	}
	return resp, nil
}

// MaxResponse bounds a response body: no documented answer comes near it,
// and a target streaming without end must not exhaust the runner's memory.
const MaxResponse = 16 << 20

func readBody(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxResponse+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("reading body: %w", err)
	case len(b) > MaxResponse:
		return nil, fmt.Errorf("response body larger than %d MiB", MaxResponse>>20)
	}
	return b, nil
}

func (d *HTTP) build(ctx context.Context, req Request) (*http.Request, []byte, error) {
	body := req.Raw
	if body == nil && req.JSON != nil {
		b, err := json.Marshal(req.JSON)
		if err != nil {
			return nil, nil, verdict.Errorf("encoding request body: %v", err)
		}
		body = b
	}
	hreq, err := http.NewRequestWithContext(ctx, req.Method, d.opts.BaseURL+req.Path, bytes.NewReader(body))
	if err != nil {
		return nil, nil, verdict.Errorf("building request: %v", err)
	}
	if err := sameOrigin(d.opts.BaseURL, hreq.URL); err != nil {
		return nil, nil, err
	}
	if body != nil {
		hreq.Header.Set("Content-Type", "application/json")
	}
	for k, v := range req.Header {
		hreq.Header.Set(k, v)
	}
	return hreq, body, nil
}

func (d *HTTP) record(req *http.Request, body []byte, resp *Response, took time.Duration, err error) {
	if d.rec == nil {
		return
	}
	x := rawExchange{method: req.Method, url: req.URL.String(), reqHeader: req.Header, reqBody: body,
		elapsed: took, secrets: d.opts.Secrets}
	if resp != nil {
		x.status, x.respHeader, x.respBody = resp.Status, resp.Header, resp.Body
	}
	if err != nil {
		x.note = err.Error()
	}
	d.rec.add(x)
}

// ErrNoTarget is returned when a driver is used without a base URL.
var ErrNoTarget = errors.New("driver: no target base URL")

// String describes the driver for logs, never including secrets.
func (d *HTTP) String() string { return fmt.Sprintf("http driver for %s", d.opts.BaseURL) }
