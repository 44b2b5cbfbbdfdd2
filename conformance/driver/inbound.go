package driver

// The runner on the server side. Some protocols put the endpoint in the
// agent's hands: Pyyol's legacy push model has the platform call the agent's
// hosted /turn, /event and /game-end with HMAC-signed requests, and the
// bounty's share exchange has a collector POST to a holder's listed contact
// (and a holder OFFER to a collector's). To check either side the runner must
// (a) host an endpoint itself and watch what an agent sends it (Inbound),
// and (b) send signed requests to an endpoint an agent hosts (SignedHTTP with
// a Signer, HMACSigner following Pyyol's scheme).

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pushsign"
)

// InboundOptions configures a loopback endpoint the runner hosts.
type InboundOptions struct {
	Secrets  *Secrets
	Recorder *Recorder
	// Timeout bounds each wait in Next (default 10s).
	Timeout time.Duration
	// Buffer is how many received, unread requests are kept (default 64).
	Buffer int
	// MaxBody caps one request body in bytes (default 1 MiB); larger ones
	// are answered 413 and still reported to Next.
	MaxBody int64
	// Handler answers requests until the step sets another (nil answers
	// 200 with {}).
	Handler http.Handler
	// Addr is the HOST:PORT to listen on (default 127.0.0.1 at a free
	// port): a platform under test that is not on this machine needs an
	// address it can reach (pyyol-platform's --callback-addr).
	Addr string
	// TLS serves https with a self-signed certificate for 127.0.0.1, ::1
	// and localhost, made at start: for a contract that only lets a
	// platform call https URLs (the bounty's notify_url). Only a platform
	// that trusts it (the development reference, for loopback) can call.
	TLS bool
}

// InboundRequest is one request an agent sent to the runner, with the reply
// it got. Fields are raw (secrets and all): the step needs real values; the
// transcript copy is redacted.
type InboundRequest struct {
	secrets     *Secrets
	Method      string
	Path        string
	Query       string
	Header      http.Header
	Body        []byte
	Received    time.Time
	Status      int
	ReplyHeader http.Header
	Reply       []byte
}

// Decode unmarshals the request body into v; a body that is not JSON fails
// rule, since the agent sent it.
func (r *InboundRequest) Decode(rule string, v any) error {
	if err := json.Unmarshal(r.Body, v); err != nil {
		return verdict.Failf(rule, "a JSON request body", r.secrets.Clip(r.Body), "%s %s: %v", r.Method, r.Path, err)
	}
	return nil
}

// Inbound is a loopback HTTP server the runner hosts for one agent to call.
type Inbound struct {
	opts     InboundOptions
	srv      *http.Server
	url      string
	received chan *InboundRequest

	mu      sync.RWMutex
	handler http.Handler
	rec     *Recorder
	fault   error
}

// NewInbound starts an endpoint on opts.Addr, by default 127.0.0.1 at a
// free port.
func NewInbound(opts InboundOptions) (*Inbound, error) {
	opts = inboundDefaults(opts)
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, verdict.Errorf("inbound endpoint: %v", err)
	}
	scheme := "http"
	if opts.TLS {
		cert, err := selfSigned()
		if err != nil {
			ln.Close()
			return nil, verdict.Errorf("inbound endpoint: %v", err)
		}
		ln, scheme = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}), "https"
	}
	in := &Inbound{opts: opts, url: scheme + "://" + ln.Addr().String(), received: make(chan *InboundRequest, opts.Buffer),
		handler: opts.Handler, rec: opts.Recorder}
	in.srv = &http.Server{Handler: http.HandlerFunc(in.serve), ReadHeaderTimeout: opts.Timeout}
	if opts.TLS {
		// A client that does not trust the self-signed certificate is
		// expected: its failed handshake is no line on the runner's stderr.
		in.srv.ErrorLog = log.New(io.Discard, "", 0)
	}
	go func() { _ = in.srv.Serve(ln) }()
	return in, nil
}

func inboundDefaults(opts InboundOptions) InboundOptions {
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.Buffer <= 0 {
		opts.Buffer = 64
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = 1 << 20
	}
	if opts.Secrets == nil {
		opts.Secrets = &Secrets{}
	}
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.Handler == nil {
		opts.Handler = JSONReply(http.StatusOK, map[string]any{})
	}
	return opts
}

