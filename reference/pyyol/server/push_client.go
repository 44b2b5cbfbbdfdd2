package server

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
	"syscall"
	"time"

	"github.com/agentgames/conformance/reference/pushsign"
	"github.com/agentgames/conformance/reference/pyyol/manifest"
)

// The reference platform's push client: every call the platform makes to a
// hosted agent endpoint (verify and match pushes). Where the docs are
// silent it follows the real platform's client (Abik1221/Agentic_World
// backend/internal/agentclient): response bodies capped at 64 KiB, 5 s per
// attempt by default and 15 s at most, transient failures retried with
// backoff, each attempt signed afresh (PYYOL-PLAT-REF-CLIENT).
const (
	// maxReply caps one answer body (PYYOL-PLAT-BOUNDED-BODY).
	maxReply = 64 << 10
	// attemptTimeout bounds one attempt of a call other than /turn
	// (PYYOL-PLAT-ATTEMPT-TIMEOUT).
	attemptTimeout = 5 * time.Second
	// maxAttemptTimeout caps any attempt, /turn's runtime.timeout too.
	maxAttemptTimeout = 15 * time.Second
	// notifyAttempts is how many times /initialize, /event and /game-end
	// are tried on a transient failure.
	notifyAttempts = 3
)

// errTooLarge is an answer over maxReply: cut, and the call failed.
var errTooLarge = errors.New("answer body over the 64 KiB cap")

// pushClient calls one agent endpoint with its secret.
type pushClient struct {
	g      *Gateway
	secret string
	turn   string // endpoint.url itself
	dir    string // dir(endpoint.url): the siblings' directory
	budget time.Duration
	http   *http.Client
}

// newPushClient builds the client for manifest m and secret.
func (g *Gateway) newPushClient(m *manifest.Manifest, secret string) *pushClient {
	c := &pushClient{g: g, secret: secret, turn: m.Endpoint.URL, dir: siblingsDir(m.Endpoint.URL),
		budget: turnBudget(m.Runtime.Timeout)}
	dialer := &net.Dialer{Timeout: attemptTimeout, Control: g.refuseForbidden}
	var transport http.RoundTripper = &http.Transport{DialContext: dialer.DialContext, Proxy: nil, MaxIdleConnsPerHost: 4}
	if g.opts.PushWrap != nil {
		transport = g.opts.PushWrap(transport)
	}
	c.http = &http.Client{Transport: transport,
		// PYYOL-PLAT-NO-REDIRECT: "No redirects ... on every outbound call".
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	switch g.opts.Tamper {
	case FollowsRedirects:
		c.http.CheckRedirect = nil
	case SiblingsUnderTurn:
		c.dir = m.Endpoint.URL
	case IgnoresRuntimeTimeout:
		c.budget = attemptTimeout
	case ShortTurnTimeout:
		c.budget /= 8 // far under the check's half, so a loaded machine cannot blur it
	}
	return c
}

// siblingsDir is the directory of endpoint.url, where the siblings live
// (PYYOL-PLAT-SIBLINGS: "the other routes are its siblings (same base
// path)"), whatever the turn handler's own name.
func siblingsDir(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return strings.TrimSuffix(endpoint, "/turn")
	}
	u.Path = strings.TrimSuffix(path.Dir(u.Path), "/")
	u.RawQuery, u.Fragment = "", ""
	return u.String()
}

// turnBudget is runtime.timeout in milliseconds as a duration
// (PYYOL-PLAT-TURN-TIMEOUT), the default attempt timeout when it does not
// read, capped at maxAttemptTimeout.
func turnBudget(v any) time.Duration {
	var ms float64
	switch t := v.(type) {
	case float64:
		ms = t
	case int:
		ms = float64(t)
	case int64:
		ms = float64(t)
	case json.Number:
		ms, _ = t.Float64()
	case uint64:
		ms = float64(t)
	}
	d := time.Duration(ms * float64(time.Millisecond))
	if d <= 0 {
		return attemptTimeout
	}
	return min(d, maxAttemptTimeout)
}

