package pyyol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

// sharedSteps registers the steps several feature files use.
func (p *pushRun) sharedSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the kit plays the platform against the agent endpoint$`), p.setup)
}

// sharedSteps registers the steps several feature files use.
func (g *gwRun) sharedSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^a practice agent key$`), g.key)
	sc.Step(pattern(`^the agent connects and registers$`), g.connect)
	sc.Step(pattern(`^the agent plays the match (.+?)( bidding the prize card)?( with usage records)?( after a ping)?$`), g.playStep)
	sc.Step(pattern(`^the match ended with game_end and the full history$`), g.ended)
	sc.Step(pattern(`^every answered turn was played as answered$`), g.asAnswered)
	sc.Step(pattern(`^every turn view followed the Goofspiel rules$`), g.views)
	sc.Step(pattern(`^every round resolved by the rules$`), g.rounds)
}

// views checks every turn view against what the agent saw resolve: the
// hand is 1..13 without the agent's own bids, legal_actions equals it, the
// history is every resolved round seen from the agent's seat, scores are
// by absolute seat (PYYOL-GOOF-VIEW and the rules beside it).
func (g *gwRun) views() error {
	if len(g.turns) == 0 {
		return verdict.Failf("PYYOL-WS-TURN", "turn frames", "none", "the match")
	}
	prev := -1
	for _, t := range g.turns {
		v := t.View
		if v.Seat != g.seat {
			return verdict.Failf("PYYOL-GOOF-VIEW", g.seat, v.Seat, "the view's seat in round %d", v.Round)
		}
		if err := roundFollows(prev, v.Round); err != nil {
			return err
		}
		prev = v.Round
		hand := g.expectedHand(v.Round)
		if !slices.Equal(sorted(v.YourHand), hand) {
			return verdict.Failf(handRule(v.Round), hand, v.YourHand, "your_hand in round %d: 1..13 without the seat's earlier bids", v.Round)
		}
		if !slices.Equal(sorted(v.LegalActions), sorted(v.YourHand)) {
			return verdict.Failf("PYYOL-GOOF-LEGAL-ACTIONS", v.YourHand, v.LegalActions, "legal_actions in round %d", v.Round)
		}
		if err := g.historyMatches(v); err != nil {
			return err
		}
		if r, ok := g.roundOf(v.Round); ok && v.CurrentPrize > 0 && v.CurrentPrize != r.Prize {
			// PYYOL-GOOF-VIEW: current_prize is the prize of the round
			// bid for, the one that round's round_revealed names.
			return verdict.Failf("PYYOL-GOOF-VIEW", r.Prize, v.CurrentPrize, "current_prize in round %d's view", v.Round)
		}
	}
	return g.endScoresAbsolute()
}

// endScoresAbsolute judges game_end's totals by the last round the events
// resolved: the same scores seen from the other seat are an indexing slip
// (PYYOL-GOOF-SCORES-ABSOLUTE: "scores ... indexed by absolute seat"), in
// the result as in the views. Any other difference is left to the rules
// that judge the result (its winner, its history).
func (g *gwRun) endScoresAbsolute() error {
	last, ok := goofspiel.Round{Round: -1}, false
	for _, e := range g.events {
		var r goofspiel.Round
		if e.Type == goofspiel.RoundRevealed && json.Unmarshal(e.Payload, &r) == nil && r.Round > last.Round {
			last, ok = r, true
		}
	}
	var res goofspiel.Result
	if !ok || g.end == nil || json.Unmarshal(g.end.Result, &res) != nil {
		return nil
	}
	if res.Scores != last.Scores && scoresRule(res.Scores, last.Scores) == "PYYOL-GOOF-SCORES-ABSOLUTE" {
		return verdict.Failf("PYYOL-GOOF-SCORES-ABSOLUTE", last.Scores, res.Scores, "game_end's scores by seat, after round %d resolved", last.Round)
	}
	return nil
}

// roundFollows judges a view's round against the view before it: the
// round is the 0-based index of the round being bid, so a match's first
// view is round 0 and each next one the same round (a turn asked again)
// or the one after (PYYOL-GOOF-VIEW: "0-based index of the round now
// being bid"). A view counting from 1 is caught here, before the hand it
// would be judged against is taken from the wrong round.
func roundFollows(prev, round int) error {
	if prev < 0 && round != 0 {
		return verdict.Failf("PYYOL-GOOF-VIEW", "round 0 in the match's first view", round, "the 0-based index of the round being bid")
	}
	if prev >= 0 && round != prev && round != prev+1 {
		return verdict.Failf("PYYOL-GOOF-VIEW", fmt.Sprintf("round %d or %d after round %d", prev, prev+1, prev), round, "the view after round %d's", prev)
	}
	return nil
}

