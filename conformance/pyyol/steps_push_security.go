package pyyol

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pushsign"
)

// pushSecuritySteps registers the steps of features/pyyol/push-security.feature.
func (p *pushRun) pushSecuritySteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the platform sends a (handshake|initialize|event|game-end|turn) signed with another secret$`), p.wrongSecret)
	sc.Step(pattern(`^the platform sends a signed turn the agent cannot play, then the same request again$`), p.replayRefused)
	sc.Step(pattern(`^the platform sends a request whose signature differs in its last character$`), p.lastChar)
	sc.Step(pattern(`^the platform sends a request with a timestamp (-?\d+) seconds off$`), p.skewed)
	sc.Step(pattern(`^the platform sends a signed request, then the same request again$`), p.replay)
	sc.Step(pattern(`^the platform sends a signed request, then (\d+) others, then the first again$`), p.replayAfter)
	sc.Step(pattern(`^the platform sends a request without the signature headers$`), p.unsigned)
	sc.Step(pattern(`^the platform sends a signed request without its (X-Arena-[A-Za-z-]+) header$`), p.withoutHeader)
	sc.Step(pattern(`^the platform sends a signed request, then another route's request with the same nonce$`), p.nonceOnAnotherRoute)
	sc.Step(pattern(`^the platform sends a signed request, then the same nonce signed again (\d+) seconds later$`), p.nonceLater)
	sc.Step(pattern(`^the platform sends a signed request whose body gained a trailing newline after signing$`), p.trailingNewline)
	sc.Step(pattern(`^the platform sends a signed request to a URL with a query string$`), p.query)
	sc.Step(pattern(`^the platform sends a signed request, then a signed (initialize|game-end), then the first again$`), p.replayAcross)
	sc.Step(pattern(`^the platform sends a signed request whose timestamp is written (with milliseconds|with \+00:00)$`), p.timestampForm)
	sc.Step(pattern(`^the platform probes both edges of the timestamp window$`), p.probeWindow)
	sc.Step(pattern(`^the window is 600 seconds wide, whole-second rounding aside$`), p.windowIs600)
	sc.Step(pattern(`^the request is accepted$`), p.acceptedRequest)
	sc.Step(pattern(`^the request is refused 401 with reason "([a-z_]+)"$`), p.refused)
}

// wrongSecret signs a request to route with another secret but keeps the
// endpoint secret as the Bearer: the back-compat header is no signature,
// so an agent that takes a matching Bearer in place of the HMAC accepts
// it; every route but /health is verified, so an agent that guards only
// some of them accepts it there (PYYOL-SIGN-BAD).
func (p *pushRun) wrongSecret(ctx context.Context, route string) error {
	path := "/" + route
	if route == "turn" {
		path = pushTurn(p.env)
	}
	h := p.signedHeaders(path, time.Now(), p.secret+"-not")
	h["Authorization"] = "Bearer " + p.secret
	return p.raw(ctx, path, h)
}

// replayRefused sends a correctly signed /turn no handler can play (the
// security body, no game and no view), then the very request again: the
// nonce is checked with the signature, before any handler runs (the
// SDK's verify_request), so it is spent whatever the handler answered,
// and an agent that stores it only when its handler took the request
// takes the replay (PYYOL-SIGN-REPLAY).
func (p *pushRun) replayRefused(ctx context.Context) error {
	turn := pushTurn(p.env)
	h := p.signedHeaders(turn, time.Now(), p.secret)
	first, err := p.signed.Unsigned().Do(ctx, driver.Request{Method: "POST", Path: turn, Raw: securityBody, Header: h,
		Allow: []int{400, 401, 409, 422, 500, 501}})
	if err != nil {
		return err
	}
	if p.Last = first; first.Status == 401 {
		return verdict.Failf(p.refusalRule(), "any answer of the handler", 401, "the first, genuine request must pass the verification before its replay can be judged")
	}
	return p.raw(ctx, turn, h)
}

// lastChar sends a signature off in its last character only: accepting
// it shows a compare that stops short of the whole digest, not the
// constant-time one of PYYOL-SIGN-CONSTANT-TIME (whose timing itself no
// live check can decide: the runner's speed is never a verdict).
func (p *pushRun) lastChar(ctx context.Context) error {
	p.onAcceptance = "PYYOL-SIGN-CONSTANT-TIME"
	h := p.signedHeaders("/handshake", time.Now(), p.secret)
	sig := []byte(h["X-Arena-Signature"])
	if sig[len(sig)-1] == '0' {
		sig[len(sig)-1] = '1'
	} else {
		sig[len(sig)-1] = '0'
	}
	h["X-Arena-Signature"] = string(sig)
	return p.raw(ctx, "/handshake", h)
}