// forbiddenIP reports whether the platform refuses to call ip
// (PYYOL-PLAT-SSRF: private, link-local, metadata, CGNAT, multicast and
// unspecified addresses, and loopback when loopbackToo). Loopback is the
// development platform's opt-in (PYYOL-REF-DEV-LOOPBACK: "dev can opt in
// for localhost"); a production platform (Config.Production) refuses it.
func forbiddenIP(ip net.IP, loopbackToo bool) bool {
	if ip.IsLoopback() {
		return loopbackToo
	}
	return ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsMulticast() ||
		ip.IsUnspecified() || ip.IsInterfaceLocalMulticast() || cgnat.Contains(ip)
}

var cgnat = &net.IPNet{IP: net.IPv4(100, 64, 0, 0), Mask: net.CIDRMask(10, 32)}

// refusesLoopback reports whether this platform refuses loopback
// endpoints: a production one does, unless tampered to call them.
func (g *Gateway) refusesLoopback() bool {
	return g.opts.Production && g.opts.Tamper != CallsLoopback
}

// forbiddenHost reports whether host is an address literal the platform
// refuses, an IPv6 zone ("fe80::1%eth0") and all, or "localhost" on a
// production platform (any other name is judged at connect time,
// refuseForbidden).
func (g *Gateway) forbiddenHost(host string) bool {
	if g.opts.Tamper == AcceptsPrivateEndpoints {
		return false
	}
	host, _, _ = strings.Cut(strings.Trim(host, "[]"), "%")
	if strings.EqualFold(host, "localhost") {
		return g.refusesLoopback()
	}
	ip := net.ParseIP(host)
	return ip != nil && forbiddenIP(ip, g.refusesLoopback())
}

// refuseForbidden stops a connection to a forbidden address before it is
// made, whatever name resolved to it (PYYOL-PLAT-SSRF).
func (g *Gateway) refuseForbidden(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if g.forbiddenHost(host) {
		return errors.New("refused: a private, loopback, link-local, metadata or multicast address")
	}
	return nil
}

// reply is one call's outcome.
type reply struct {
	status int
	body   []byte
	err    error
}

// ok reports a 200 whose body was read whole.
func (r reply) ok() bool { return r.err == nil && r.status == http.StatusOK }

// transient reports a failure worth another attempt.
func (r reply) transient() bool {
	return (r.err != nil && !errors.Is(r.err, errTooLarge)) || r.status == http.StatusTooManyRequests || r.status >= 500
}

// health asks the unsigned liveness probe with a GET (PYYOL-PLAT-HEALTH:
// "Not signed").
func (c *pushClient) health(ctx context.Context) reply {
	return c.attempt(ctx, http.MethodGet, c.dir+"/health", nil, attemptTimeout)
}

// call POSTs body to a sibling route, "protocol": "1.0" added, retrying a
// transient failure with backoff; every attempt is signed with a fresh
// nonce.
func (c *pushClient) call(ctx context.Context, route string, body map[string]any) reply {
	var r reply
	for i := range notifyAttempts {
		if i > 0 && !sleep(ctx, time.Duration(100<<i)*time.Millisecond) {
			break
		}
		r = c.attempt(ctx, http.MethodPost, c.dir+route, c.encode(body), attemptTimeout)
		if !r.transient() {
			break
		}
	}
	return r
}

// postTurn POSTs a /turn body to endpoint.url in one attempt bounded by
// runtime.timeout (PYYOL-PLAT-TURN-TIMEOUT): a late answer is no answer.
func (c *pushClient) postTurn(ctx context.Context, body map[string]any) reply {
	return c.attempt(ctx, http.MethodPost, c.turn, c.encode(body), c.budget)
}

