package pyyol

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
)

var round0 = map[string]string{
	"answering every turn":                            "answer",
	"leaving round 0 unanswered":                      "silent",
	"answering round 0 with an illegal card":          "illegal",
	"answering round 0 with a handler error":          "error",
	"answering round 0 only after it resolved":        "late",
	"answering round 0 under another turn's id":       "other-id",
	"answering round 0 for another round":             "wrong-round",
	"dropping the socket in round 0 and reconnecting": "drop",
}

func gatewaySteps(sc *godog.ScenarioContext, env *suite.Env) {
	g := &gwRun{env: env}
	g.Bind(sc, env)
	sc.Step(pattern(`^a practice agent key$`), g.key)
	sc.Step(pattern(`^the agent asks for (open|shuffled) prizes and (carry|split) ties$`), g.ask)
	sc.Step(pattern(`^the agent connects and registers$`), g.connect)
	sc.Step(pattern(`^the agent connects and registers with a wrong token$`), g.connectWrong)
	sc.Step(pattern(`^the agent plays the match (.+?)( bidding the prize card)?( with usage records)?( after a ping)?$`), g.playStep)
	sc.Step(pattern(`^the gateway refused with error unauthorized and closed the socket$`), g.refusedCheck)
	sc.Step(pattern(`^round 0 of the agent's seat took its lowest card$`), g.fellBack)
	sc.Step(pattern(`^the match ended with game_end and the full history$`), g.ended)
	sc.Step(pattern(`^events arrived in strictly increasing seq order$`), g.ordered)
	sc.Step(pattern(`^initialize and every turn carried an id$`), g.ids)
	sc.Step(pattern(`^every answered turn was played as answered$`), g.asAnswered)
	sc.Step(pattern(`^every turn view followed the Goofspiel rules$`), g.views)
	sc.Step(pattern(`^every round resolved by the rules$`), g.rounds)
	sc.Step(pattern(`^the commitment matched the reveal$`), g.commitment)
	sc.Step(pattern(`^no bid was shown before its round resolved$`), g.sealed)
	sc.Step(pattern(`^the winner followed the final scores$`), g.winner)
	sc.Step(pattern(`^the gateway answered the ping with a pong$`), g.pong)
	sc.Step(pattern(`^the prizes came in card order$`), g.openOrder)
	sc.Step(pattern(`^the events were the documented Goofspiel events$`), g.eventTypes)
	sc.Step(pattern(`^the game_end lists the usage with meter_source sdk$`), g.usage)
	platformSteps(sc, g)
	mafiaSteps(sc, g)
	monopolySteps(sc, g)
	supersedeSteps(sc, g)
	g.Cleanup(func() {
		if g.ws != nil {
			g.ws.Close()
		}
	})
}

// key takes --agent-id/--token, or mints a practice key at the reference's
// documented endpoint (PYYOL-REF-MINT).
func (g *gwRun) key(ctx context.Context) error {
	if c := credentials(); c.Token != "" {
		g.agentID, g.token = c.AgentID, c.Token
		g.env.HTTP.Secrets().Add(c.Token)
		return nil
	}
	resp, err := mintDriver(g.env).Do(ctx, driver.Request{Method: "POST", Path: "/practice/agents", JSON: map[string]any{"name": "conformance-kit"}})
	if err != nil {
		return err
	}
	var key struct {
		AgentID string `json:"agent_id"`
		Token   string `json:"token"`
	}
	if resp.Status != 201 || json.Unmarshal(resp.Body, &key) != nil || key.Token == "" {
		return verdict.Skipf("the target mints no practice keys at POST /practice/agents (status %d); pass --agent-id and --token", resp.Status)
	}
	g.env.HTTP.Secrets().Add(key.Token)
	g.agentID, g.token = key.AgentID, key.Token
	return nil
}

func (g *gwRun) ask(fairness, tie string) error {
	g.practice = map[string]any{"fairness_mode": fairness, "tie_rule": tie}
	return nil
}

func (g *gwRun) connect(ctx context.Context) error {
	f, err := g.register(ctx, g.token)
	if err != nil {
		return err
	}
	if f.T != "registered" || f.AgentID == "" {
		return verdict.Failf("PYYOL-WS-REGISTERED", `{"t":"registered","agent_id":"`+g.agentID+`"}`, string(f.raw), "the answer to register")
	}
	if g.agentID != "" && f.AgentID != g.agentID {
		return verdict.Failf("PYYOL-WS-AGENT-KEY", g.agentID, f.AgentID, "the agent id the key resolves to")
	}
	g.agentID = f.AgentID
	return nil
}

func (g *gwRun) connectWrong(ctx context.Context) error {
	f, err := g.register(ctx, "sk_arena_not_a_key_"+g.agentID)
	if err != nil {
		return err
	}
	if f.T != "error" || f.Error != "unauthorized" {
		g.refusal = verdict.Failf("PYYOL-WS-UNAUTHORIZED", `{"t":"error","error":"unauthorized"}`, string(f.raw), "the answer to a wrong token")
	}
	return nil
}

func (g *gwRun) refusedCheck(ctx context.Context) error {
	if g.refusal != nil {
		return g.refusal
	}
	// After the error the socket must close: the next read ends it.
	for {
		_, err := g.ws.Next(ctx)
		if err == nil {
			continue
		}
		select {
		case <-g.ws.Done():
			return nil
		default:
			return verdict.Failf("PYYOL-WS-UNAUTHORIZED", "the socket closed", "still open after "+waitLimit.String(), "after the unauthorized error")
		}
	}
}