func (p *pushRun) skewed(ctx context.Context, seconds int) error {
	if seconds <= 300 && seconds >= -300 {
		p.onRefusal = "PYYOL-SIGN-SKEW-WINDOW"
	}
	return p.raw(ctx, "/handshake", p.signedHeaders("/handshake", time.Now().Add(-time.Duration(seconds)*time.Second), p.secret))
}

// probeWindow measures the window's edges (push_window.go).
func (p *pushRun) probeWindow(ctx context.Context) error {
	var err error
	p.window.slow = false
	p.window.oldest, p.window.newest, err = p.windowEdges(ctx)
	p.window.measured = err == nil
	return err
}

// windowIs600 judges the measured width (PYYOL-SIGN-SKEW-WINDOW: the
// 300th second inside, PYYOL-SIGN-STALE: the 301st out, on both sides).
func (p *pushRun) windowIs600() error {
	if !p.window.measured {
		return verdict.Errorf("the window was not measured")
	}
	return judgeWindow(p.window.oldest, p.window.newest, p.window.slow)
}

func (p *pushRun) replay(ctx context.Context) error {
	h := p.signedHeaders("/handshake", time.Now(), p.secret)
	if err := p.genuine(ctx, h, "its replay"); err != nil {
		return err
	}
	return p.raw(ctx, "/handshake", h)
}

// genuine sends the first, correctly signed request of a nonce check,
// which must be accepted before what follows it (what) can be judged.
func (p *pushRun) genuine(ctx context.Context, h map[string]string, what string) error {
	if err := p.raw(ctx, "/handshake", h); err != nil {
		return err
	}
	if p.Last.Status != 200 {
		return verdict.Failf(p.refusalRule(), 200, p.Last.Status, "the first, genuine request must be accepted before %s can be judged", what)
	}
	return nil
}

// replayAfter sends a genuine request, then n other genuine ones, then
// the first again, all within seconds: a nonce store that keeps only the
// last few forgets the first while its timestamp is still inside the
// window, and "replayed nonce" holds for every nonce the window could
// still accept (PYYOL-SIGN-REPLAY).
func (p *pushRun) replayAfter(ctx context.Context, n int) error {
	first := p.signedHeaders("/handshake", time.Now(), p.secret)
	if err := p.genuine(ctx, first, "its replay"); err != nil {
		return err
	}
	for range n {
		if err := p.raw(ctx, "/handshake", p.signedHeaders("/handshake", time.Now(), p.secret)); err != nil {
			return err
		}
	}
	return p.raw(ctx, "/handshake", first)
}

// withoutHeader sends a correctly signed request with one of the three
// signature headers left out (PYYOL-SIGN-MISSING: each is needed alone).
func (p *pushRun) withoutHeader(ctx context.Context, header string) error {
	h := p.signedHeaders("/handshake", time.Now(), p.secret)
	if _, ok := h[header]; !ok {
		return verdict.Errorf("the kit signs no %s header", header)
	}
	delete(h, header)
	return p.raw(ctx, "/handshake", h)
}

// nonceOnAnotherRoute sends a genuine request, then a request to another
// route, correctly signed for it, reusing the first one's nonce
// (PYYOL-SIGN-REPLAY: a nonce is never accepted twice, whatever the path).
func (p *pushRun) nonceOnAnotherRoute(ctx context.Context) error {
	first := p.signedHeaders("/handshake", time.Now(), p.secret)
	if err := p.genuine(ctx, first, "its nonce's reuse"); err != nil {
		return err
	}
	nonce := first["X-Arena-Request-Id"]
	again := headersFor(p.secret, "POST", p.pathPrefix()+"/event", securityBody, time.Now(), nonce)
	return p.raw(ctx, "/event", again)
}

