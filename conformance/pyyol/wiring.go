package pyyol

// The one place Pyyol's steps build transports from the run's Env. Env
// hands out HTTP only today; the WebSocket and signed-push drivers are made
// here from its recorder and secrets so the switch to Env-provided drivers
// later touches this file alone.

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/oas"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pushsign"
	"github.com/agentgames/conformance/reference/pyyol/agent"
	"github.com/agentgames/conformance/spec"
)

// pushBase turns the run's base URL into the directory of the agent's
// routes (PushRoutes).
func pushBase(env *suite.Env) string { return pushDir(env.HTTP.BaseURL()) }

// pushTurn is the path of the agent's turn handler under pushBase.
func pushTurn(env *suite.Env) string {
	_, turn := PushRoutes(env.HTTP.BaseURL())
	return turn
}

// pushDir is pushBase of a base URL (the push side's PreflightBase too).
func pushDir(base string) string {
	dir, _ := PushRoutes(base)
	return dir
}

// PushRoutes splits a push --target into the directory of the agent's
// routes and the path of its turn handler under it, as the platform does
// (backend/internal/agentclient: the turn is POSTed to endpoint.url
// itself, the siblings are {dir(endpoint.url)}/health and the rest). A
// --target is endpoint.url, its last segment the turn handler whatever its
// name (/turn in the docs, /play in the platform's own examples); the
// reference agent's base path (what `serve` prints, and what a bare
// host/port resolves to) is read as the directory, with /turn in it.
func PushRoutes(base string) (dir, turn string) {
	base = strings.TrimRight(base, "/")
	u, err := url.Parse(base)
	if err != nil || u.Path == "" || u.Path == agent.BasePath {
		return base, "/turn"
	}
	cut := strings.LastIndex(base, "/")
	return base[:cut], base[cut:]
}

// pushSecret is --secret, or the reference agent's dev secret against the
// embedded reference.
func pushSecret(env *suite.Env) (string, error) {
	if s := env.Settings.String(secretFlag.Name); s != "" {
		return s, nil
	}
	if !env.Live() {
		return agent.DevSecret, nil
	}
	return "", verdict.Errorf("pyyol-push against a live endpoint needs --secret (the endpoint secret)")
}

// pushDrivers builds the signed and unsigned drivers for the agent's routes
// on the run's Env, so pushes share its rate limit, write budget, breaker,
// secrets and the scenario's transcript.
func pushDrivers(env *suite.Env, secret string) (*driver.SignedHTTP, error) {
	signer := driver.NewHMACSigner(secret, driver.PyyolScheme(), env.HTTP.Secrets())
	base := pushBase(env)
	if v := pushValidator(base); v != nil {
		return env.SignedPush(base, signer, v)
	}
	return env.SignedPush(base, signer)
}

// pushValidator checks the agent's answers against spec/pyyol/openapi.yaml
// at the routes' directory (nil if the document does not load).
func pushValidator(base string) *oas.Validator {
	doc, err := spec.OpenAPI("pyyol")
	u, uerr := url.Parse(base)
	if err != nil || uerr != nil {
		return nil
	}
	v, err := oas.Load(doc, u.Path, "PYYOL-OPENAPI")
	if err != nil {
		return nil
	}
	return v
}

// headersFor signs body for path with secret at time t and nonce, as the
// platform would, for steps that send a hand-made signature.
func headersFor(secret, method, path string, body []byte, t time.Time, nonce string) map[string]string {
	ts := pushsign.Timestamp(t)
	return map[string]string{pushsign.TimestampHeader: ts, pushsign.NonceHeader: nonce,
		pushsign.SignatureHeader: pushsign.Header([]byte(secret), ts, nonce, method, path, body),
		"Authorization":          "Bearer " + secret, "Content-Type": "application/json"}
}

// socketURL is the gateway's WebSocket: the --target as given when it is a
// ws(s) URL naming a socket, else the documented layout under the base URL
// (the docs connect agents to wss://api.pyyol.com/v1/agent/connect).
func socketURL(env *suite.Env) string { return gatewaySocketURL(env.HTTP.BaseURL()) }

