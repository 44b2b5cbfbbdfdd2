package pyyol

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pushsign"
	"github.com/agentgames/conformance/reference/pyyol/agent"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// platRun is one scenario against the platform's HTTP API: the publish
// flow, the stake tiers and the ranked queue. It shares the agent's key
// with the socket steps.
type platRun struct {
	// Scenario is the gateway scenario's base (g's), so a platform call's
	// answer is the scenario's Last.
	*suite.Scenario[suite.NoState]
	g          *gwRun
	endpoint   *driver.Inbound
	secret     string
	manifestID string
	report     map[string]bool
	saved      []tier // the admin tier set before a change
	admin      string
	wallet0    map[string]int64
	lastField  string
	lastYAML   bool
	calls      []*driver.InboundRequest
}

// call sends one request to the platform's HTTP API.
func (p *platRun) call(ctx context.Context, method, path string, body any, bearer string) error {
	req := driver.Request{Method: method, Path: path, JSON: body, Header: map[string]string{}}
	if bearer != "" {
		req.Header["Authorization"] = "Bearer " + bearer
	}
	if raw, ok := body.([]byte); ok {
		req.JSON, req.Raw = nil, raw
		req.Header["Content-Type"] = "application/yaml"
	}
	resp, err := platformDriver(p.g.env).Do(ctx, req)
	p.Last = resp
	return err
}

// decode reads the last answer as a JSON object (nil if it is not one).
func (p *platRun) decode() map[string]any {
	var m map[string]any
	if p.Last != nil {
		json.Unmarshal(p.Last.Body, &m)
	}
	return m
}

// hostEndpoint serves the kit's own agent endpoint on loopback, with a
// fresh endpoint secret, for the platform to verify.
func (p *platRun) hostEndpoint(health string) error {
	b := make([]byte, 16)
	rand.Read(b)
	p.secret = "kit_endpoint_" + hex.EncodeToString(b)
	env := p.g.env
	env.HTTP.Secrets().Add(p.secret)
	var h http.Handler = agent.New(agent.Options{Secret: p.secret})
	if health != "healthy" {
		h = sickHealth(h)
	}
	in, err := driver.NewInbound(driver.InboundOptions{Secrets: env.HTTP.Secrets(), Recorder: env.HTTP.Recorder(), Handler: h, Buffer: 64})
	if err != nil {
		return err
	}
	p.endpoint = in
	return nil
}

// sickHealth makes /health answer something other than healthy.
func sickHealth(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == agent.BasePath+"/health" {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"status":"degraded"}`))
			return
		}
		h.ServeHTTP(w, r)
	})
}

func (p *platRun) endpointURL() string { return p.endpoint.URL() + agent.BasePath + "/turn" }

// received drains what the platform sent the kit's endpoint.
func (p *platRun) received(ctx context.Context, first time.Duration) []*driver.InboundRequest {
	var out []*driver.InboundRequest
	for {
		wait := 50 * time.Millisecond
		if len(out) == 0 {
			wait = max(wait, first)
		}
		c, cancel := context.WithTimeout(ctx, wait)
		r, err := p.endpoint.Next(c)
		cancel()
		if err != nil {
			return out
		}
		out = append(out, r)
	}
}

// checkPlatformSigning judges the platform's verify calls: /health
// unsigned is fine, every other call signed over its own path with the
// endpoint secret (PYYOL-MANIFEST-PLATFORM-SIGNS).
func (p *platRun) checkPlatformSigning(reqs []*driver.InboundRequest) error {
	v := pushsign.NewVerifier([]byte(p.secret), nil)
	for _, r := range reqs {
		if r.Path == agent.BasePath+"/health" {
			continue
		}
		s := pushsign.Signed{Timestamp: r.Header.Get(pushsign.TimestampHeader), Nonce: r.Header.Get(pushsign.NonceHeader),
			Signature: r.Header.Get(pushsign.SignatureHeader), Method: r.Method, Path: r.Path, Body: r.Body}
		if reason := v.Verify(s); reason != pushsign.OK {
			return verdict.Failf("PYYOL-MANIFEST-PLATFORM-SIGNS", "a request signed as protocol.md says", string(reason),
				"the platform's %s %s to the endpoint", r.Method, r.Path)
		}
	}
	return nil
}

// adminToken is --admin-token, or the reference's against the embedded run.
func adminToken(env *suite.Env) (string, error) {
	if t := env.Settings.String(adminTokenFlag.Name); t != "" {
		env.HTTP.Secrets().Add(t)
		return t, nil
	}
	if !env.Live() {
		env.HTTP.Secrets().Add(server.AdminToken)
		return server.AdminToken, nil
	}
	return "", verdict.Skipf("the stake-tier admin checks need --admin-token against a live platform")
}

// refusedWith wants a 4xx whose error code is one of codes (spaces and
// underscores alike: the docs write "not certified" and "tier_required").
func (p *platRun) refusedWith(rule string, codes ...string) error {
	if p.Last.Status < 400 || p.Last.Status > 499 {
		return verdict.Failf(rule, "a 4xx refusal", p.Last.Status, "the answer; body %s", p.g.env.HTTP.Secrets().Clip(p.Last.Body))
	}
	got, _ := p.decode()["error"].(string)
	for _, c := range codes {
		if normalizeCode(got) == normalizeCode(c) {
			return nil
		}
	}
	return verdict.Failf(rule, fmt.Sprint(codes), got, "the refusal's error code")
}

func normalizeCode(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == ' ' || c == '-' {
			b[i] = '_'
		}
	}
	return string(b)
}