// nonceLater sends a genuine request signed seconds ago, then one signed
// now that reuses its nonce, both inside the window (PYYOL-SIGN-REPLAY:
// the store is keyed on the nonce alone, so a store keyed on the nonce
// and its timestamp, which every fresh signature changes, takes it).
func (p *pushRun) nonceLater(ctx context.Context, seconds int) error {
	first := p.signedHeaders("/handshake", time.Now().Add(-time.Duration(seconds)*time.Second), p.secret)
	if err := p.genuine(ctx, first, "its nonce's reuse"); err != nil {
		return err
	}
	again := headersFor(p.secret, "POST", p.pathPrefix()+"/handshake", securityBody, time.Now(), first["X-Arena-Request-Id"])
	return p.raw(ctx, "/handshake", again)
}

// replayAcross sends a genuine request, then a match's /initialize or
// /game-end, then the first again: the nonce store outlives a match's
// start and end (PYYOL-SIGN-REPLAY: a nonce inside the window is never
// taken twice), so a store kept per match, emptied at either, takes it.
func (p *pushRun) replayAcross(ctx context.Context, route string) error {
	first := p.signedHeaders("/handshake", time.Now(), p.secret)
	if err := p.genuine(ctx, first, "its replay"); err != nil {
		return err
	}
	between := headersFor(p.secret, "POST", p.pathPrefix()+"/"+route, securityBody, time.Now(), p.freshNonce())
	if err := p.raw(ctx, "/"+route, between); err != nil {
		return err
	}
	return p.raw(ctx, "/handshake", first)
}

// timestampForms are RFC3339 UTC renderings of a time other than the
// docs' example's: fractional seconds and the +00:00 offset, both RFC3339
// UTC (the SDK's parser reads them: datetime.fromisoformat).
var timestampForms = map[string]string{"with milliseconds": "2006-01-02T15:04:05.000Z", "with +00:00": "2006-01-02T15:04:05+00:00"}

// timestampForm sends a request signed now whose timestamp is written in
// one of timestampForms; a refusal breaks PYYOL-SIGN-SKEW-WINDOW (a
// correctly signed request inside the window is accepted).
func (p *pushRun) timestampForm(ctx context.Context, form string) error {
	p.onRefusal = "PYYOL-SIGN-SKEW-WINDOW"
	ts, nonce := time.Now().UTC().Format(timestampForms[form]), p.freshNonce()
	h := headersFor(p.secret, "POST", p.pathPrefix()+"/handshake", securityBody, time.Now(), nonce)
	h[pushsign.TimestampHeader] = ts
	h[pushsign.SignatureHeader] = pushsign.Header([]byte(p.secret), ts, nonce, "POST", p.pathPrefix()+"/handshake", securityBody)
	if err := p.raw(ctx, "/handshake", h); err != nil {
		return err
	}
	var refusal struct{ Reason string }
	if p.Last.Status == 401 && json.Unmarshal(p.Last.Body, &refusal) == nil && refusal.Reason == "bad_signature" {
		// The time was read, the signature was not: the signing string
		// holds the header's text as sent, not the time re-rendered
		// (PYYOL-SIGN-STRING).
		p.onRefusal = "PYYOL-SIGN-STRING"
	}
	return nil
}

// trailingNewline sends a body one byte longer than the one signed: the
// signature covers the body's hash, so it no longer matches
// (PYYOL-SIGN-STRING, PYYOL-SIGN-BAD).
func (p *pushRun) trailingNewline(ctx context.Context) error {
	p.onAcceptance = "PYYOL-SIGN-STRING" // the hash was not over the bytes received
	h := p.signedHeaders("/handshake", time.Now(), p.secret)
	return p.rawBody(ctx, "/handshake", h, append(append([]byte{}, securityBody...), '\n'))
}

func (p *pushRun) unsigned(ctx context.Context) error {
	return p.raw(ctx, "/handshake", map[string]string{"Content-Type": "application/json"})
}

func (p *pushRun) query(ctx context.Context) error {
	p.onRefusal = "PYYOL-SIGN-PATH"
	return p.raw(ctx, "/handshake?kit=1", p.signedHeaders("/handshake", time.Now(), p.secret))
}

func (p *pushRun) acceptedRequest() error { return p.status(200) }

func (p *pushRun) refused(reason string) error {
	if err := p.status(401); err != nil {
		return err
	}
	var body struct{ Error, Reason string }
	if json.Unmarshal(p.Last.Body, &body) != nil || body.Error != "unauthorized" || body.Reason != reason {
		return verdict.Failf(reasonRules[reason], fmt.Sprintf(`{"error":"unauthorized","reason":%q}`, reason), string(p.Last.Body), "the refusal body")
	}
	return nil
}