// URL is the endpoint's base URL (http://127.0.0.1:port), to hand the agent
// as its contact or callback.
func (in *Inbound) URL() string { return in.url }

// Secrets returns the secret set transcripts are redacted with.
func (in *Inbound) Secrets() *Secrets { return in.opts.Secrets }

// Handle sets the handler that answers the following requests.
func (in *Inbound) Handle(h http.Handler) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.handler = h
}

// SetRecorder switches the transcript requests go to, so one endpoint can
// outlive a scenario (an agent keeps the contact it was given).
func (in *Inbound) SetRecorder(rec *Recorder) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.rec = rec
}

// JSONReply returns a handler answering every request with status and body
// as JSON.
func JSONReply(status int, body any) http.Handler {
	b, err := json.Marshal(body)
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(b)
	})
}

// Next returns the oldest received request not yet returned, waiting up to
// the timeout (a harness error wrapping ErrTimeout: the agent never called).
// A request already queued is returned even when the deadline has passed:
// on a loaded runner a select over both would pick at random, and the
// runner's slowness would turn a call that came into silence (issue 19).
func (in *Inbound) Next(ctx context.Context) (*InboundRequest, error) {
	if err := in.overflowed(); err != nil {
		return nil, err
	}
	select {
	case r := <-in.received:
		return r, nil
	default:
	}
	ctx, cancel := context.WithTimeout(ctx, in.opts.Timeout)
	defer cancel()
	select {
	case r := <-in.received:
		return r, nil
	case <-ctx.Done():
		return nil, verdict.Errorf("no request at %s within %v: %w", in.url, in.opts.Timeout, ErrTimeout)
	}
}

// Close stops the endpoint and waits for requests in flight.
func (in *Inbound) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := in.srv.Shutdown(ctx); err != nil {
		return verdict.Errorf("closing inbound endpoint: %v", err)
	}
	return nil
}

// serve reads the whole body, lets the current handler answer, records the
// exchange and queues it for Next.
func (in *Inbound) serve(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	in.mu.RLock()
	h, rec := in.handler, in.rec
	in.mu.RUnlock()
	cw := &capture{ResponseWriter: w, status: http.StatusOK}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, in.opts.MaxBody))
	if err != nil {
		http.Error(cw, "request body too large", http.StatusRequestEntityTooLarge)
	} else {
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(cw, r)
	}
	rec.served(r, body, cw.status, w.Header(), cw.body.Bytes(), time.Since(start), in.opts.Secrets)
	in.queue(&InboundRequest{secrets: in.opts.Secrets, Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(),
		Body: body, Received: start, Status: cw.status, ReplyHeader: w.Header().Clone(), Reply: cw.body.Bytes()})
}

// queue hands a request to Next; a full queue poisons the endpoint rather
// than losing a request silently.
func (in *Inbound) queue(r *InboundRequest) {
	select {
	case in.received <- r:
	default:
		in.mu.Lock()
		if in.fault == nil {
			in.fault = verdict.Errorf("more than %d unread requests at %s: %w", in.opts.Buffer, in.url, ErrOverflow)
		}
		in.mu.Unlock()
	}
}

func (in *Inbound) overflowed() error {
	in.mu.RLock()
	defer in.mu.RUnlock()
	return in.fault
}

// capture keeps the status and body a handler wrote.
type capture struct {
	http.ResponseWriter
	status int
	wrote  bool
	body   bytes.Buffer
}

func (c *capture) WriteHeader(status int) {
	if !c.wrote {
		c.status, c.wrote = status, true
	}
	c.ResponseWriter.WriteHeader(status)
}

// Unwrap lets http.ResponseController reach the connection (write
// deadlines, flushes) through the capture.
func (c *capture) Unwrap() http.ResponseWriter { return c.ResponseWriter }

func (c *capture) Write(b []byte) (int, error) {
	c.wrote = true
	if c.body.Len() < MaxBody {
		c.body.Write(b)
	}
	return c.ResponseWriter.Write(b)
}

