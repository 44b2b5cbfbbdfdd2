package pyyol

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pushsign"
)

// pushSignatureSteps registers the steps of features/pyyol/push-security.feature
// about the signature's text, an unreadable timestamp and replays on
// every route.
func (p *pushRun) pushSignatureSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the platform sends a request whose signature is cut to its first half$`), p.cutShort)
	sc.Step(pattern(`^the platform sends a signed request whose signature's hex begins and ends with 1$`), p.onesAtTheEdges)
	sc.Step(pattern(`^the platform sends a signed request whose timestamp is no time$`), p.unreadableTimestamp)
	sc.Step(pattern(`^the platform sends a signed (initialize|event|game-end), then the same request again$`), p.replayOn)
	sc.Step(pattern(`^the request is refused 401 with reason "([a-z_]+)" or "([a-z_]+)"$`), p.refusedEither)
}

// cutShort sends the right signature's first 32 hex digits: a compare
// that loops over the signature sent, not the whole digest, takes it
// (PYYOL-SIGN-BAD: a signature that does not verify is refused).
func (p *pushRun) cutShort(ctx context.Context) error {
	h := p.signedHeaders("/handshake", time.Now(), p.secret)
	sig := h[pushsign.SignatureHeader]
	h[pushsign.SignatureHeader] = sig[:len(pushsign.Prefix)+(len(sig)-len(pushsign.Prefix))/2]
	return p.raw(ctx, "/handshake", h)
}

// onesAtTheEdges signs a request whose nonce is picked so its hex
// signature begins and ends with 1: an agent that cuts v1= with a
// character-set trim (Python's lstrip or strip, Go's TrimLeft) cuts those
// digits too and refuses it (PYYOL-SIGN-STRING, PYYOL-SIGN-HEADERS: the
// header is v1= and the whole hex). Some 256 nonces are tried on average.
func (p *pushRun) onesAtTheEdges(ctx context.Context) error {
	path := p.pathPrefix() + "/handshake"
	for range 1 << 16 {
		h := headersFor(p.secret, "POST", path, securityBody, time.Now(), p.freshNonce())
		hex := strings.TrimPrefix(h[pushsign.SignatureHeader], pushsign.Prefix)
		if hex[0] == '1' && hex[len(hex)-1] == '1' {
			return p.raw(ctx, "/handshake", h)
		}
	}
	return verdict.Errorf("no nonce gave a signature beginning and ending with 1")
}

// unreadableTimestamp signs, correctly, a request whose timestamp header
// holds no time: it is in no window, so it is refused (PYYOL-SIGN-STALE);
// a verifier whose comparison fails open on an unparsed time (a NaN in
// JavaScript compares false) takes it.
func (p *pushRun) unreadableTimestamp(ctx context.Context) error {
	p.onAcceptance = "PYYOL-SIGN-STALE"
	const ts = "not-a-time"
	nonce, path := p.freshNonce(), p.pathPrefix()+"/handshake"
	h := headersFor(p.secret, "POST", path, securityBody, time.Now(), nonce)
	h[pushsign.TimestampHeader] = ts
	h[pushsign.SignatureHeader] = pushsign.Header([]byte(p.secret), ts, nonce, "POST", path, securityBody)
	return p.raw(ctx, "/handshake", h)
}

// replayOn sends a genuine request to route, then the very request again
// (PYYOL-SIGN-REPLAY: every signed route is guarded, the calls an agent
// also dedupes by match_id too).
func (p *pushRun) replayOn(ctx context.Context, route string) error {
	h := headersFor(p.secret, "POST", p.pathPrefix()+"/"+route, securityBody, time.Now(), p.freshNonce())
	if err := p.raw(ctx, "/"+route, h); err != nil {
		return err
	}
	if p.Last.Status != 200 {
		return verdict.Failf(p.refusalRule(), 200, p.Last.Status, "the first, genuine /%s must be accepted before its replay can be judged", route)
	}
	return p.raw(ctx, "/"+route, h)
}

// refusedEither is refused for a scenario where the docs leave the
// reason open between two: a 401 unauthorized with either passes; any
// other answer fails the first reason's rule.
func (p *pushRun) refusedEither(first, second string) error {
	if err := p.status(401); err != nil {
		return err
	}
	var body struct{ Error, Reason string }
	if json.Unmarshal(p.Last.Body, &body) == nil && body.Error == "unauthorized" && (body.Reason == first || body.Reason == second) {
		return nil
	}
	return verdict.Failf(reasonRules[first], fmt.Sprintf(`{"error":"unauthorized","reason":%q or %q}`, first, second),
		string(p.Last.Body), "the refusal body")
}