// handRule names the rule a wrong hand breaks: the first round's hand is
// the identical 1..13 (PYYOL-GOOF-HANDS); a later one still holding a bid
// card kept a card the round should have discarded (PYYOL-GOOF-RESOLVE:
// "the bid cards are then discarded from both hands").
func handRule(round int) string {
	if round == 0 {
		return "PYYOL-GOOF-HANDS"
	}
	return "PYYOL-GOOF-RESOLVE"
}

// viewPools judges the prize_pool of round n wherever a view tells it:
// the pool bid for in round n's views, and round n's record in the
// history of every later view. Either is the prize plus what the rounds
// before carried, as the round's record shows it: a tied pool left out
// breaks the tie rule; any other figure is a view short of its pool
// (PYYOL-GOOF-VIEW) or a history entry not the round's
// (PYYOL-GOOF-HISTORY).
func (g *gwRun) viewPools(n, prize, carried int, rules goofspiel.Rules) error {
	poolRule := func(otherwise string) string {
		if carried > 0 {
			return tieRule(rules)
		}
		return otherwise
	}
	for _, t := range g.turns {
		v := t.View
		if v == nil {
			continue
		}
		if v.Round == n && v.PrizePool != prize+carried {
			return verdict.Failf(poolRule("PYYOL-GOOF-VIEW"), prize+carried, v.PrizePool, "prize_pool in round %d's view (prize %d, %d carried)", n, prize, carried)
		}
		for _, h := range v.History {
			if h.Round == n && h.PrizePool != prize+carried {
				return verdict.Failf(poolRule("PYYOL-GOOF-HISTORY"), prize+carried, h.PrizePool, "history's prize_pool of round %d in round %d's view (prize %d, %d carried)", n, v.Round, prize, carried)
			}
		}
	}
	return nil
}

// rounds replays every resolved round: the higher card takes the pool,
// ties carry or split, the pool is the prize plus what was carried.
func (g *gwRun) rounds() error {
	rules := g.rules()
	carried, scores := 0, [2]int{}
	for n := 0; n < g.rules().Cards; n++ {
		r, ok := g.roundOf(n)
		if !ok {
			return verdict.Failf("PYYOL-GOOF-ROUNDS", "round_revealed for round "+fmt.Sprint(n), "none", "13 rounds")
		}
		if r.PrizePool != r.Prize+carried {
			return verdict.Failf(tieRule(rules), r.Prize+carried, r.PrizePool, "prize_pool of round %d (prize %d, %d carried)", n, r.Prize, carried)
		}
		if err := g.viewPools(n, r.Prize, carried, rules); err != nil {
			return err
		}
		winner := -1
		switch {
		case r.Cards[0] > r.Cards[1]:
			winner = 0
		case r.Cards[1] > r.Cards[0]:
			winner = 1
		}
		carried = 0
		switch {
		case winner >= 0:
			scores[winner] += r.PrizePool
		case rules.TieRule == goofspiel.Split:
			scores[0] += r.PrizePool / 2
			scores[1] += r.PrizePool / 2
			carried = r.PrizePool % 2
		default:
			carried = r.PrizePool
		}
		if r.Winner != winner || r.Scores != scores {
			rule := "PYYOL-GOOF-RESOLVE"
			if winner < 0 {
				rule = tieRule(rules)
			}
			return verdict.Failf(rule, fmt.Sprintf("winner %d, scores %v", winner, scores),
				fmt.Sprintf("winner %d, scores %v", r.Winner, r.Scores), "round %d with cards %v", n, r.Cards)
		}
	}
	return nil
}