// Signer adds authentication to a request the runner pushes to an
// agent-hosted endpoint; body is exactly the bytes that will be sent.
type Signer interface {
	Sign(req *http.Request, body []byte) error
}

// HMACScheme names the parts of an HMAC-SHA256 request-signing scheme.
type HMACScheme struct {
	TimestampHeader string
	NonceHeader     string
	SignatureHeader string
	// SignaturePrefix precedes the hex digest in the header ("v1=").
	SignaturePrefix string
	// TimeFormat formats the timestamp (a time layout, e.g. time.RFC3339).
	TimeFormat string
	// BearerSecret also sends the secret as "Authorization: Bearer".
	BearerSecret bool
	// SigningString builds the signed text from its parts.
	SigningString func(timestamp, nonce, method, path string, body []byte) string
}

// PyyolScheme is Pyyol's push signing, from protocol.md "Authentication &
// request signing": headers X-Arena-Timestamp (RFC3339 UTC),
// X-Arena-Request-Id (per-request nonce) and X-Arena-Signature
// ("v1=<hex hmac-sha256>"), plus "Authorization: Bearer <endpoint secret>
// (back-compat)".
func PyyolScheme() HMACScheme {
	return HMACScheme{TimestampHeader: "X-Arena-Timestamp", NonceHeader: "X-Arena-Request-Id",
		SignatureHeader: "X-Arena-Signature", SignaturePrefix: "v1=", TimeFormat: time.RFC3339,
		BearerSecret: true, SigningString: PyyolSigningString}
}

// PyyolSigningString is Pyyol's canonical string (reference/pushsign, the
// one implementation the reference agent verifies with): "signingString = timestamp
// \n nonce \n METHOD \n path \n hex(sha256(body))", where "path is the
// request path (no query string)".
func PyyolSigningString(timestamp, nonce, method, path string, body []byte) string {
	return pushsign.SigningString(timestamp, nonce, method, path, body)
}

// HMACSigner signs requests with an endpoint secret under a scheme.
type HMACSigner struct {
	scheme HMACScheme
	secret []byte
	// Now is the signing clock (nil = time.Now); a step sets it back to send
	// a stale timestamp.
	Now func() time.Time
	// Nonce makes each request's nonce (nil = "req_" + 16 random bytes in
	// hex). Nonces come from crypto/rand, not the run seed, because a seeded
	// run repeated against the same agent would replay its own nonces.
	Nonce func() string
}

// NewHMACSigner returns a signer for secret and registers the secret in
// secrets so no transcript ever shows it.
func NewHMACSigner(secret string, scheme HMACScheme, secrets *Secrets) *HMACSigner {
	if secrets != nil {
		secrets.Add(secret)
	}
	return &HMACSigner{scheme: scheme, secret: []byte(secret)}
}

// Sign sets the timestamp, nonce and signature headers. A timestamp or nonce
// header the request already carries is kept and signed, so a step can
// replay a nonce or send a stale timestamp on purpose.
func (s *HMACSigner) Sign(req *http.Request, body []byte) error {
	if s.scheme.SigningString == nil || s.scheme.SignatureHeader == "" {
		return verdict.Errorf("hmac signer: scheme has no signing string or signature header")
	}
	ts := s.headerOr(req, s.scheme.TimestampHeader, s.timestamp)
	nonce := s.headerOr(req, s.scheme.NonceHeader, s.nonce)
	req.Header.Set(s.scheme.SignatureHeader, s.scheme.SignaturePrefix+s.Signature(ts, nonce, req.Method, req.URL.EscapedPath(), body))
	if s.scheme.BearerSecret {
		req.Header.Set("Authorization", "Bearer "+string(s.secret))
	}
	return nil
}

// headerOr returns the request's header value, setting it from gen when
// absent; a scheme without that header signs the empty string.
func (s *HMACSigner) headerOr(req *http.Request, name string, gen func() string) string {
	if name == "" {
		return ""
	}
	if v := req.Header.Get(name); v != "" {
		return v
	}
	v := gen()
	req.Header.Set(name, v)
	return v
}

// Signature returns the hex HMAC-SHA256 of the scheme's signing string.
func (s *HMACSigner) Signature(timestamp, nonce, method, path string, body []byte) string {
	mac := hmac.New(sha256.New, s.secret)
	mac.Write([]byte(s.scheme.SigningString(timestamp, nonce, method, path, body)))
	return hex.EncodeToString(mac.Sum(nil))
}

