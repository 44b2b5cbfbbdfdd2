package pyyol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// securityBody is what the security checks sign and send.
var securityBody = []byte(`{"protocol":"1.0"}`)

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
	// onRefusal names the rule a 401 breaks in this scenario, when the
	// refusal reason alone cannot tell.
	onRefusal string
	route     string
}

func pushSteps(sc *godog.ScenarioContext, env *suite.Env) {
	p := &pushRun{env: env}
	p.Bind(sc, env)
	sc.Step(pattern(`^the kit plays the platform against the agent endpoint$`), p.setup)
	sc.Step(pattern(`^the platform probes /health without a signature$`), p.health)
	sc.Step(pattern(`^the platform sends a signed (handshake|initialize|event|game-end)$`), p.lifecycle)
	sc.Step(pattern(`^the platform sends a signed turn for a fresh Goofspiel view$`), p.freshTurn)
	sc.Step(pattern(`^the platform sends a signed turn for a game the agent does not list$`), p.otherGameTurn)
	sc.Step(pattern(`^the platform sends a request signed with another secret$`), p.wrongSecret)
	sc.Step(pattern(`^the platform sends a request whose signature differs in its last character$`), p.lastChar)
	sc.Step(pattern(`^the platform sends a request with a timestamp (-?\d+) seconds off$`), p.skewed)
	sc.Step(pattern(`^the platform sends a signed request, then the same request again$`), p.replay)
	sc.Step(pattern(`^the platform sends a request without the signature headers$`), p.unsigned)
	sc.Step(pattern(`^the platform sends a signed request to a URL with a query string$`), p.query)
	sc.Step(pattern(`^the request is accepted$`), p.acceptedRequest)
	sc.Step(pattern(`^the platform plays a full refereed Goofspiel match$`), p.fullMatch)
	sc.Step(pattern(`^the agent reports healthy$`), p.healthy)
	sc.Step(pattern(`^the handshake is accepted and lists goofspiel$`), p.accepted)
	sc.Step(pattern(`^the agent acknowledges with 200$`), p.acked)
	sc.Step(pattern(`^the answer is a legal move for the view$`), p.legalMove)
	sc.Step(pattern(`^the request is refused 401 with reason "([a-z_]+)"$`), p.refused)
	sc.Step(pattern(`^the answer is 501 no_turn_handler$`), p.noHandler)
	sc.Step(pattern(`^every move was legal and the match reached its end$`), p.matchDone)
	pushMafiaSteps(sc, p)
	pushMonopolySteps(sc, p)
	sc.Step(pattern(`^every body the platform sent carries "protocol": "1.0"$`), p.protocolField)
}

func (p *pushRun) setup() error {
	secret, err := pushSecret(p.env)
	if err != nil {
		return err
	}
	p.secret = secret
	p.signed, err = pushDrivers(p.env, secret)
	return err
}

func (p *pushRun) health(ctx context.Context) (err error) {
	p.onRefusal = "PYYOL-PUSH-HEALTH"
	p.Last, err = p.signed.Unsigned().Do(ctx, driver.Request{Method: "GET", Path: "/health"})
	return err
}

// post sends a signed body and keeps it.
func (p *pushRun) post(ctx context.Context, path string, body map[string]any) (err error) {
	body["protocol"] = "1.0"
	p.sent = append(p.sent, body)
	p.lastIn = body
	p.Last, err = p.signed.Do(ctx, driver.Request{Method: "POST", Path: path, JSON: body, Allow: []int{401, 501}})
	return err
}

func (p *pushRun) lifecycle(ctx context.Context, route string) error {
	p.route = route
	bodies := map[string]map[string]any{
		"handshake":  {},
		"initialize": {"match_id": "mt_kit_probe", "game": "goofspiel", "seat": 0, "players": 2, "rules": goofspiel.Standard()},
		"event":      {"match_id": "mt_kit_probe", "seq": 1, "type": "prize_revealed", "payload": map[string]any{"round": 0, "prize": 7, "prize_pool": 7}},
		"game-end":   {"match_id": "mt_kit_probe", "game": "goofspiel", "result": map[string]any{"winner": -1, "scores": []int{0, 0}}},
	}
	return p.post(ctx, "/"+route, bodies[route])
}