// gatewaySocketURL is socketURL of a base URL. A ws(s) URL is taken as the
// socket itself unless it names only the API's base (no path, or one
// ending in the documented version segment /v1, as the README's table
// gives the base): then, as for an http(s) base, the socket is
// /agent/connect under it, so `--target ws://host/v1` checks the socket
// the docs name instead of leaving every socket check unchecked.
func gatewaySocketURL(target string) string {
	base := strings.TrimRight(target, "/")
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	switch u.Scheme {
	case "ws", "wss":
		if u.Path != "" && !strings.HasSuffix(u.Path, "/v1") {
			return base
		}
	case "https":
		u.Scheme = "wss"
	default:
		u.Scheme = "ws"
	}
	if !strings.HasSuffix(u.Path, "/agent/connect") {
		u.Path += "/agent/connect"
	}
	return u.String()
}

// httpBase is the gateway's HTTP base (for the practice key mint).
func httpBase(env *suite.Env) string { return gatewayHTTPBase(env.HTTP.BaseURL()) }

// gatewayHTTPBase is httpBase of a base URL (the gateway's PreflightBase
// too): a ws(s) socket URL becomes the http(s) base it sits under.
func gatewayHTTPBase(base string) string {
	u, err := url.Parse(strings.TrimRight(base, "/"))
	if err != nil {
		return base
	}
	switch u.Scheme {
	case "ws":
		u.Scheme = "http"
	case "wss":
		u.Scheme = "https"
	}
	u.Path = strings.TrimSuffix(u.Path, "/agent/connect")
	return u.String()
}

// dial opens a recorded socket to the gateway through the run's Env (rate
// limit, breaker, secrets, transcript; closed when the scenario ends).
// Waits for frames are bounded by --frame-wait; the handshake itself by
// the run's --timeout, like any request, so a short --frame-wait never
// turns a slow machine's dial into an error.
func dial(ctx context.Context, env *suite.Env) (*driver.WS, error) {
	return env.DialWS(ctx, socketURL(env), http.Header{}, driver.WSOptions{Timeout: waitLimit(env), EventBuffer: 1024})
}

// mintDriver is an HTTP driver for the gateway's HTTP routes: the run's own
// when the target is an http(s) URL, else one at the socket's http(s) twin
// sharing the run's breaker.
func mintDriver(env *suite.Env) *driver.HTTP {
	if u, err := url.Parse(env.HTTP.BaseURL()); err == nil && (u.Scheme == "http" || u.Scheme == "https") &&
		!strings.HasSuffix(u.Path, "/agent/connect") {
		return env.HTTP
	}
	return platformDriver(env)
}

// platformDriver is an HTTP driver for the platform's API beside the
// gateway (publish, stake tiers, queue), which the gateway's OpenAPI
// document does not describe; it shares the run's limits through the Env.
func platformDriver(env *suite.Env) *driver.HTTP {
	d, err := env.HTTPAt(httpBase(env), platformRoutes)
	if err != nil {
		// Only a scenario outside a run has no Env links; keep its own driver.
		return driver.NewHTTP(driver.HTTPOptions{BaseURL: httpBase(env), Secrets: env.HTTP.Secrets(), Timeout: 30 * time.Second,
			Breaker: runBreaker(env)}).WithRecorder(env.HTTP.Recorder())
	}
	return d
}

// platformRoutes name the platform API's routes, so that a route's
// evidence of being served holds for every agent and manifest id, and a
// route the deployment lacks is named once ("the target does not serve
// POST /v1/agents/{agent}/manifest").
var platformRoutes = driver.Templates{
	"POST /practice/agents",
	"GET /games/{game}/stakes", "POST /games/{game}/queue",
	"GET /admin/games/{game}/stakes", "PUT /admin/games/{game}/stakes",
	"GET /agents/{agent}/wallet", "PUT /agents/{agent}/limits",
	"POST /agents/{agent}/manifest", "PUT /agents/{agent}/manifest/{manifest}/endpoint-secret",
	"POST /agents/{agent}/manifest/{manifest}/verify",
}

// runBreaker is one breaker for the run's own drivers, so a target that is
// down is given up on once, not scenario by scenario.
func runBreaker(env *suite.Env) *driver.Breaker {
	b, err := env.Shared.Once("pyyol breaker", func() (any, error) { return &driver.Breaker{}, nil })
	if err != nil {
		return nil
	}
	return b.(*driver.Breaker)
}
