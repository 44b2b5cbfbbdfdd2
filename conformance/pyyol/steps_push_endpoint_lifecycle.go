package pyyol

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pushsign"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// pushLifecycleSteps registers the steps of features/pyyol/push-endpoint.feature
// about what an agent holds of a match, and the liveness probe as the
// platform's client sends it.
func (p *pushRun) pushLifecycleSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the platform probes /health with a timestamp and a request id but no signature$`), p.markedHealth)
	sc.Step(pattern(`^the platform delivers a match's (initialize|game-end) twice$`), p.deliveredTwice)
	sc.Step(pattern(`^the platform ends a match it never initialized$`), p.unknownEnd)
	sc.Step(pattern(`^the platform sends a signed turn for a Goofspiel view in the middle of a match$`), p.midMatchTurn)
}

// markedHealth probes /health as the platform's client does: its attempt
// sets X-Arena-Timestamp and X-Arena-Request-Id on every call, a signature
// only with a token, which the probe has none of (agentclient.go). The
// probe is still unsigned, so it is answered healthy (PYYOL-PUSH-HEALTH).
func (p *pushRun) markedHealth(ctx context.Context) (err error) {
	p.onRefusal = "PYYOL-PUSH-HEALTH"
	h := map[string]string{pushsign.TimestampHeader: pushsign.Timestamp(time.Now()), pushsign.NonceHeader: p.freshNonce(),
		"Accept": "application/json"}
	p.Last, err = p.signed.Unsigned().Do(ctx, driver.Request{Method: "GET", Path: "/health", Header: h, Allow: []int{401}})
	return err
}

// deliveredTwice starts a match (for /game-end) and sends its route's
// call twice, each signed afresh, stopping at the first not acknowledged
// 200: the platform's client retries a call that failed or timed out with
// a new nonce (agentclient.go do), so the agent may get the same call
// again (PYYOL-PUSH-INITIALIZE, PYYOL-PUSH-GAME-END-ACK).
func (p *pushRun) deliveredTwice(ctx context.Context, route string) error {
	match := "kit-delivered-twice-" + route
	calls := []string{route, route}
	if route == "game-end" {
		calls = []string{"initialize", "game-end", "game-end"}
	}
	for _, r := range calls {
		if err := p.lifecycleCall(ctx, r, match); err != nil || p.Last.Status != 200 {
			return err
		}
	}
	return nil
}

// unknownEnd ends a match the agent never got an /initialize of: the
// platform's Initialize is best-effort ("the agent may also initialise
// lazily"), so /game-end is acknowledged whatever the agent holds
// (PYYOL-PUSH-GAME-END-ACK).
func (p *pushRun) unknownEnd(ctx context.Context) error {
	return p.lifecycleCall(ctx, "game-end", "kit-never-initialized")
}

// lifecycleCall sends a Goofspiel match's /initialize or /game-end.
func (p *pushRun) lifecycleCall(ctx context.Context, route, match string) error {
	p.route = route
	if route == "initialize" {
		return p.post(ctx, "/initialize", initializeBody(match, "goofspiel", 0, "", 2, goofspiel.Standard()))
	}
	return p.post(ctx, "/game-end", gameEndBody(match, "goofspiel", map[string]any{"winner": -1, "scores": []int{0, 0}}))
}

// midMatchTurn sends, as the first call of its match, the view of round
// midRound after seat 0 bid the card of that round's prize first and then
// 7 and its highest cards but 13 (midMatchBids): the view is
// self-contained ("reason over the entire match from a single turn
// payload") and the platform's Initialize is best-effort, so the move
// must echo the view's round and bid from its legal_actions, which no
// longer hold round+1 nor the current prize's card (PYYOL-PUSH-TURN).
func (p *pushRun) midMatchTurn(ctx context.Context) error {
	if err := p.requireGoofspiel(ctx); err != nil {
		return err
	}
	v, err := midMatchView(p.env.Seed)
	if err != nil {
		return verdict.Errorf("the kit's mid-match view: %v", err)
	}
	p.view = &v
	return p.post(ctx, pushTurn(p.env), turnBody(fmt.Sprintf("kit-mid-match-%d", p.env.Seed), "goofspiel", v))
}

// midRound is the round of the mid-match view.
const midRound = 6

// midMatchView plays midRound rounds of a standard match, seat 0 bidding
// midMatchBids and seat 1 the kit's opponent, and returns seat 0's view.
func midMatchView(seed uint64) (goofspiel.View, error) {
	m, err := goofspiel.New(goofspiel.Standard(), MatchSeed(seed))
	if err != nil {
		return goofspiel.View{}, err
	}
	bids := midMatchBids(goofspiel.PrizeOrder(m.Rules(), MatchSeed(seed))[midRound])
	for round := range midRound {
		if err := m.Bid(0, goofspiel.Move{Round: round, Card: bids[round]}); err != nil {
			return goofspiel.View{}, err
		}
		if err := m.Bid(1, Opponent(m.View(1))); err != nil {
			return goofspiel.View{}, err
		}
	}
	v := m.View(0)
	for _, spent := range []int{v.Round + 1, v.CurrentPrize} {
		if slices.Contains(v.LegalActions, spent) {
			return v, fmt.Errorf("the hand %v still holds %d", v.LegalActions, spent)
		}
	}
	return v, nil
}

// midMatchBids are seat 0's first midRound bids: the card of prize (the
// prize of round midRound) first, then round+1 and the highest cards but
// 13, each once, so neither a bid of the round's prize (the docs'
// preferred pick, made without reading legal_actions) nor one of round+1
// is still in the hand (PYYOL-PUSH-TURN).
func midMatchBids(prize int) []int {
	bids := []int{prize}
	for _, c := range []int{midRound + 1, 12, 11, 10, 9, 8} {
		if len(bids) < midRound && !slices.Contains(bids, c) {
			bids = append(bids, c)
		}
	}
	return bids
}