// freshView is round 0 of a standard match seeded by the run.
func (p *pushRun) freshView() goofspiel.View {
	m, _ := goofspiel.New(goofspiel.Standard(), MatchSeed(p.env.Seed))
	return m.View(0)
}

func (p *pushRun) turnBody(game string) map[string]any {
	return map[string]any{"match_id": "mt_kit_probe", "game": game, "view": p.freshView()}
}

func (p *pushRun) freshTurn(ctx context.Context) error {
	if err := p.requireGoofspiel(ctx); err != nil {
		return err
	}
	return p.post(ctx, "/turn", p.turnBody("goofspiel"))
}

// requireGoofspiel skips the Goofspiel checks for an agent whose handshake
// does not list goofspiel: the kit referees Goofspiel only.
func (p *pushRun) requireGoofspiel(ctx context.Context) error {
	if err := p.post(ctx, "/handshake", map[string]any{}); err != nil {
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

// otherGameTurn sends a turn for a documented game the handshake does not
// list (for an agent that plays all three, a game no table documents).
func (p *pushRun) otherGameTurn(ctx context.Context) error {
	if err := p.post(ctx, "/handshake", map[string]any{}); err != nil {
		return err
	}
	var hs struct {
		SupportedGames []string `json:"supportedGames"`
	}
	json.Unmarshal(p.Last.Body, &hs)
	for _, game := range []string{"mafia", "monopoly", "goofspiel"} {
		if !slices.Contains(hs.SupportedGames, game) {
			return p.post(ctx, "/turn", p.turnBody(game))
		}
	}
	// An agent that plays every documented game has a handler for none
	// other: a game no table lists is one it did not register.
	return p.post(ctx, "/turn", p.turnBody(unlistedGame))
}

// unlistedGame is a game no Pyyol table documents, for the no-handler
// check of an agent that plays all three.
const unlistedGame = "kit-unlisted-game"

// raw sends a hand-signed handshake through the unsigned driver: the
// security checks use the one signed route every agent answers 200.
func (p *pushRun) raw(ctx context.Context, path string, headers map[string]string) (err error) {
	data := securityBody
	p.Last, err = p.signed.Unsigned().Do(ctx, driver.Request{Method: "POST", Path: path, Raw: data, Header: headers, Allow: []int{401}})
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

func (p *pushRun) wrongSecret(ctx context.Context) error {
	return p.raw(ctx, "/handshake", p.signedHeaders("/handshake", time.Now(), p.secret+"-not"))
}

func (p *pushRun) lastChar(ctx context.Context) error {
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

func (p *pushRun) replay(ctx context.Context) error {
	h := p.signedHeaders("/handshake", time.Now(), p.secret)
	if err := p.raw(ctx, "/handshake", h); err != nil {
		return err
	}
	if p.Last.Status != 200 {
		return verdict.Failf(p.refusalRule(), 200, p.Last.Status, "the first, genuine request must be accepted before its replay can be judged")
	}
	return p.raw(ctx, "/handshake", h)
}

func (p *pushRun) unsigned(ctx context.Context) error {
	return p.raw(ctx, "/handshake", map[string]string{"Content-Type": "application/json"})
}

func (p *pushRun) query(ctx context.Context) error {
	p.onRefusal = "PYYOL-SIGN-PATH"
	return p.raw(ctx, "/handshake?kit=1", p.signedHeaders("/handshake", time.Now(), p.secret))
}

func (p *pushRun) fullMatch(ctx context.Context) error {
	if err := p.requireGoofspiel(ctx); err != nil {
		return err
	}
	p.match = &Referee{Push: p.signed, Seed: p.env.Seed, Note: p.env.HTTP.Recorder().Finding}
	_, err := p.match.Play(ctx)
	p.sent = append(p.sent, p.match.Sent...)
	return err
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

func (p *pushRun) healthy() error {
	if err := p.status(200); err != nil {
		return err
	}
	var body struct{ Status string }
	if err := p.Last.Decode("PYYOL-PUSH-HEALTH", &body); err != nil {
		return err
	}
	if body.Status != "healthy" {
		return verdict.Failf("PYYOL-PUSH-HEALTH", "healthy", body.Status, "/health status")
	}
	return nil
}

func (p *pushRun) accepted() error {
	if err := p.status(200); err != nil {
		return err
	}
	var body struct {
		Accepted       bool     `json:"accepted"`
		SupportedGames []string `json:"supportedGames"`
	}
	if err := p.Last.Decode("PYYOL-PUSH-HANDSHAKE", &body); err != nil {
		return err
	}
	if !body.Accepted || len(body.SupportedGames) == 0 {
		return verdict.Failf("PYYOL-PUSH-HANDSHAKE", "accepted true and the supportedGames", string(p.Last.Body), "handshake")
	}
	return nil
}

// ackRules names the rule each lifecycle route's acknowledgement keeps.
var ackRules = map[string]string{"handshake": "PYYOL-PUSH-HANDSHAKE", "initialize": "PYYOL-PUSH-INITIALIZE",
	"event": "PYYOL-PUSH-EVENT-ACK", "game-end": "PYYOL-PUSH-GAME-END-ACK"}

func (p *pushRun) acceptedRequest() error { return p.status(200) }

func (p *pushRun) acked() error {
	err := p.status(200)
	if f := (*verdict.Failure)(nil); errors.As(err, &f) && f.RuleID == "" {
		f.RuleID = ackRules[p.route]
	}
	return err
}

func (p *pushRun) legalMove() error {
	if err := p.status(200); err != nil {
		return err
	}
	// spec/pyyol/frames/goofspiel-move.json: the move's documented shape.
	if err := judgeFrame(checkPart("goofspiel-move", p.Last.Body, "PYYOL-PUSH-TURN", "the agent's Goofspiel move"),
		p.env.HTTP.Recorder().Finding); err != nil {
		return err
	}
	var mv goofspiel.Move
	if err := p.Last.Decode("PYYOL-PUSH-TURN", &mv); err != nil {
		return err
	}
	v := p.freshView()
	if mv.Round != v.Round || !slices.Contains(v.LegalActions, mv.Card) {
		return verdict.Failf("PYYOL-PUSH-TURN", fmt.Sprintf("round %d and a card of %v", v.Round, v.LegalActions), mv, "the move")
	}
	return nil
}

// reasonRules names the rule each documented refusal reason checks.
var reasonRules = map[string]string{
	"missing_signature": "PYYOL-SIGN-MISSING",
	"stale_timestamp":   "PYYOL-SIGN-STALE",
	"replayed_nonce":    "PYYOL-SIGN-REPLAY",
	"bad_signature":     "PYYOL-SIGN-BAD",
}

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

func (p *pushRun) noHandler() error {
	if err := p.status(501); err != nil {
		return err
	}
	var body struct{ Error string }
	if json.Unmarshal(p.Last.Body, &body) != nil || body.Error != "no_turn_handler" {
		return verdict.Failf("PYYOL-PUSH-NO-TURN-HANDLER", `{"error":"no_turn_handler"}`, string(p.Last.Body), "the 501 body")
	}
	return nil
}

func (p *pushRun) matchDone() error {
	if p.match == nil || len(p.match.Moves) != goofspiel.StandardCards {
		return verdict.Errorf("the match did not run to its end")
	}
	return nil
}

func (p *pushRun) protocolField() error {
	for _, b := range p.sent {
		if b["protocol"] != "1.0" {
			return verdict.Failf("PYYOL-PUSH-PROTOCOL-FIELD", "1.0", b["protocol"], "a body the kit sent")
		}
	}
	if len(p.sent) == 0 {
		return verdict.Errorf("nothing was sent")
	}
	return nil
}