// ErrBadSignature is returned by Verify for a missing or wrong signature.
var ErrBadSignature = errors.New("driver: bad or missing request signature")

// Verify checks a received request's signature in constant time (the runner
// hosting an agent endpoint that a platform under test pushes to). Skew and
// replay windows are the step's to judge from the headers.
func (s *HMACSigner) Verify(req *http.Request, body []byte) error {
	got, ok := strings.CutPrefix(req.Header.Get(s.scheme.SignatureHeader), s.scheme.SignaturePrefix)
	if !ok || got == "" {
		return ErrBadSignature
	}
	want := s.Signature(req.Header.Get(s.scheme.TimestampHeader), req.Header.Get(s.scheme.NonceHeader),
		req.Method, req.URL.EscapedPath(), body)
	if !hmac.Equal([]byte(got), []byte(want)) {
		return ErrBadSignature
	}
	return nil
}

func (s *HMACSigner) timestamp() string {
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	return now().UTC().Format(s.scheme.TimeFormat)
}

func (s *HMACSigner) nonce() string {
	if s.Nonce != nil {
		return s.Nonce()
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return "req_" + hex.EncodeToString(b)
}

// SignedHTTP pushes signed requests to an agent-hosted endpoint. It wraps an
// *HTTP rather than its transport so the signature headers are in the
// request the driver records (redacted: the secret is registered) and the
// signed bytes are exactly the bytes sent.
type SignedHTTP struct {
	http   *HTTP
	signer Signer
}

// NewSignedHTTP returns a push driver. Redirects are never followed (Pyyol:
// "No redirects ... on every outbound call"), because a redirect would carry
// a signature bound to another path; an agent endpoint that answers one is
// a harness error naming its Location, as for every other protocol, not a
// failure of every rule the check was about to look at.
func NewSignedHTTP(opts HTTPOptions, signer Signer) *SignedHTTP {
	if opts.Secrets == nil {
		opts.Secrets = &Secrets{}
	}
	if hs, ok := signer.(*HMACSigner); ok {
		opts.Secrets.Add(string(hs.secret))
	}
	return &SignedHTTP{http: NewHTTP(opts), signer: signer}
}

// WithRecorder returns a push driver recording into rec.
func (s *SignedHTTP) WithRecorder(rec *Recorder) *SignedHTTP {
	return &SignedHTTP{http: s.http.WithRecorder(rec), signer: s.signer}
}

// Unsigned returns the same driver without signing, for unsigned routes
// (Pyyol's /health) and for checking that an agent refuses unsigned calls.
func (s *SignedHTTP) Unsigned() *HTTP { return s.http }

// Secrets returns the run's secret set.
func (s *SignedHTTP) Secrets() *Secrets { return s.http.Secrets() }

// Recorder returns the transcript recorder.
func (s *SignedHTTP) Recorder() *Recorder { return s.http.Recorder() }

// Do signs req and sends it through the wrapped driver (budget, limiter,
// recording and validation apply as for any request).
func (s *SignedHTTP) Do(ctx context.Context, req Request) (*Response, error) {
	body := req.Raw
	if body == nil && req.JSON != nil {
		b, err := json.Marshal(req.JSON)
		if err != nil {
			return nil, verdict.Errorf("encoding request body: %v", err)
		}
		body = b
	}
	probe, err := http.NewRequestWithContext(ctx, req.Method, s.http.BaseURL()+req.Path, nil)
	if err != nil {
		return nil, verdict.Errorf("building request: %v", err)
	}
	for k, v := range req.Header {
		probe.Header.Set(k, v)
	}
	if err := s.signer.Sign(probe, body); err != nil {
		return nil, verdict.Errorf("signing %s %s: %v", req.Method, req.Path, err)
	}
	signed := req
	signed.Raw, signed.JSON = body, nil
	signed.Header = make(map[string]string, len(probe.Header))
	for k := range probe.Header {
		signed.Header[k] = probe.Header.Get(k)
	}
	return s.http.Do(ctx, signed)
}
