package pyyol

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// securityBody is what the security checks sign and send.
var securityBody = []byte(`{"platform":"` + kitPlatform + `","protocol":"1.0"}`)

// pushRun is one push scenario: the kit as the platform.
type pushRun struct {
	suite.Scenario[suite.NoState]
	env    *suite.Env
	secret string
	signed *driver.SignedHTTP
	lastIn map[string]any
	sent   []map[string]any
	match  *Referee
	nonce  int
	// window is the timestamp window the agent was measured to accept
	// (push_window.go).
	window struct {
		oldest, newest int
		measured       bool
		slow           bool // a probe was still slow after slowProbes tries
	}
	// onRefusal names the rule a 401 breaks in this scenario, when the
	// refusal reason alone cannot tell.
	onRefusal string
	// onAcceptance names the rule a 2xx breaks where a refusal was due in
	// this scenario, when the scenario's request singles one out.
	onAcceptance string
	route        string
	// view is the Goofspiel view the last turn check sent; nil is the
	// fresh view.
	view *goofspiel.View
}

// post sends a signed body and keeps it.
func (p *pushRun) post(ctx context.Context, path string, body map[string]any) (err error) {
	body["protocol"] = "1.0"
	p.sent = append(p.sent, body)
	p.lastIn = body
	p.Last, err = p.signed.Do(ctx, driver.Request{Method: "POST", Path: path, JSON: body, Allow: []int{401}})
	return err
}

// referee is a match referee pushing through the scenario's signed
// driver to the agent's turn handler, its warnings to the transcript.
func (p *pushRun) referee() *Referee {
	return &Referee{Push: p.signed, Seed: p.env.Seed, Note: p.env.HTTP.Recorder().Finding, TurnPath: pushTurn(p.env)}
}

// freshView is round 0 of a standard match seeded by the run.
func (p *pushRun) freshView() goofspiel.View {
	m, _ := goofspiel.New(goofspiel.Standard(), MatchSeed(p.env.Seed))
	return m.View(0)
}

// turnView is the view the last turn check sent.
func (p *pushRun) turnView() goofspiel.View {
	if p.view != nil {
		return *p.view
	}
	return p.freshView()
}

// probeTurn is the /turn body of the single-turn checks: the fresh view
// at the top level (PYYOL-REF-PUSH-BODIES), for game.
func (p *pushRun) probeTurn(game string) map[string]any {
	return turnBody(probeMatch, game, p.freshView())
}

// probeMatch is the match id of the single-request checks.
const probeMatch = "mt_kit_probe"

// requireGoofspiel skips the Goofspiel checks for an agent whose handshake
// does not list goofspiel: the kit referees Goofspiel only.
func (p *pushRun) requireGoofspiel(ctx context.Context) error {
	if err := p.post(ctx, "/handshake", handshakeBody()); err != nil {
		return err
	}
	var hs struct {
		SupportedGames []string `json:"supportedGames"`
	}
	if p.Last.Status == 200 && json.Unmarshal(p.Last.Body, &hs) == nil && !slices.Contains(hs.SupportedGames, "goofspiel") {
		return verdict.Skipf("the agent does not list goofspiel; the kit referees Goofspiel only")
	}
	return nil
}

// unlistedGame is a game no Pyyol table documents, for the no-handler
// check of an agent that plays all three.
const unlistedGame = "kit-unlisted-game"

// raw sends a hand-signed handshake through the unsigned driver: the
// security checks use the one signed route every agent answers 200.
func (p *pushRun) raw(ctx context.Context, path string, headers map[string]string) (err error) {
	return p.rawBody(ctx, path, headers, securityBody)
}

// rawBody is raw with another body than the one the headers were signed
// over, for the checks that send bytes the signature does not cover.
func (p *pushRun) rawBody(ctx context.Context, path string, headers map[string]string, body []byte) (err error) {
	p.Last, err = p.signed.Unsigned().Do(ctx, driver.Request{Method: "POST", Path: path, Raw: body, Header: headers, Allow: []int{401}})
	return err
}

func (p *pushRun) freshNonce() string {
	p.nonce++
	return fmt.Sprintf("req_kit_%d_%d", time.Now().UnixNano(), p.nonce)
}

func (p *pushRun) signedHeaders(path string, at time.Time, secret string) map[string]string {
	data := securityBody
	return headersFor(secret, "POST", p.pathPrefix()+path, data, at, p.freshNonce())
}

// pathPrefix is the path of the agent's route directory, which the
// signature binds.
func (p *pushRun) pathPrefix() string {
	u, err := url.Parse(pushBase(p.env))
	if err != nil {
		return ""
	}
	return u.EscapedPath()
}

// status wants the last answer's status. A 404 or 405 means the route is
// not where the siblings rule puts it; a 401 to a request the kit signed
// correctly blames the signing rule the refusal reason points at.
func (p *pushRun) status(want int) error {
	if p.Last.Status == want {
		return nil
	}
	rule := ""
	switch {
	case p.Last.Status == 404 || p.Last.Status == 405:
		rule = "PYYOL-PUSH-SIBLINGS"
	case want == 200 && p.Last.Status == 401:
		rule = p.refusalRule()
	case want == 401 && p.Last.Status/100 == 2:
		rule = p.onAcceptance
	}
	return verdict.Failf(rule, want, p.Last.Status, "status of the last request; body %s", p.env.HTTP.Secrets().Clip(p.Last.Body))
}

// refusalRule is the rule a refusal of a well-signed request breaks.
func (p *pushRun) refusalRule() string {
	if p.onRefusal != "" {
		return p.onRefusal
	}
	var body struct{ Reason string }
	json.Unmarshal(p.Last.Body, &body)
	switch body.Reason {
	case "missing_signature":
		return "PYYOL-SIGN-HEADERS"
	case "stale_timestamp":
		return "PYYOL-SIGN-SKEW-WINDOW"
	}
	return "PYYOL-SIGN-STRING"
}

// ackRules names the rule each lifecycle route's acknowledgement keeps.
var ackRules = map[string]string{"handshake": "PYYOL-PUSH-HANDSHAKE", "initialize": "PYYOL-PUSH-INITIALIZE",
	"event": "PYYOL-PUSH-EVENT-ACK", "game-end": "PYYOL-PUSH-GAME-END-ACK"}

// reasonRules names the rule each documented refusal reason checks.
var reasonRules = map[string]string{
	"missing_signature": "PYYOL-SIGN-MISSING",
	"stale_timestamp":   "PYYOL-SIGN-STALE",
	"replayed_nonce":    "PYYOL-SIGN-REPLAY",
	"bad_signature":     "PYYOL-SIGN-BAD",
}