// key takes --agent-id/--token, or mints a practice key at the reference's
// documented endpoint (PYYOL-REF-MINT).
func (g *gwRun) key(ctx context.Context) error {
	if token := g.env.Settings.String(tokenFlag.Name); token != "" {
		g.agentID, g.token = g.env.Settings.String(agentIDFlag.Name), token
		g.env.HTTP.Secrets().Add(token)
		return nil
	}
	resp, err := mintDriver(g.env).Do(ctx, driver.Request{Method: "POST", Path: "/practice/agents", JSON: map[string]any{"name": "conformance-kit"}})
	var skip *verdict.Skipped
	if _, missing := verdict.NotServedRoute(fmt.Sprint(err)); missing && errors.As(err, &skip) {
		// No mint here (it is the kit's choice, PYYOL-REF-MINT): say how
		// to run with a key of one's own.
		return verdict.Skipf("%s; pass --agent-id and --token", skip.Reason)
	}
	if err != nil {
		return err
	}
	var key struct {
		AgentID   string `json:"agent_id"`
		Token     string `json:"token"`
		Dashboard string `json:"dashboard_token"`
	}
	if resp.Status != 201 || json.Unmarshal(resp.Body, &key) != nil || key.Token == "" {
		return verdict.Skipf("the target mints no practice keys at POST /practice/agents (status %d); pass --agent-id and --token", resp.Status)
	}
	g.env.HTTP.Secrets().Add(key.Token)
	if key.Dashboard != "" {
		g.env.HTTP.Secrets().Add(key.Dashboard)
	}
	g.agentID, g.token, g.dashboard = key.AgentID, key.Token, key.Dashboard
	return nil
}

func (g *gwRun) connect(ctx context.Context) error {
	f, err := g.register(ctx, g.token)
	if err != nil {
		return err
	}
	if f.T != "registered" || f.AgentID == "" {
		return verdict.Failf("PYYOL-WS-REGISTERED", `{"t":"registered","agent_id":"`+g.agentID+`"}`, string(f.wire), "the answer to register")
	}
	if g.agentID != "" && f.AgentID != g.agentID {
		return verdict.Failf("PYYOL-WS-AGENT-KEY", g.agentID, f.AgentID, "the agent id the key resolves to")
	}
	g.agentID = f.AgentID
	return nil
}

func (g *gwRun) playStep(ctx context.Context, how, prize, usage, ping string) error {
	r0, ok := round0[how]
	if !ok {
		return verdict.Errorf("unknown behaviour %q", how)
	}
	return g.play(ctx, behaviour{round0: r0, bidPrize: prize != "", usage: usage != "", ping: ping != "", rounds: how == manyRoundsFewPoints})
}

// asAnswered checks that every move the agent answered in time was the
// one played (a late or stray response must not replace it).
func (g *gwRun) asAnswered() error {
	settled := 0
	for _, mv := range g.answered {
		r, ok := g.roundOf(mv.Round)
		if ok && r.Cards[g.seat] != mv.Card && g.fallbackOf(mv.Round) == r.Cards[g.seat] {
			settled++ // the gateway's timeout settled it first (timedOut)
			continue
		}
		if ok && r.Cards[g.seat] != mv.Card {
			// A stray round-0 response (late, under another id, for another
			// round) that replaced a later move breaks the behaviour's rule;
			// in a plain match, PYYOL-WS-CORRELATION.
			return verdict.Failf(g.round0Rule(), mv.Card, r.Cards[g.seat], "the card played in round %d, which the agent answered in time", mv.Round)
		}
	}
	return g.timedOut(settled)
}

func (g *gwRun) ended() error {
	res, err := g.result()
	if err != nil {
		return err
	}
	if n := g.rules().Cards; len(res.History) != n {
		return verdict.Failf("PYYOL-WS-CONTEXT", n, len(res.History), "rounds in game_end's history")
	}
	return nil
}

// play answers every turn with policy until game_end.
func (m *monoRun) play(ctx context.Context) error {
	g := m.g
	started := false
	for m.end == nil {
		f, err := m.next(ctx, started)
		if err != nil {
			return err
		}
		if followsAnswer(f.T) {
			m.clock.followed()
		}
		switch f.T {
		case "initialize":
			started = true
			m.init, m.initRules = &f, nil
			if f.Seat != nil {
				m.seat = *f.Seat
			}
			if f.ID != "" {
				m.clock.answering(nil)
				g.ws.Send(ctx, readyResponse(f.ID))
			}
		case "turn":
			started = true
			if err := m.answer(ctx, f); err != nil {
				return err
			}
		case "event":
			if err := m.pastCap(f); err != nil {
				return err
			}
			m.events = append(m.events, f)
			if n := len(m.turns); n > 0 {
				m.turns[n-1].after = append(m.turns[n-1].after, f)
			}
		case "game_end":
			m.end = &f
		case "ping":
			g.ws.Send(ctx, pongFor(f))
		}
	}
	m.clock.note(g.env, len(m.turns))
	m.refereeDone()
	return nil
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