func (g *gwRun) playStep(ctx context.Context, how, prize, usage, ping string) error {
	r0, ok := round0[how]
	if !ok {
		return verdict.Errorf("unknown behaviour %q", how)
	}
	return g.play(ctx, behaviour{round0: r0, bidPrize: prize != "", usage: usage != "", ping: ping != ""})
}

func (g *gwRun) fellBack() error {
	if len(g.turns) == 0 || g.turns[0].View == nil {
		return verdict.Errorf("no round-0 turn was seen")
	}
	v := g.turns[0].View
	low := slices.Min(v.LegalActions)
	r, ok := g.roundOf(0)
	if !ok {
		return verdict.Failf(g.round0Rule(), "round_revealed for round 0", "none", "the round never resolved")
	}
	switch got := r.Cards[g.seat]; {
	case got == low:
		return nil
	case got == g.stray:
		// The card the agent sent in a way that must not count.
		return verdict.Failf(g.round0Rule(), low, got, "round 0's card for seat %d: the response must not have counted", g.seat)
	default:
		return verdict.Failf("PYYOL-GOOF-FALLBACK-LOWEST", low, got, "round 0's fallback card for seat %d", g.seat)
	}
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

// result decodes game_end's result.
func (g *gwRun) result() (goofspiel.Result, error) {
	var res goofspiel.Result
	if g.end == nil {
		return res, verdict.Failf("PYYOL-WS-GAME-END", "a game_end frame", "none", "the match")
	}
	if err := json.Unmarshal(g.end.Result, &res); err != nil {
		return res, verdict.Failf("PYYOL-WS-GAME-END", "a result object", string(g.end.Result), "%v", err)
	}
	return res, nil
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

func (g *gwRun) ordered() error {
	last := 0
	for _, e := range g.events {
		if e.Seq <= last {
			return verdict.Failf("PYYOL-WS-EVENT-SEQ", "seq above "+describe(last), e.Seq, "event %s", e.Type)
		}
		last = e.Seq
	}
	if last == 0 {
		return verdict.Failf("PYYOL-WS-EVENT-SEQ", "events", "none", "the match sent no events")
	}
	return nil
}

func (g *gwRun) ids() error {
	if len(g.inits) == 0 {
		return verdict.Failf("PYYOL-WS-INITIALIZE", "an initialize frame", "none", "the match start")
	}
	for _, f := range g.inits {
		if f.ID == "" || f.Seat == nil {
			return verdict.Failf("PYYOL-WS-INITIALIZE", "an id and the seat", string(f.raw), "initialize frame")
		}
	}
	for _, f := range g.turns {
		if f.ID == "" {
			return verdict.Failf("PYYOL-WS-TURN", "an id", string(f.raw), "turn frame")
		}
	}
	return nil
}

func (g *gwRun) pong() error {
	if g.pongs == 0 {
		return verdict.Failf("PYYOL-WS-PING", "a pong", "none", "the answer to the agent's ping")
	}
	return nil
}

func (g *gwRun) eventTypes() error {
	known := []string{goofspiel.MatchCreated, goofspiel.PrizeRevealed, goofspiel.CardSealed, goofspiel.RoundRevealed, goofspiel.MatchFinished}
	for _, e := range g.events {
		if !slices.Contains(known, e.Type) {
			return verdict.Failf("PYYOL-GOOF-EVENTS", strings.Join(known, ", "), e.Type, "event type")
		}
	}
	return nil
}

func (g *gwRun) commitment() error {
	created, ok := g.payload(goofspiel.MatchCreated)
	res, err := g.result()
	if err != nil {
		return err
	}
	commitment, _ := created["commitment"].(string)
	if !ok || commitment == "" {
		return verdict.Failf("PYYOL-GOOF-COMMITMENT", "match_created with a commitment", describe(created), "match_created")
	}
	reveal := res.Reveal
	if finished, ok := g.payload(goofspiel.MatchFinished); ok && reveal == "" {
		reveal, _ = finished["reveal"].(string)
	}
	seed, err := hex.DecodeString(reveal)
	if err != nil || reveal == "" {
		return verdict.Skipf("game_end reveals no hex seed: the commitment scheme is the target's own (PYYOL-REF-COMMIT-SCHEME)")
	}
	sum := sha256.Sum256(seed)
	if hex.EncodeToString(sum[:]) != commitment {
		return verdict.Failf("PYYOL-REF-COMMIT-SCHEME", commitment, hex.EncodeToString(sum[:]), "sha256 of the revealed seed")
	}
	order := goofspiel.PrizeOrder(res.Rules, seed)
	for _, r := range res.History {
		if r.Round < len(order) && order[r.Round] != r.Prize {
			return verdict.Failf("PYYOL-GOOF-SHUFFLED", order, describe(res.History), "the prizes the reveal commits to")
		}
	}
	return nil
}

// payload finds the first event of a type.
func (g *gwRun) payload(typ string) (map[string]any, bool) {
	for _, e := range g.events {
		if e.Type == typ {
			var p map[string]any
			json.Unmarshal(e.Payload, &p)
			return p, true
		}
	}
	return nil, false
}

func (g *gwRun) usage() error {
	var res struct {
		Usage []struct {
			MeterSource string `json:"meter_source"`
		} `json:"usage"`
	}
	if g.end == nil || json.Unmarshal(g.end.Result, &res) != nil || len(res.Usage) == 0 {
		return verdict.Failf("PYYOL-REF-USAGE", "usage records in game_end", "none", "the recorded usage")
	}
	for _, u := range res.Usage {
		if u.MeterSource != "sdk" {
			return verdict.Failf("PYYOL-REF-USAGE", "sdk", u.MeterSource, "meter_source")
		}
	}
	return nil
}