// encode adds "protocol": "1.0" (PYYOL-PUSH-PROTOCOL-FIELD: "Every request
// carries"), unless the platform is tampered to forget it.
func (c *pushClient) encode(body map[string]any) []byte {
	if c.g.opts.Tamper != OmitsProtocol {
		body["protocol"] = "1.0"
	}
	if _, turn := body["legal_actions"]; turn {
		c.tamperBody("/turn", body)
	} else if _, event := body["seq"]; event {
		c.tamperBody("/event", body)
	}
	raw, _ := json.Marshal(body)
	return raw
}

// attempt makes one request within timeout: refused before connecting if
// the URL is not http(s) or names a forbidden address, signed unless it is
// the /health GET, the answer read up to maxReply.
func (c *pushClient) attempt(ctx context.Context, method, target string, body []byte, timeout time.Duration) reply {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || c.g.forbiddenHost(u.Hostname()) {
		return reply{err: errors.New("refused endpoint")}
	}
	limit := min(timeout, maxAttemptTimeout)
	if c.g.opts.Tamper == NoAttemptTimeout {
		limit = pushMatchLimit
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	if c.g.opts.Tamper == SignsQuery && method == http.MethodPost {
		target += "?attempt=1"
	}
	req, err := http.NewRequestWithContext(ctx, method, target, bytes.NewReader(body))
	if err != nil {
		return reply{err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	if method != http.MethodGet || c.g.opts.Tamper == SignsHealth {
		c.sign(req, body)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return reply{err: err}
	}
	defer resp.Body.Close()
	raw, err := c.read(resp.Body)
	return reply{status: resp.StatusCode, body: raw, err: err}
}

// read takes the answer body, cut at maxReply (PYYOL-PLAT-BOUNDED-BODY).
func (c *pushClient) read(body io.Reader) ([]byte, error) {
	if c.g.opts.Tamper == ReadsUnbounded {
		return io.ReadAll(body)
	}
	raw, err := io.ReadAll(io.LimitReader(body, maxReply+1))
	if err == nil && len(raw) > maxReply {
		return nil, errTooLarge
	}
	return raw, err
}

// sign adds the push headers (PYYOL-MANIFEST-PLATFORM-SIGNS, PYYOL-PLAT-HEADERS,
// PYYOL-PLAT-BEARER) and
// the signature over timestamp, nonce, method, path without its query and
// the body hash (PYYOL-PLAT-SIGNED, PYYOL-PLAT-SIGN-PATH), with a fresh
// nonce (PYYOL-PLAT-NONCE) and the current UTC time (PYYOL-PLAT-TIMESTAMP).
func (c *pushClient) sign(req *http.Request, body []byte) {
	nonce := c.g.nonce()
	ts := pushsign.Timestamp(c.g.opts.Clock()())
	if c.g.opts.Tamper == LocalTimestamp {
		ts = c.g.opts.Clock()().In(time.FixedZone("", 3600)).Format(time.RFC3339)
	}
	signed := req.URL.EscapedPath()
	switch c.g.opts.Tamper {
	case SignsWrongPath:
		signed = "/"
	case SignsQuery:
		signed = req.URL.RequestURI()
	}
	if c.g.opts.Tamper != SkipsNonce {
		req.Header.Set(pushsign.NonceHeader, nonce)
	} else {
		nonce = ""
	}
	req.Header.Set(pushsign.TimestampHeader, ts)
	sig := pushsign.Header([]byte(c.secret), ts, nonce, req.Method, signed, body)
	if c.g.opts.Tamper == SignsQuery {
		sig = signedWithQuery(c.secret, ts, nonce, req.Method, signed, body)
	}
	req.Header.Set(pushsign.SignatureHeader, sig)
	if c.g.opts.Tamper != NoBearer {
		req.Header.Set("Authorization", "Bearer "+c.secret)
	}
}

// nonce mints a per-request nonce, the same one every time for a platform
// tampered to reuse it.
func (g *Gateway) nonce() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.opts.Tamper != ReusesNonce {
		g.minted++
	}
	return "req_" + hex.EncodeToString(g.derive("nonce", g.minted, 12))
}

// sleep waits d unless ctx ends first.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
