package pyyol

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/manifest"
)

// platSession is pyyol-platform's one push match, shared by every scenario
// of the run: the kit's endpoint, the manifest naming it and what the
// platform sent there. skip is set when no match could be had; every
// scenario then skips with that one reason.
type platSession struct {
	ep          *platformEndpoint
	in          *driver.Inbound
	secret      string
	endpointURL string
	agentID     string
	token       string
	manifestID  string
	skip        error
	ended       bool
	asked       bool // the kit asked the practice route for the match
}

// platformSession runs the session once per run and returns it.
func platformSession(ctx context.Context, env *suite.Env) *platSession {
	v, _ := env.Shared.Once("pyyol-platform session", func() (any, error) { return runSession(ctx, env), nil })
	return v.(*platSession)
}

// runSession mints a key, hosts the endpoint, publishes, verifies and
// plays the match the platform pushes, within --match-wait.
func runSession(ctx context.Context, env *suite.Env) *platSession {
	s := &platSession{}
	deadline := time.Now().Add(matchDeadline(env))
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	if s.skip = s.host(env); s.skip != nil {
		return s
	}
	if s.skip = s.publish(ctx, env); s.skip != nil {
		return s
	}
	s.skip = s.play(ctx, env)
	return s
}

// host serves the kit's endpoint at --callback-addr, or on loopback for a
// loopback target.
func (s *platSession) host(env *suite.Env) error {
	addr, public := env.Settings.String(callbackAddrFlag.Name), env.Settings.String(callbackURLFlag.Name)
	if addr == "" && env.Elsewhere() {
		return verdict.Skipf("a platform that is not on this machine cannot reach a loopback endpoint: pass --callback-addr HOST:PORT (and --callback-url for a tunnel)")
	}
	b := make([]byte, 16)
	rand.Read(b)
	s.secret = "kit_platform_" + hex.EncodeToString(b)
	env.HTTP.Secrets().Add(s.secret)
	s.ep = newPlatformEndpoint(platformTurnBudget)
	in, err := env.Inbound(driver.InboundOptions{Addr: addr, Handler: s.ep, Buffer: 4096, MaxBody: 1 << 20})
	if err != nil {
		return err
	}
	s.in = in
	base := in.URL()
	if addr != "" {
		base = "http://" + addr
	}
	if public != "" {
		base = public
	}
	s.endpointURL = base + platformDir + "/turn"
	s.ep.redirectURL = base + redirectedDir + "/turn"
	return nil
}

// publish mints a practice key (or takes --agent-id/--token), submits the
// kit's manifest, stores the endpoint secret and asks for verify.
func (s *platSession) publish(ctx context.Context, env *suite.Env) error {
	g := &gwRun{env: env}
	if err := g.key(ctx); err != nil {
		return err
	}
	s.agentID, s.token = g.agentID, g.token
	m := manifest.Example(s.endpointURL)
	m["runtime"].(map[string]any)["timeout"] = platformTurnBudget.Milliseconds()
	resp, err := s.call(ctx, env, "POST", "", m)
	if err != nil {
		return err
	}
	if resp.Status != 201 && resp.Status != 200 {
		return notServedOr(resp, "POST /agents/{agent}/manifest", "the platform did not store the kit's manifest")
	}
	var stored struct {
		ID string `json:"manifest_id"`
	}
	if json.Unmarshal(resp.Body, &stored) != nil || stored.ID == "" {
		return verdict.Skipf("the platform stored the kit's manifest without a manifest_id")
	}
	s.manifestID = stored.ID
	if resp, err = s.call(ctx, env, "PUT", "/"+url.PathEscape(s.manifestID)+"/endpoint-secret", map[string]string{"token": s.secret}); err != nil {
		return err
	}
	if resp.Status/100 != 2 {
		return notServedOr(resp, "PUT /agents/{agent}/manifest/{manifest}/endpoint-secret", "the platform did not store the endpoint secret")
	}
	if resp, err = s.call(ctx, env, "POST", "/"+url.PathEscape(s.manifestID)+"/verify", nil); err != nil {
		return err
	}
	var rep struct {
		Verified bool `json:"verified"`
	}
	if resp.Status != 200 || json.Unmarshal(resp.Body, &rep) != nil || !rep.Verified {
		return notServedOr(resp, "POST /agents/{agent}/manifest/{manifest}/verify", "the platform did not verify the kit's endpoint at "+s.endpointURL)
	}
	return nil
}

// call sends one owner request under the agent's manifest route.
func (s *platSession) call(ctx context.Context, env *suite.Env, method, sub string, body any) (*driver.Response, error) {
	path := "/agents/" + url.PathEscape(s.agentID) + "/manifest" + sub
	return platformDriver(env).Do(ctx, driver.Request{Method: method, Path: path, JSON: body,
		Header: map[string]string{"Authorization": "Bearer " + s.token}, Allow: []int{400, 401, 403, 404, 405, 409, 422, 501}})
}

// notServedOr is the skip for an answer the session cannot go on from:
// route not served (verdict.NotServed) for a 404, 405 or 501, else what,
// with the status.
func notServedOr(resp *driver.Response, route, what string) error {
	switch resp.Status {
	case 404, 405, 501:
		return verdict.NotServed(route, resp.Status)
	}
	return verdict.Skipf("unchecked: %s (status %d)", what, resp.Status)
}

// practiceAsk is how long after verify the kit waits for a match before it
// asks the practice route for one (PYYOL-PLAT-REF-PRACTICE).
const practiceAsk = 3 * time.Second

// play waits for the platform's match and for its /game-end, within the
// session's deadline.
func (s *platSession) play(ctx context.Context, env *suite.Env) error {
	if !waitFor(ctx, s.ep.turned, practiceAsk) {
		s.asked = true
		s.call(ctx, env, "POST", "/"+url.PathEscape(s.manifestID)+"/practice", nil)
	}
	select {
	case <-s.ep.turned:
	case <-ctx.Done():
		return verdict.Skipf("unchecked: the platform pushed no match to the kit's endpoint within --match-wait (%v)", matchDeadline(env))
	}
	select {
	case <-s.ep.ended:
		s.ended = true
		// Notifications still on their way settle.
		waitFor(ctx, make(chan struct{}), 300*time.Millisecond)
	case <-ctx.Done():
	}
	return nil
}

// waitFor waits for ch up to d; it reports whether ch closed.
func waitFor(ctx context.Context, ch chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

// ready returns the session, or its skip.
func (s *platSession) ready() error {
	if s.skip != nil {
		return s.skip
	}
	if len(s.ep.requests()) == 0 {
		return verdict.Skipf("unchecked: the platform sent the kit's endpoint nothing")
	}
	return nil
}

// heard reports whether the platform called the kit's endpoint at all.
func (s *platSession) heard() bool { return s.ep != nil && len(s.ep.requests()) > 0 }

// describe names a request for a message.
func (r *seen) describe() string { return fmt.Sprintf("%s %s", r.method, r.path) }
