package pyyol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// pushEndpointSteps registers the steps of features/pyyol/push-endpoint.feature.
func (p *pushRun) pushEndpointSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the platform probes /health without a signature$`), p.health)
	sc.Step(pattern(`^the platform sends a signed (handshake|initialize|event|game-end)$`), p.lifecycle)
	sc.Step(pattern(`^the platform sends signed events out of seq order, the last of a type no game documents$`), p.eventsAnyOrder)
	sc.Step(pattern(`^the platform starts two matches, then ends them in order$`), p.twoMatches)
	sc.Step(pattern(`^the platform sends a signed turn for a fresh Goofspiel view$`), p.freshTurn)
	sc.Step(pattern(`^the platform sends a signed turn for a game the agent does not list$`), p.otherGameTurn)
	sc.Step(pattern(`^the platform plays a full refereed Goofspiel match$`), p.fullMatch)
	sc.Step(pattern(`^the agent reports healthy$`), p.healthy)
	sc.Step(pattern(`^the handshake is accepted and lists goofspiel$`), p.accepted)
	sc.Step(pattern(`^the agent acknowledges with 200$`), p.acked)
	sc.Step(pattern(`^the answer is a legal move for the view$`), p.legalMove)
	sc.Step(pattern(`^the answer is 501 no_turn_handler$`), p.noHandler)
	sc.Step(pattern(`^every move was legal and the match reached its end$`), p.matchDone)
}

func (p *pushRun) health(ctx context.Context) (err error) {
	p.onRefusal = "PYYOL-PUSH-HEALTH"
	p.Last, err = p.signed.Unsigned().Do(ctx, driver.Request{Method: "GET", Path: "/health"})
	if _, missing := verdict.NotServedRoute(fmt.Sprint(err)); missing {
		return p.healthElsewhere(ctx, err)
	}
	return err
}

// healthElsewhere tells an agent without /health from one that serves it
// in the wrong place (siblingAtRoot): the agent's liveness answer
// ({"status":"healthy"}) at the origin's root, when /turn lives below it.
func (p *pushRun) healthElsewhere(ctx context.Context, notServed error) error {
	return p.siblingAtRoot(ctx, "GET", "/health", notServed, `200 {"status":"healthy"}`, func(root *driver.HTTP) bool {
		resp, err := root.Do(ctx, driver.Request{Method: "GET", Path: "/health"})
		var body struct{ Status string }
		return err == nil && resp.Status == 200 && json.Unmarshal(resp.Body, &body) == nil && body.Status == "healthy"
	})
}

// signedElsewhere is healthElsewhere of a signed sibling (/handshake,
// /initialize, /event, /game-end): the agent's own verifier at the
// origin's root, which takes the request signed for the root's path (200)
// and refuses it unsigned with the documented 401 missing_signature, an
// answer only the agent's verification gives.
func (p *pushRun) signedElsewhere(ctx context.Context, route string, body map[string]any, notServed error) error {
	data, err := json.Marshal(body)
	if err != nil {
		return notServed
	}
	return p.siblingAtRoot(ctx, "POST", route, notServed, "200 signed for "+route+", 401 missing_signature unsigned", func(root *driver.HTTP) bool {
		resp, err := root.Do(ctx, driver.Request{Method: "POST", Path: route, Raw: data, Allow: []int{401},
			Header: headersFor(p.secret, "POST", route, data, time.Now(), p.freshNonce())})
		if err != nil || resp.Status != 200 {
			return false
		}
		resp, err = root.Do(ctx, driver.Request{Method: "POST", Path: route, Raw: data, Allow: []int{401},
			Header: map[string]string{"Content-Type": "application/json"}})
		var refusal struct{ Reason string }
		return err == nil && resp.Status == 401 && json.Unmarshal(resp.Body, &refusal) == nil && refusal.Reason == "missing_signature"
	})
}

// siblingAtRoot decides a sibling route that is not served beside /turn
// (PYYOL-PUSH-SIBLINGS). Nothing beside /turn is only "not served"; the
// agent's own answer at the origin's root (agents, which sees the root),
// when /turn lives below it, is a route that is not a sibling, which
// only that second answer shows; any other answer there may be another
// service's and decides nothing.
func (p *pushRun) siblingAtRoot(ctx context.Context, method, route string, notServed error, seen string, agents func(root *driver.HTTP) bool) error {
	if p.pathPrefix() == "" {
		return notServed
	}
	u, err := url.Parse(pushBase(p.env))
	if err != nil {
		return notServed
	}
	u.Path, u.RawPath = "", ""
	root, err := p.env.HTTPAt(u.String())
	if err != nil || !agents(root) {
		return notServed // no such route, or another service's at the root
	}
	return verdict.Failf("PYYOL-PUSH-SIBLINGS", p.pathPrefix()+route+" beside /turn", route+" served at the origin's root",
		"%s %s%s: not served, %s %s: %s", method, p.pathPrefix(), route, method, route, seen)
}

func (p *pushRun) lifecycle(ctx context.Context, route string) error {
	p.route = route
	bodies := map[string]map[string]any{
		"handshake":  handshakeBody(),
		"initialize": initializeBody(probeMatch, "goofspiel", 0, "", 2, goofspiel.Standard()),
		"event":      eventBody(probeMatch, "goofspiel", 1, "prize_revealed", map[string]any{"round": 0, "prize": 7, "prize_pool": 7}),
		"game-end":   gameEndBody(probeMatch, "goofspiel", map[string]any{"winner": -1, "scores": []int{0, 0}}),
	}
	err := p.post(ctx, "/"+route, bodies[route])
	if _, missing := verdict.NotServedRoute(fmt.Sprint(err)); missing {
		return p.signedElsewhere(ctx, "/"+route, bodies[route], err)
	}
	return err
}

// eventsAnyOrder sends a match's events 3 and 2, in that order, then 4 of
// a type no game documents, stopping at the first not acknowledged 200:
// events are one-way webhooks delivered asynchronously, so they may come
// out of seq order ("order by seq" is the agent's to do), and "Ack 200"
// holds for any public event, a type the agent has no use for too
// (PYYOL-PUSH-EVENT-ACK).
func (p *pushRun) eventsAnyOrder(ctx context.Context) error {
	p.route = "event"
	for _, e := range []struct {
		seq     int
		typ     string
		payload map[string]any
	}{
		{3, "prize_revealed", map[string]any{"round": 1, "prize": 3, "prize_pool": 3}},
		{2, "round_revealed", map[string]any{"round": 0, "prize": 7, "cards": []int{9, 4}, "winner": 0}},
		{4, "kit_notice", map[string]any{"note": "an event type no game documents"}},
	} {
		err := p.post(ctx, "/event", eventBody(outOfOrderMatch, "goofspiel", e.seq, e.typ, e.payload))
		if err != nil || p.Last.Status != 200 {
			return err
		}
	}
	return nil
}

// twoMatches starts two Goofspiel matches, then ends them in the order
// they started, stopping at the first call not acknowledged 200: the
// platform seats an agent in any number of matches, each named by its
// match_id ("Key your own state by match_id", the FAQ), so a second
// match's /initialize may come before the first's /game-end
// (PYYOL-PUSH-INITIALIZE, PYYOL-PUSH-GAME-END-ACK). The agent holds seat
// 0 of the first and seat 1, the last, of the second: /initialize tells
// the seat, any of 0..players-1, and every other Goofspiel match the kit
// starts seats it at 0 (PYYOL-PUSH-INITIALIZE).
func (p *pushRun) twoMatches(ctx context.Context) error {
	matches := []string{"kit-two-matches-first", "kit-two-matches-second"}
	for seat, id := range matches {
		p.route = "initialize"
		if err := p.post(ctx, "/initialize", initializeBody(id, "goofspiel", seat, "", 2, goofspiel.Standard())); err != nil || p.Last.Status != 200 {
			return err
		}
	}
	for _, id := range matches {
		p.route = "game-end"
		if err := p.post(ctx, "/game-end", gameEndBody(id, "goofspiel", map[string]any{"winner": -1, "scores": []int{0, 0}})); err != nil || p.Last.Status != 200 {
			return err
		}
	}
	return nil
}

// outOfOrderMatch is the match the out-of-order events are of, its own so
// no other scenario's events come between.
const outOfOrderMatch = "kit-events-out-of-order"

func (p *pushRun) freshTurn(ctx context.Context) error {
	if err := p.requireGoofspiel(ctx); err != nil {
		return err
	}
	return p.post(ctx, pushTurn(p.env), p.probeTurn("goofspiel"))
}

// otherGameTurn sends a turn for a documented game the handshake does not
// list (for an agent that plays all three, a game no table documents).
func (p *pushRun) otherGameTurn(ctx context.Context) error {
	if err := p.post(ctx, "/handshake", handshakeBody()); err != nil {
		return err
	}
	var hs struct {
		SupportedGames []string `json:"supportedGames"`
	}
	json.Unmarshal(p.Last.Body, &hs)
	for _, game := range []string{"mafia", "monopoly", "goofspiel"} {
		if !slices.Contains(hs.SupportedGames, game) {
			return p.post(ctx, pushTurn(p.env), p.probeTurn(game))
		}
	}
	// An agent that plays every documented game has a handler for none
	// other: a game no table lists is one it did not register.
	return p.post(ctx, pushTurn(p.env), p.probeTurn(unlistedGame))
}

func (p *pushRun) fullMatch(ctx context.Context) error {
	if err := p.requireGoofspiel(ctx); err != nil {
		return err
	}
	p.match = p.referee()
	_, err := p.match.Play(ctx)
	p.sent = append(p.sent, p.match.Sent...)
	return err
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
		SDKVersion     *string  `json:"sdkVersion"`
		SupportedGames []string `json:"supportedGames"`
	}
	if err := p.Last.Decode("PYYOL-PUSH-HANDSHAKE", &body); err != nil {
		return err
	}
	if !body.Accepted || len(body.SupportedGames) == 0 {
		return verdict.Failf("PYYOL-PUSH-HANDSHAKE", "accepted true and the supportedGames", string(p.Last.Body), "handshake")
	}
	// PYYOL-PUSH-HANDSHAKE: the documented answer carries sdkVersion, a
	// string whose value the docs leave open.
	if body.SDKVersion == nil {
		return verdict.Failf("PYYOL-PUSH-HANDSHAKE", `"sdkVersion": a string`, string(p.Last.Body), "the handshake names no sdkVersion")
	}
	if g, ok := misspelledGame(body.SupportedGames); ok {
		return verdict.Failf("PYYOL-PUSH-HANDSHAKE", g, string(p.Last.Body), "supportedGames lists a documented game in another case; the platform names its games in lower case")
	}
	return nil
}

// documentedGames are the game ids the docs use (the turn bodies' game,
// pyyol validate's --game and its "games=[goofspiel,monopoly,mafia]").
var documentedGames = []string{"goofspiel", "mafia", "monopoly"}

// misspelledGame finds an entry of games that is a documented game id in
// another case ("Goofspiel"), which names no game the platform plays
// (PYYOL-PUSH-HANDSHAKE); it returns the id the entry should be. An entry
// no game documents is the agent's own and decides nothing.
func misspelledGame(games []string) (string, bool) {
	for _, g := range games {
		for _, id := range documentedGames {
			if g != id && strings.EqualFold(g, id) {
				return id, true
			}
		}
	}
	return "", false
}

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
	var answers answerReader
	body := answers.read("goofspiel", p.Last.Body)
	note := p.env.HTTP.Recorder().Finding
	if err := answers.finding(); err != nil {
		note(err)
	}
	// spec/pyyol/frames/goofspiel-move.json: the move's documented shape.
	if err := judgeFrame(checkPart("goofspiel-move", body, "PYYOL-PUSH-TURN", "the agent's Goofspiel move"), note); err != nil {
		return err
	}
	var mv goofspiel.Move
	if err := json.Unmarshal(body, &mv); err != nil {
		return verdict.Failf("PYYOL-PUSH-TURN", "a JSON move {round, card}", string(p.Last.Body), "%v", err)
	}
	v := p.turnView()
	if mv.Round != v.Round || !slices.Contains(v.LegalActions, mv.Card) {
		return verdict.Failf("PYYOL-PUSH-TURN", fmt.Sprintf("round %d and a card of %v", v.Round, v.LegalActions), mv, "the move")
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
